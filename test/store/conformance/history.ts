/** Conformance: History columns: what a completed report's column holds, wherever it was made from. */
import { randomUUID } from 'node:crypto';
import { historyKey, isFlakyFlag, statusOf, type HistoryColumn } from '../../../lib/history/column.js';
import { compareHistory } from '../../../lib/history/compare.js';
import { container, seed, zeroTotals, type Cases } from './fixtures.js';

export const historyCases: Cases = {
  'history columns': async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const first = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    // seq order does not follow the tree: a suite may close (and be numbered) after its tests.
    await store.containers.insert([
      container(first.id, 1, 4, { title: 'adds', status: 'passed', durationMs: 5 }),
      container(first.id, 2, 4, { title: 'divides', status: 'failed', durationMs: null, flaky: true }),
      container(first.id, 3, 2, { type: 'step', title: 'a step', status: 'failed' }),
      container(first.id, 4, 6, { type: 'suite', title: 'Calc', status: 'failed' }),
      container(first.id, 5, 4, { title: 'adds', status: 'failed' }),
      container(first.id, 6, null, { type: 'suite', title: 'math.xml', status: 'failed' }),
      container(first.id, 7, 6, { type: 'scenario', title: 'outline', status: 'skipped', durationMs: 1.5 }),
    ]);
    t.strictSame(await store.history.columns([first.id]), [], 'a building report has no column');
    await store.reports.complete(first.id, {
      date: first.date,
      totals: zeroTotals(),
      files: [],
      messages: [],
      tags: [],
    });
    const second = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.containers.insert([
      container(second.id, 1, null, { type: 'suite', title: 'math.xml' }),
      container(second.id, 2, 1, { type: 'suite', title: 'Calc' }),
      container(second.id, 3, 2, { title: 'divides', status: 'passed', durationMs: 7 }),
    ]);
    await store.reports.complete(second.id, {
      date: second.date,
      totals: zeroTotals(),
      files: [],
      messages: [],
      tags: [],
    });
    const empty = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.reports.complete(empty.id, {
      date: empty.date,
      totals: zeroTotals(),
      files: [],
      messages: [],
      tags: [],
    });

    const columns = await store.history.columns([second.id, randomUUID(), first.id, empty.id]);
    t.strictSame(
      columns.map((c) => c.reportId),
      [second.id, first.id, empty.id],
      'in the order asked, unknown reports left out',
    );
    const [c2, c1, c0] = columns;
    const rows = (c: HistoryColumn) =>
      [...c.keys].map((key, i) => ({
        key,
        seq: c.seqs[i],
        status: statusOf(c.flags[i]!),
        flaky: isFlakyFlag(c.flags[i]!),
        duration: Number.isNaN(c.durations[i]!) ? null : c.durations[i],
      }));
    const adds = historyKey(['math.xml', 'Calc', 'adds']);
    const divides = historyKey(['math.xml', 'Calc', 'divides']);
    const outline = historyKey(['math.xml', 'outline']);
    t.strictSame(
      rows(c1!),
      [
        { key: adds, seq: 1, status: 'passed', flaky: false, duration: 5 },
        { key: divides, seq: 2, status: 'failed', flaky: true, duration: null },
        { key: adds, seq: 5, status: 'failed', flaky: false, duration: 12 },
        { key: outline, seq: 7, status: 'skipped', flaky: false, duration: 1.5 },
      ],
      'tests and scenarios by title path in id order, a second test with the same path too ' +
        '(readers take the first); steps are not tests',
    );
    t.strictSame(
      rows(c2!),
      [{ key: divides, seq: 3, status: 'passed', flaky: false, duration: 7 }],
      'the same path gives the same key in another report',
    );
    t.equal(c0!.keys.length, 0, 'an empty report has an empty column');
    t.strictSame(
      [0, 1, 2, 3].map((i) => c1!.pathOf(i)),
      [
        ['math.xml', 'Calc', 'adds'],
        ['math.xml', 'Calc', 'divides'],
        ['math.xml', 'Calc', 'adds'],
        ['math.xml', 'outline'],
      ],
      'each entry keeps its title path',
    );
    t.strictSame(c2!.pathOf(0), ['math.xml', 'Calc', 'divides']);

    // The comparison reads one row per path: the first test of it in each report.
    const cmp = await compareHistory(store, profile.id, { n: 10, tags: [], show: 'all', offset: 0, limit: 100 });
    const addsRow = cmp.tests.find((x) => x.key === adds);
    t.match(
      addsRow?.cells.at(-1),
      { status: 'passed', seq: 1, duration_ms: 5 },
      'of two tests with one path, the first is the row (not seq 5, failed)',
    );
    t.equal(cmp.tests.filter((x) => x.key === adds).length, 1, 'one row for the path');
  },
};
