/** Conformance cases for history columns: what a completed report's column holds, wherever it was made from. */
import { randomUUID } from 'node:crypto';
import { historyKey, isFlakyFlag, statusOf, type HistoryColumn } from '../../../lib/history/column.js';
import { FileHistoryCollector, type FileHistory } from '../../../lib/history/file-history.js';
import { compareHistory, type HistoryOptions } from '../../../lib/history/compare.js';
import type { Store } from '../../../lib/store/store.js';
import type { StoredContainer } from '../../../lib/store/types.js';
import { container, placed, seed, writeAsThread, zeroTotals, type Cases } from './fixtures.js';

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
    const everything: HistoryOptions = { n: 10, tags: [], branch: null, show: 'all', offset: 0, limit: 100 };
    const cmp = await compareHistory(store, profile.id, everything);
    const addsRow = cmp.tests.find((x) => x.key === adds);
    t.match(
      addsRow?.cells.at(-1),
      { status: 'passed', seq: 1, duration_ms: 5 },
      'of two tests with one path, the first is the row (not seq 5, failed)',
    );
    t.equal(cmp.tests.filter((x) => x.key === adds).length, 1, 'one row for the path');
  },

  'history columns: from parse-thread parts, a draft or read back, the same column': async (t, h, store) => {
    const { profile, imp } = await seed(store);
    const report = () =>
      store.reports.create({ profileId: profile.id, importId: imp.id, tags: [], date: new Date().toISOString() });
    const complete = (id: string) =>
      store.reports.complete(id, {
        date: new Date().toISOString(),
        totals: zeroTotals(),
        files: [],
        messages: [],
        tags: [],
      });
    // What a merge does to two files of one report: the second file's top-level suites go into the
    // first file's suites of the same titles (so no test's path changes), and their durations add up.
    const merge = async (s: Store, id: string) => {
      await s.containers.reparent(id, [FILE_SIZE + 1], 1);
      await s.containers.reparent(id, [FILE_SIZE + 5], 5);
      await s.containers.delete(id, [FILE_SIZE + 1, FILE_SIZE + 5]);
      await s.containers.update(id, 1, { durationMs: 24 });
    };
    const onImportThread = async (id: string) => {
      for (const index of [0, 1])
        await store.containers.insert(file(id).map((c) => placed(c, index * FILE_SIZE, index)));
    };

    // Rows a parse thread wrote, with the parts of the column it gathered as they went.
    const threads = await report();
    for (const index of [0, 1]) {
      const base = index * FILE_SIZE;
      await writeAsThread(store, file(threads.id), base, index);
      for (const part of gathered(file(threads.id))) await store.history.addFileHistory(threads.id, part, base);
    }
    await merge(store, threads.id);
    await complete(threads.id);
    // Rows written on the import thread: a draft where the store keeps one, else read back.
    const drafted = await report();
    await onImportThread(drafted.id);
    await merge(store, drafted.id);
    await complete(drafted.id);
    // A thread that gave its parts up: read back.
    const gaveUp = await report();
    await onImportThread(gaveUp.id);
    await store.history.addFileHistory(gaveUp.id, null, 0);
    await merge(store, gaveUp.id);
    await complete(gaveUp.id);
    const ids = [threads.id, drafted.id, gaveUp.id];
    // Another instance of the store, which saw nothing of the report being built, completes it.
    if (h.reopen) {
      const elsewhere = await report();
      await onImportThread(elsewhere.id);
      await merge(store, elsewhere.id);
      const other = await h.reopen();
      await other.init();
      await other.reports.complete(elsewhere.id, {
        date: new Date().toISOString(),
        totals: zeroTotals(),
        files: [],
        messages: [],
        tags: [],
      });
      ids.push(elsewhere.id);
    }

    const columns = await store.history.columns(ids);
    t.equal(columns.length, ids.length, 'every way makes a column');
    const expected = {
      paths: [
        'math.xml/Calc/adds',
        'math.xml/Calc/divides',
        'b.feature/outline',
        'math.xml/Calc/adds',
        'math.xml/Calc/divides',
        'b.feature/outline',
      ],
      seqs: [3, 4, 6, 9, 10, 12],
      durations: [5, null, 1.5, 5, null, 1.5],
      statuses: ['passed', 'failed', 'skipped', 'passed', 'failed', 'skipped'],
      flaky: [false, true, false, false, true, false],
    };
    for (const [i, c] of columns.entries()) t.strictSame(plain(c), expected, `column ${i + 1} of ${columns.length}`);
  },

  'history columns: a status changed after its part was written is in the column': async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const r = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await writeAsThread(store, file(r.id), 0, 0);
    for (const part of gathered(file(r.id))) await store.history.addFileHistory(r.id, part, 0);
    await store.containers.update(r.id, 3, { status: 'errored' });
    await store.reports.complete(r.id, { date: r.date, totals: zeroTotals(), files: [], messages: [], tags: [] });
    const [column] = await store.history.columns([r.id]);
    t.strictSame(plain(column!).statuses, ['errored', 'failed', 'skipped']);
  },

  'history columns: a completion done again rewrites the column whole': async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const r = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await writeAsThread(store, file(r.id), 0, 0);
    for (const part of gathered(file(r.id))) await store.history.addFileHistory(r.id, part, 0);
    const outcome = { date: r.date, totals: zeroTotals(), files: [], messages: [], tags: [] };
    await store.reports.complete(r.id, outcome);
    const first = (await store.history.columns([r.id])).map(plain);
    await store.reports.complete(r.id, outcome);
    const again = (await store.history.columns([r.id])).map(plain);
    t.equal(again.length, 1);
    t.strictSame(again, first, 'the same column, not a second copy of its parts');
  },

  'history columns: a failed report has none': async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const r = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await writeAsThread(store, file(r.id), 0, 0);
    for (const part of gathered(file(r.id))) await store.history.addFileHistory(r.id, part, 0);
    await store.reports.fail(r.id);
    t.strictSame(await store.history.columns([r.id]), []);
    t.strictSame(await store.containers.list(r.id, { parentSeq: null, limit: 10 }), [], 'nor containers');
  },
};

/** Containers per file of the history cases. */
const FILE_SIZE = 6;

/** One file as a formatter emits it: each container as it closes (children first), ids as opened. */
function file(reportId: string): StoredContainer[] {
  return [
    container(reportId, 3, 2, { title: 'adds', status: 'passed', durationMs: 5 }),
    container(reportId, 4, 2, { title: 'divides', status: 'failed', durationMs: null, flaky: true }),
    container(reportId, 2, 1, { type: 'suite', title: 'Calc', status: 'failed' }),
    container(reportId, 1, null, { type: 'suite', title: 'math.xml', status: 'failed' }),
    container(reportId, 6, 5, { type: 'scenario', title: 'outline', status: 'skipped', durationMs: 1.5 }),
    container(reportId, 5, null, { type: 'suite', title: 'b.feature', status: 'skipped' }),
  ];
}

/** The parts of a file's history a parse thread gathers as its containers go by. */
function gathered(containers: StoredContainer[]): (FileHistory | null)[] {
  const parts: (FileHistory | null)[] = [];
  const collector = new FileHistoryCollector(100_000, (part) => parts.push(part));
  for (const c of containers) collector.add(c);
  collector.finish();
  return parts;
}

function plain(c: HistoryColumn) {
  return {
    paths: [...c.keys].map((_, i) => c.pathOf(i).join('/')),
    seqs: [...c.seqs],
    durations: [...c.durations].map((d) => (Number.isNaN(d) ? null : d)),
    statuses: [...c.flags].map(statusOf),
    flaky: [...c.flags].map(isFlakyFlag),
  };
}
