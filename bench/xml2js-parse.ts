/**
 * The peers' whole-file way, for comparison: every entry of a zip parsed into a DOM with xml2js,
 * as dorny/test-reporter's JUnit parser and Jenkins-style tools do. Prints seconds, testcases and
 * peak RSS as JSON.
 *
 *   node --import tsx bench/xml2js-parse.ts ARCHIVE.zip                 one entry read and parsed at a time
 *   node --import tsx bench/xml2js-parse.ts ARCHIVE.zip --all-first     dorny/test-reporter's order: every
 *       file's text read first (its input provider loads them all), then each parsed, one result object
 *       per testcase kept for the report
 */
import { open } from 'yauzl-promise';
import { parseStringPromise } from 'xml2js';
import { readFileSync } from 'node:fs';

const zipPath = process.argv[2];
const allFirst = process.argv.includes('--all-first');
if (!zipPath) throw new Error('usage: xml2js-parse.ts ARCHIVE.zip [--all-first]');

interface CaseResult {
  name: string;
  result: 'success' | 'failed' | 'skipped';
  time: number;
  error?: string;
}

async function* entries(): AsyncGenerator<string> {
  const zip = await open(zipPath!);
  try {
    for await (const entry of zip) {
      if (entry.filename.endsWith('/')) continue;
      const chunks: Buffer[] = [];
      for await (const c of await entry.openReadStream()) chunks.push(c as Buffer);
      yield Buffer.concat(chunks).toString('utf8');
    }
  } finally {
    await zip.close();
  }
}

/** The testcases of a parsed document, as a reporter keeps them. */
/** A `<testcase>` as xml2js gives it: `$` attributes, child elements as lists, `_` text. */
interface Xml2jsCase {
  $?: { name?: string; time?: string };
  failure?: (string | { _?: string; $?: { message?: string } })[];
  error?: Xml2jsCase['failure'];
  skipped?: unknown;
}

function results(doc: unknown): CaseResult[] {
  const out: CaseResult[] = [];
  const walk = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    const node = value as Record<string, unknown>;
    if (Array.isArray(node.testcase)) {
      for (const tc of node.testcase as Xml2jsCase[]) {
        const failure = tc.failure?.[0] ?? tc.error?.[0];
        out.push({
          name: tc.$?.name ?? '',
          result: failure ? 'failed' : tc.skipped ? 'skipped' : 'success',
          time: Number(tc.$?.time ?? 0) * 1000,
          ...(failure
            ? { error: typeof failure === 'string' ? failure : (failure._ ?? failure.$?.message ?? '') }
            : {}),
        });
      }
    }
    for (const v of Object.values(node)) {
      if (Array.isArray(v)) v.forEach(walk);
      else walk(v);
    }
  };
  walk(doc);
  return out;
}

const t0 = process.hrtime.bigint();
let testcases = 0;
if (allFirst) {
  const texts: string[] = [];
  for await (const text of entries()) texts.push(text);
  const kept: CaseResult[][] = [];
  for (const text of texts) kept.push(results(await parseStringPromise(text)));
  testcases = kept.reduce((n, r) => n + r.length, 0);
} else {
  for await (const text of entries()) testcases += results(await parseStringPromise(text)).length;
}
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
process.stdout.write(`${JSON.stringify({ seconds, testcases, peakRss: hwm })}\n`);
