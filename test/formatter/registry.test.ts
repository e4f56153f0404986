import t from 'tap';
import { readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinFormatters } from '../../formatters/index.js';
import { junit } from '../../formatters/junit/index.js';
import type { Head } from '../../lib/formatter/api.js';
import { createRegistry, vote } from '../../lib/formatter/registry.js';
import { readHead } from '../../lib/formatter/head.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

t.test('every formatter folder is registered, with fixtures, a README and tests', async (t) => {
  const folders = (await readdir(path.join(root, 'formatters'), { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  t.same(
    folders.sort(),
    builtinFormatters.map((f) => f.key).sort(),
    'formatters/<key>/ folders and the registry agree',
  );
  for (const key of folders) {
    t.ok(existsSync(path.join(root, 'formatters', key, 'fixtures')), `${key} has fixtures`);
    t.ok(existsSync(path.join(root, 'formatters', key, 'README.md')), `${key} has a README`);
    t.ok(existsSync(path.join(root, 'formatters', key, `${key}.test.ts`)), `${key} has tests`);
  }
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  for (const key of folders) t.match(readme, `| \`${key}\` |`, `README lists ${key}`);
  const sorted = builtinFormatters.map((f) => f.key);
  t.same(sorted, [...sorted].sort(), 'the list is sorted by key');
});

t.test('a duplicate key is a precise start-up error', async (t) => {
  t.throws(() => createRegistry([junit, { ...junit, title: 'Another' }]), { message: /"junit" is registered twice/ });
  t.throws(() => createRegistry([{ ...junit, key: 'Bad Key' }]), { message: /lower-case/ });
});

t.test('voting: match, none, tie, and a sniff that throws counts as 0', async (t) => {
  const head: Head = readHead(
    Buffer.from('<?xml version="1.0"?><testsuite name="a"><testcase name="b"/></testsuite>'),
    'a.xml',
    true,
  ).head;
  t.match(vote([junit], head), { kind: 'match', formatter: { key: 'junit' } });
  t.match(vote([junit], readHead(Buffer.from('{"a":1}'), 'a.json', true).head), { kind: 'none' });
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
