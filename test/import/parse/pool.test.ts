/**
 * The parse pool (lib/import/parse/pool.ts) runs on its threads exactly the formatters of the
 * modules it was given (the composition root gives it formatters/index.ts): the same objects, not
 * formatters of the same key; none without threads; a module without the named list is a boot error.
 */
import t from 'tap';
import { builtinFormatters } from '../../../formatters/index.js';
import type { Formatter } from '../../../lib/formatter/api.js';
import { ParsePool } from '../../../lib/import/parse/pool.js';

const BUILTIN = { url: import.meta.resolve('../../../formatters/index.js'), exportName: 'builtinFormatters' };

t.test('handles the formatters of its modules, and only those', async (t) => {
  const pool = await ParsePool.create(1, [BUILTIN]);
  t.teardown(() => pool.close());
  for (const f of builtinFormatters) t.ok(pool.handles(f), `${f.key} runs on a thread`);
  const lookalike: Formatter = { ...builtinFormatters[0]! };
  t.notOk(pool.handles(lookalike), 'a formatter of the same key from elsewhere (a plugin) stays on the import thread');
  t.equal(pool.jobsStarted, 0, 'no thread is started before a job');
});

t.test('no threads: nothing is handled, no module is loaded', async (t) => {
  const pool = await ParsePool.create(0, [{ url: 'file:///nowhere/formatters.js', exportName: 'x' }]);
  t.notOk(pool.handles(builtinFormatters[0]!));
});

t.test('a module without the named list is refused when the pool is made', async (t) => {
  await t.rejects(ParsePool.create(1, [{ ...BUILTIN, exportName: 'noSuchExport' }]), {
    message: /^The formatter module .*formatters\/index\.(ts|js) has no export noSuchExport listing formatters\.$/,
  });
});

t.test('a closed pool handles nothing', async (t) => {
  const pool = await ParsePool.create(1, [BUILTIN]);
  await pool.close();
  t.notOk(pool.handles(builtinFormatters[0]!));
});
