/**
 * A file's history gathered as its containers go by (lib/history/file-history.ts): added part by
 * part to a report's column, it gives the column built from the file's rows read back; a suite too
 * large makes the collector give up; announced suites let one enormous suite go in parts.
 */
import t from 'tap';
import type { ContainerStatus, ContainerType } from '../../lib/formatter/api.js';
import { HistoryColumnBuilder, decodeColumn, type HistoryPart } from '../../lib/history/column.js';
import { FileHistoryCollector, PART_TESTS, type FileHistory } from '../../lib/history/file-history.js';

type Row = {
  seq: number;
  parentSeq: number | null;
  type: ContainerType;
  title: string;
  status: ContainerStatus;
  durationMs: number | null;
  flaky: boolean;
};

/**
 * A file as a formatter emits it: top-level suites one after another, each with an inner suite and
 * `n` tests; a suite closes after its tests, and one test of each comes late.
 */
function fileRows(n: number, ...suiteTitles: string[]): Row[] {
  const rows: Row[] = [];
  let id = 0;
  for (const suiteTitle of suiteTitles) {
    const top = ++id;
    const inner = ++id;
    const tests: Row[] = [];
    for (let i = 0; i < n; i++)
      tests.push({
        seq: ++id,
        parentSeq: i % 3 ? inner : top,
        type: 'test',
        title: `t${i}`,
        status: i % 4 ? 'passed' : 'skipped',
        durationMs: i % 6 ? i : null,
        flaky: i % 11 === 0,
      });
    const late = tests.splice(5, 1)[0]!;
    rows.push(
      ...tests,
      late,
      { seq: inner, parentSeq: top, type: 'suite', title: 'inner', status: 'passed', durationMs: null, flaky: false },
      { seq: top, parentSeq: null, type: 'suite', title: suiteTitle, status: 'passed', durationMs: null, flaky: false },
    );
  }
  return rows;
}

t.test('files gathered as they are written give the column read back from their rows', async (t) => {
  const files = [fileRows(30_000, 'A'), fileRows(15_000, 'B', 'C', 'D'), fileRows(40_000, 'A')];
  // As a worker gathers and the store adds them, file by file with their ids shifted.
  const incremental = new HistoryColumnBuilder(new Map());
  const got: HistoryPart[] = [];
  let base = 0;
  for (const rows of files) {
    const handed: FileHistory[] = [];
    const c = new FileHistoryCollector(100_000, (h) => handed.push(h!));
    for (const r of rows) c.add(r);
    c.finish();
    for (const h of handed) got.push(...incremental.addPart(h, base));
    base += rows.length;
    if (rows === files[1]) t.equal(handed.length, 3, 'a part per top-level suite');
  }
  got.push(incremental.finish()!);
  // As the read-back path does: every parent known, tests in id order.
  const parents = new Map<number, { parentSeq: number | null; title: string }>();
  const tests: Row[] = [];
  base = 0;
  for (const rows of files) {
    for (const r of rows) {
      const shifted = { ...r, seq: r.seq + base, parentSeq: r.parentSeq === null ? null : r.parentSeq + base };
      if (r.type === 'test') tests.push(shifted);
      else parents.set(shifted.seq, shifted);
    }
    base += rows.length;
  }
  tests.sort((a, b) => a.seq - b.seq);
  const whole = new HistoryColumnBuilder(parents);
  const want: HistoryPart[] = [];
  for (const r of tests) {
    const part = whole.add(r);
    if (part) want.push(part);
  }
  want.push(whole.finish()!);
  t.ok(want.length >= 2, `${want.length} parts`);
  t.strictSame(
    got.map((p) => p.index),
    want.map((p) => p.index),
  );
  t.ok(
    got.every((p, i) => p.data.equals(want[i]!.data)),
    'byte for byte',
  );
  const c = decodeColumn(
    'r',
    got.map((p) => p.data),
  );
  t.strictSame(c.pathOf(0), ['A', 't0'], "the first file's first test");
  t.equal(
    c.keys.length,
    30_000 + 45_000 + 40_000,
    'every test, those of the third file that repeat paths of the first too',
  );
  t.equal(c.keys[30_000 + 45_000], c.keys[0], 'same path, same key');
  t.strictSame(c.pathOf(30_000 + 15_000 + 1), ['C', 'inner', 't1'], "a test of the second file's second suite");
});

t.test('a suite of more containers than the collector keeps makes it give up', async (t) => {
  const handed: (FileHistory | null)[] = [];
  const c = new FileHistoryCollector(30, (h) => handed.push(h));
  for (const r of fileRows(20, 'A', 'B', 'C')) c.add(r);
  for (const r of fileRows(40, 'D')) c.add(r);
  for (const r of fileRows(20, 'E')) c.add(r);
  c.finish();
  t.equal(handed.length, 4, 'three suites of 22 containers, then the one of 42 gives up; nothing after');
  t.equal(handed[3], null);
});

t.test('a formatter that announces what it opens lets one enormous suite go in parts', async (t) => {
  // One suite (id 1) with an inner suite (id 2) and 3 × PART_TESTS + 7 tests, as JUnit emits it.
  const n = 3 * PART_TESTS + 7;
  const late = fileRows(n, 'Huge');
  // In id order (fileRows sends one test late): a part handed over is never reopened.
  const rows = [
    ...late.filter((r) => r.type === 'test').sort((a, b) => a.seq - b.seq),
    ...late.filter((r) => r.type !== 'test'),
  ];
  const collect = (announce: boolean, mutate?: (r: Row) => Row, from = rows): (FileHistory | null)[] => {
    const handed: (FileHistory | null)[] = [];
    const c = new FileHistoryCollector(100_000, (h) => handed.push(h));
    if (announce) {
      c.opened({ id: 1, parentId: null, title: 'Huge' });
      c.opened({ id: 2, parentId: 1, title: 'inner' });
    }
    for (const r of from) c.add(mutate ? mutate(r) : r);
    c.finish();
    return handed;
  };
  const build = (parts: (FileHistory | null)[]): Buffer[] => {
    const b = new HistoryColumnBuilder(new Map());
    const out: HistoryPart[] = [];
    for (const p of parts) out.push(...b.addPart(p!, 100));
    out.push(b.finish()!);
    return out.map((p) => p.data);
  };
  const whole = collect(false);
  t.equal(whole.length, 1, 'without announcements: one part when the suite closes');
  const parts = collect(true);
  t.ok(parts.length >= 3, `announced: ${parts.length} parts while the suite is open`);
  t.ok(
    parts.every((p) => p !== null && p.tests.seqs.length <= PART_TESTS),
    'each of at most PART_TESTS tests',
  );
  t.strictSame(build(parts), build(whole), 'the same column either way, byte for byte');
  const renamed = collect(true, (r) => (r.seq === 1 ? { ...r, title: 'Renamed' } : r));
  t.equal(renamed.at(-1), null, 'a suite emitted under another title than announced: give up, the column is read back');
  t.equal(collect(true, undefined, late).at(-1), null, 'a test below a part already handed over: give up too');
  t.equal(collect(false, undefined, late).length, 1, 'without announcements the late test is only reordered');
});
