/**
 * What the fuzzer runs. One target per formatter: its parse over the bytes (decoded as Tally does,
 * in small or large text chunks), after every formatter's sniff over the head; a FormatError is the
 * designed answer, any other throw, or a container with a status or title a store would refuse,
 * is a crash. One target for the front end: the bytes as a multipart body POSTed to a started
 * Tally's /import (busboy, the part guard, zip spooling and reading, detection): any 5xx, a dropped
 * connection or a spool file left behind is a crash. Seeds are each formatter's fixtures and a few
 * hand-made forms.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isFormatError, type Formatter } from '../../lib/formatter/api.js';
import { parseBytes } from '../../lib/formatter/check.js';
import { HEAD_BYTES, readHead } from '../../lib/formatter/head.js';
import type { Target } from './engine.js';

const STATUSES = new Set(['passed', 'failed', 'errored', 'skipped', 'pending', 'unknown']);
const MAX_SEED_BYTES = 64 * 1024;
const MAX_SEEDS = 30;

const tokens = (xs: string[]): Buffer[] => xs.map((x) => Buffer.from(x, 'latin1'));

export const TEXT_DICTIONARY = tokens([
  '<',
  '>',
  '</',
  '/>',
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<?xml version="1.0" encoding="UTF-16"?>',
  '<!DOCTYPE x [<!ENTITY a "b">]>',
  '&a;',
  '&amp;',
  '&#0;',
  '&#27;',
  '&#x110000;',
  '<![CDATA[',
  ']]>',
  '="',
  '<testsuite name="s">',
  '</testsuite>',
  '<testcase name="t" time="-1">',
  '</testcase>',
  '<failure message="m">',
  '<skipped/>',
  'xmlns="urn:x"',
  '{',
  '}',
  '[',
  ']',
  '"',
  ':',
  ',',
  'null',
  'true',
  '-1e999',
  '1e400',
  '"\\u0000"',
  '"\\ud800"',
  '0.5',
  '{"a":',
  '"status":"failed"',
  '"name":',
  '\n',
  '\r\n',
  'ok 1 - a\n',
  'not ok 2 - b\n',
  '1..3\n',
  '  ---\n',
  '  ...\n',
  'TAP version 13\n',
  '# Subtest: s\n',
  '    ',
  '\t',
  '\xef\xbb\xbf',
  '\xff\xfe',
  '\xc3\x28',
]);

function fixtureFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...fixtureFiles(p));
    else if (!/^(README\.md|MANIFEST\.json|PROVENANCE.*)$/i.test(e.name)) out.push(p);
  }
  return out.sort();
}

export function seedsOf(dir: string): Buffer[] {
  // Small fixtures first: mutations of small inputs run fast and reach as much code.
  const files = fixtureFiles(dir)
    .sort((a, b) => statSync(a).size - statSync(b).size)
    .slice(0, MAX_SEEDS);
  return files.map((f) => readFileSync(f).subarray(0, MAX_SEED_BYTES));
}

export function formatterTarget(f: Formatter, all: readonly Formatter[], fixturesDir: string): Target {
  const fileName = `fuzz${f.extensions[0] ?? '.txt'}`;
  return {
    name: f.key,
    seeds: seedsOf(fixturesDir),
    dictionary: TEXT_DICTIONARY,
    async run(input) {
      const { head } = readHead(input.subarray(0, HEAD_BYTES), fileName, input.length <= HEAD_BYTES);
      // sniff is pure and never throws (the formatter API's contract).
      for (const other of all) {
        const score = other.sniff(head);
        if (!(score >= 0 && score <= 1)) throw new Error(`${other.key}.sniff returned ${score}`);
      }
      // Small inputs are also read in tiny text chunks: every token split across chunks.
      const chunk = input.length < 8192 && input.length % 2 === 0 ? 7 : 65_536;
      const outcome = await parseBytes(f, input, fileName, chunk);
      if (outcome.error && !isFormatError(outcome.error)) throw outcome.error;
      for (const c of outcome.containers) {
        if (!STATUSES.has(c.status)) throw new Error(`a container with status ${String(c.status)}`);
        if (typeof c.title !== 'string') throw new Error(`a container with title ${typeof c.title}`);
      }
    },
  };
}

export interface FrontEnd {
  post(body: Buffer, contentType: string): Promise<{ status: number; code: string | null }>;
  spoolFiles(): Promise<string[]>;
}

export const FUZZ_BOUNDARY = 'tallyfuzzboundary';

export function frontEndTarget(server: FrontEnd, seeds: Buffer[]): Target {
  return {
    name: 'multipart+zip',
    seeds,
    dictionary: [
      ...tokens([
        `\r\n--${FUZZ_BOUNDARY}\r\n`,
        `\r\n--${FUZZ_BOUNDARY}--\r\n`,
        'Content-Disposition: form-data; name="file[]"; filename="a.xml"\r\n\r\n',
        'Content-Disposition: form-data; name="attachment[]"; filename="x.png"\r\n',
        'Content-Type: application/zip\r\n',
        'name="merge_containers"\r\n\r\ntrue',
        'PK\x03\x04',
        'PK\x01\x02',
        'PK\x05\x06',
        'PK\x06\x06',
        '\r\n\r\n',
      ]),
      ...TEXT_DICTIONARY.slice(0, 20),
    ],
    async run(input) {
      const r = await server.post(input, `multipart/form-data; boundary=${FUZZ_BOUNDARY}`);
      if (r.status >= 500) throw new Error(`answered ${r.status} ${r.code ?? ''}`);
      const left = await server.spoolFiles();
      if (left.length > 0) throw new Error(`spool files left: ${left.join(', ')}`);
    },
  };
}
