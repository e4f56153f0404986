/**
 * The built-in formatters and what each format's folder must hold: every folder registered once, in
 * key order; fixtures with a MANIFEST.json, a README opening with its summary, a bench generator,
 * sniff samples and a test file that runs the shared checks (an empty file among them); the
 * cross-vote table (no sniff scores another format's samples or fixtures above 0); docs/formats.md
 * as generated. And the registry's own rules: unique keys, voting.
 */
import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatorOf } from '../../bench/formats.js';
import { builtinFormatters } from '../../formatters/index.js';
import { junit } from '../../formatters/junit/index.js';
import type { Head } from '../../lib/formatter/api.js';
import { fixturesIn } from '../../lib/formatter/check.js';
import { HEAD_BYTES, readHead } from '../../lib/formatter/head.js';
import { createRegistry, vote } from '../../lib/formatter/registry.js';
import { FORMATS_DOC, formatsDoc, readmeSummary } from '../../scripts/formats-doc.js';
import { headOf, loadSamples } from '../helpers/formatter-fixtures.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const folderOf = (key: string): string => path.join(root, 'formatters', key);
const keys = builtinFormatters.map((f) => f.key);

t.test('every formatter folder is registered, once, in key order', async (t) => {
  const folders = readdirSync(path.join(root, 'formatters'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  t.same([...keys].sort(), folders.sort(), 'formatters/<key>/ folders and formatters/index.ts agree');
  t.equal(new Set(keys).size, keys.length, 'no key twice');
  t.same(keys, [...keys].sort(), 'the list is sorted by key');
});

t.test("each format's folder holds fixtures, README, generator, samples and the shared checks", async (t) => {
  for (const key of keys) {
    const dir = folderOf(key);
    t.ok(existsSync(path.join(dir, 'fixtures', 'MANIFEST.json')), `${key}: fixtures with a MANIFEST.json`);
    t.doesNotThrow(() => readmeSummary(readFileSync(path.join(dir, 'README.md'), 'utf8')), `${key}: README`);
    t.ok(await generatorOf(key), `${key}: generate.ts exports the bench generator`);
    t.ok(existsSync(path.join(dir, 'samples.json')) && loadSamples(dir).some((s) => s.mine), `${key}: samples.json`);
    const test = path.join(dir, `${key}.test.ts`);
    // formatterChecks and jsonReportChecks parse an empty file along with the format's own cases.
    const checks = existsSync(test) && /\b(?:formatterChecks|jsonReportChecks)\(fx\b/.test(readFileSync(test, 'utf8'));
    t.ok(checks, `${key}: ${key}.test.ts runs the shared checks, the empty-input case among them`);
  }
});

t.test('status mappings: no README counts a status as skipped (each counts as itself)', async (t) => {
  for (const key of keys) {
    const readme = readFileSync(path.join(folderOf(key), 'README.md'), 'utf8');
    t.notMatch(readme, /count(?:s|ed)? as skipped/i, `${key}: README`);
  }
});

/** What a head stands for in the cross-vote table: the format it belongs to and where it comes from. */
interface Entry {
  format: string;
  what: string;
  head: Head;
}

/** Files that belong to no format: no sniff may score them above 0. */
const NOBODY: [name: string, file: string, text: string][] = [
  ['an empty .xml file', 'r.xml', ''],
  ['an empty .json file', 'r.json', ''],
  ['an empty .tap file', 'r.tap', ''],
  ['a JSON string', 'r.json', '"stats"'],
  ['package.json', 'package.json', '{"name":"x","version":"1.0.0","scripts":{"test":"mocha"},"results":[],"stats":{}}'],
  [
    'a Newman JSON report',
    'newman.json',
    '{"collection":{"info":{"name":"c"},"item":[]},"environment":{},"globals":{},' +
      '"run":{"stats":{"iterations":{"total":1},"tests":{"total":1,"failed":0}},"executions":[],"failures":[]}}',
  ],
];

function crossVoteEntries(): Entry[] {
  const entries: Entry[] = NOBODY.map(([what, file, text]) => ({ format: '', what, head: headOf(text, file) }));
  for (const key of keys) {
    for (const s of loadSamples(folderOf(key)))
      entries.push({ format: key, what: `sample "${s.name}"`, head: headOf(s.text, s.file) });
    const dir = path.join(folderOf(key), 'fixtures');
    for (const file of fixturesIn(dir).files) {
      const bytes = readFileSync(file);
      const name = path.basename(file);
      entries.push({
        format: key,
        what: name,
        head: readHead(bytes.subarray(0, HEAD_BYTES), name, bytes.length <= HEAD_BYTES).head,
      });
      // A head cut short (a slow upload's first packet, a head past a long preamble) is no one else's either.
      entries.push({
        format: key,
        what: `${name}, first 512 bytes`,
        head: readHead(bytes.subarray(0, 512), name, false).head,
      });
    }
  }
  return entries;
}

t.test("cross-vote: no sniff scores another format's samples or fixtures above 0", async (t) => {
  const entries = crossVoteEntries();
  const stolen: string[] = [];
  for (const f of builtinFormatters)
    for (const e of entries) {
      if (e.format === f.key) continue;
      const score = f.sniff(e.head);
      if (score !== 0) stolen.push(`${f.key} scores ${e.format || 'no format'}'s ${e.what}: ${score}`);
    }
  t.same(stolen, [], `${entries.length} heads, ${builtinFormatters.length} sniffs`);
});

t.test('docs/formats.md is generated from the registry and the READMEs; README names every format', async (t) => {
  t.equal(readFileSync(FORMATS_DOC, 'utf8'), formatsDoc(builtinFormatters), 'run scripts/formats-doc.ts to update it');
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  t.match(readme, `${keys.length} formats`, 'README says how many');
  for (const key of keys) t.match(readme, `\`${key}\``, `README names ${key}`);
  t.match(readme, '(docs/formats.md)', 'README links the list');
});

t.test('a duplicate key is a precise start-up error', async (t) => {
  t.throws(() => createRegistry([junit, { ...junit, title: 'Another' }]), { message: /"junit" is registered twice/ });
  t.throws(() => createRegistry([{ ...junit, key: 'Bad Key' }]), { message: /lower-case/ });
});

t.test('voting: match, none, tie, and a sniff that throws counts as 0', async (t) => {
  const head = headOf('<?xml version="1.0"?><testsuite name="a"><testcase name="b"/></testsuite>', 'a.xml');
  t.match(vote([junit], head), { kind: 'match', formatter: { key: 'junit' } });
  t.match(vote([junit], headOf('{"a":1}', 'a.json')), { kind: 'none' });
  t.match(vote([junit, { ...junit, key: 'other' }], head), { kind: 'tie' });
  const broken = {
    ...junit,
    key: 'broken',
    sniff: () => {
      throw new Error('bug');
    },
  };
  t.match(vote([junit, broken], head), { kind: 'match', formatter: { key: 'junit' } });
  const weak = { ...junit, key: 'weak', sniff: () => 0.6 };
  t.match(vote([junit, weak], head), { kind: 'match', formatter: { key: 'junit' } }, 'a clear winner is not a tie');
});
