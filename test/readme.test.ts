/** The README's message table and limits match the code. */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOGUE } from '../lib/messages.js';
import { LIMIT_ENV_NAMES } from '../lib/config.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

t.test('every catalogue code is in the README with its severity and status', async (t) => {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const rows = new Map<string, string[]>();
  for (const m of readme.matchAll(/^\| `([a-z_]+)` \| (error|warning|notice) \| (\d{3}) \|/gm))
    rows.set(m[1]!, [m[2]!, m[3]!]);
  for (const [code, e] of Object.entries(CATALOGUE)) t.same(rows.get(code), [e.severity, String(e.status)], code);
  t.equal(rows.size, Object.keys(CATALOGUE).length, 'no code in the README that the catalogue lacks');
  for (const name of Object.values(LIMIT_ENV_NAMES)) t.match(readme, name, `limit ${name} is documented`);
  t.match(readme, /npm ci && npm start/);
  t.match(readme, /npm ci && npm test/);
});
