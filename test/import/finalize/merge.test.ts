/**
 * merge_containers (lib/import/finalize/merge.ts, SPEC part 2 and notice `containers_combined`): sibling
 * containers of one type and title are combined into the first, their children moved under it and
 * their durations summed, level by level; tests are never merged. Run against a real embedded store.
 */
import t from 'tap';
import { mergeContainers } from '../../../lib/import/finalize/merge.js';
import { reportStore, type Row } from '../../helpers/report-store.js';

interface Case {
  name: string;
  before: Row[];
  /** The containers after the merge; left out when nothing changes. */
  after?: Row[];
  combined: number;
}

const cases: Case[] = [
  {
    name: 'nothing to merge',
    before: [
      [1, null, 'suite', 'Calc', 10],
      [2, 1, 'test', 'adds', 1],
      [3, null, 'suite', 'Other', 20],
      [4, 3, 'test', 'adds', 1],
    ],
    combined: 0,
  },
  {
    name: 'an empty report',
    before: [],
    combined: 0,
  },
  {
    name: 'two suites of one title: the first keeps, the children move, durations are summed',
    before: [
      [1, null, 'suite', 'Calc', 10],
      [2, 1, 'test', 'adds', 1],
      [3, null, 'suite', 'Calc', 20],
      [4, 3, 'test', 'adds', 2],
      [5, 3, 'test', 'subtracts', 3],
    ],
    after: [
      [1, null, 'suite', 'Calc', 30],
      [2, 1, 'test', 'adds', 1],
      [4, 1, 'test', 'adds', 2],
      [5, 1, 'test', 'subtracts', 3],
    ],
    combined: 1,
  },
  {
    name: 'three of one title among others',
    before: [
      [1, null, 'suite', 'A', 1],
      [2, null, 'suite', 'B', 2],
      [3, null, 'suite', 'A', 4],
      [4, 3, 'test', 't', 1],
      [5, null, 'suite', 'A', 8],
      [6, 5, 'test', 't', 1],
    ],
    after: [
      [1, null, 'suite', 'A', 13],
      [2, null, 'suite', 'B', 2],
      [4, 1, 'test', 't', 1],
      [6, 1, 'test', 't', 1],
    ],
    combined: 2,
  },
  {
    name: 'unknown durations are left out of the sum',
    before: [
      [1, null, 'suite', 'A', null],
      [2, null, 'suite', 'A', 5],
      [3, null, 'suite', 'A', null],
    ],
    after: [[1, null, 'suite', 'A', 5]],
    combined: 2,
  },
  {
    name: 'all durations unknown: the kept one stays unknown',
    before: [
      [1, null, 'suite', 'A', null],
      [2, null, 'suite', 'A', null],
    ],
    after: [[1, null, 'suite', 'A', null]],
    combined: 1,
  },
  {
    name: 'level by level: the children of merged suites merge in turn',
    before: [
      [1, null, 'suite', 'A', 1],
      [2, 1, 'suite', 'B', 1],
      [3, 2, 'test', 't1', 1],
      [4, null, 'suite', 'A', 1],
      [5, 4, 'suite', 'B', 1],
      [6, 5, 'test', 't2', 1],
      [7, 5, 'suite', 'C', 1],
      [8, 2, 'suite', 'C', 1],
    ],
    after: [
      [1, null, 'suite', 'A', 2],
      [2, 1, 'suite', 'B', 2],
      [3, 2, 'test', 't1', 1],
      [6, 2, 'test', 't2', 1],
      [7, 2, 'suite', 'C', 2],
    ],
    combined: 3,
  },
  {
    name: 'one title under two parents is not merged',
    before: [
      [1, null, 'suite', 'X', 1],
      [2, 1, 'suite', 'B', 1],
      [3, null, 'suite', 'Y', 1],
      [4, 3, 'suite', 'B', 1],
    ],
    combined: 0,
  },
  {
    name: 'one title, two types: not merged',
    before: [
      [1, null, 'suite', 'Login', 1],
      [2, null, 'step', 'Login', 1],
      [3, null, 'hook', 'Login', 1],
    ],
    combined: 0,
  },
  {
    name: 'steps and hooks of one title are merged like suites',
    before: [
      [1, null, 'step', 'Given', 1],
      [2, null, 'step', 'Given', 2],
      [3, null, 'hook', 'before', 3],
      [4, null, 'hook', 'before', 4],
    ],
    after: [
      [1, null, 'step', 'Given', 3],
      [3, null, 'hook', 'before', 7],
    ],
    combined: 2,
  },
  {
    name: 'tests and scenarios are never merged, nor what is under them',
    before: [
      [1, null, 'test', 'a', 1],
      [2, null, 'test', 'a', 1],
      [3, null, 'scenario', 'b', 1],
      [4, 3, 'step', 'Given', 1],
      [5, null, 'scenario', 'b', 1],
      [6, 5, 'step', 'Given', 1],
      [7, 3, 'step', 'Given', 1],
    ],
    combined: 0,
  },
  {
    name: 'titles must be equal: case and spaces count',
    before: [
      [1, null, 'suite', 'Calc', 1],
      [2, null, 'suite', 'calc', 1],
      [3, null, 'suite', 'Calc ', 1],
      [4, null, 'suite', '', 1],
      [5, null, 'suite', '', 1],
    ],
    after: [
      [1, null, 'suite', 'Calc', 1],
      [2, null, 'suite', 'calc', 1],
      [3, null, 'suite', 'Calc ', 1],
      [4, null, 'suite', '', 2],
    ],
    combined: 1,
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const r = await reportStore(t);
    await r.insert(c.before);
    t.equal(await mergeContainers(r.store, r.reportId), c.combined, 'combined');
    t.strictSame(await r.rows(), c.after ?? c.before, 'the containers after');
  });
}

t.test('siblings past one page of the store (1000) are merged too', async (t) => {
  const r = await reportStore(t);
  const before: Row[] = [];
  // 1250 suites A and 1250 suites B, alternating, each with one test.
  for (let i = 0; i < 2500; i++) {
    before.push([2 * i + 1, null, 'suite', i % 2 ? 'B' : 'A', 1], [2 * i + 2, 2 * i + 1, 'test', `t${i}`, 1]);
  }
  await r.insert(before);
  t.equal(await mergeContainers(r.store, r.reportId), 2498);
  const after = await r.rows();
  t.strictSame(
    after.filter((row) => row[2] === 'suite'),
    [
      [1, null, 'suite', 'A', 1250],
      [3, null, 'suite', 'B', 1250],
    ],
  );
  t.equal(after.length, 2502, 'every test stays');
  t.ok(
    after.every((row) => row[2] === 'suite' || row[1] === (Number(row[3].slice(1)) % 2 ? 3 : 1)),
    'each test under the kept suite of its title',
  );
});

// Formatters give a suite the worst status of its children (junit's suiteStatus); the kept
// container must too, or a passed suite ends up holding the failed tests of another.
t.test('a merged container takes the worst status of those combined into it', async (t) => {
  const r = await reportStore(t);
  await r.insert([
    [1, null, 'suite', 'Calc', 1],
    [2, 1, 'test', 'adds', 1],
    [3, null, 'suite', 'Calc', 1],
    [4, 3, 'test', 'adds', 1],
  ]);
  await r.store.containers.update(r.reportId, 3, { status: 'failed' });
  await r.store.containers.update(r.reportId, 4, { status: 'failed' });
  t.equal(await mergeContainers(r.store, r.reportId), 1);
  t.equal((await r.container(4))?.parentSeq, 1, 'the failed test moved under the kept suite');
  t.equal((await r.container(1))?.status, 'failed', 'the kept suite is failed');
});

t.test('the worst of three, at every level; a better status never replaces a worse one', async (t) => {
  const r = await reportStore(t);
  await r.insert([
    [1, null, 'suite', 'A', 1],
    [2, 1, 'suite', 'inner', 1],
    [3, null, 'suite', 'A', 1],
    [4, 3, 'suite', 'inner', 1],
    [5, null, 'suite', 'A', 1],
    [6, null, 'suite', 'B', 1],
    [7, null, 'suite', 'B', 1],
  ]);
  const set = (seq: number, status: 'skipped' | 'errored' | 'failed') =>
    r.store.containers.update(r.reportId, seq, { status });
  await set(1, 'skipped');
  await set(3, 'errored');
  await set(5, 'failed');
  await set(4, 'errored');
  await set(6, 'failed');
  t.equal(await mergeContainers(r.store, r.reportId), 4);
  t.equal((await r.container(1))?.status, 'errored', 'skipped, errored and failed: errored');
  t.equal((await r.container(2))?.status, 'errored', 'the inner suites too');
  t.equal((await r.container(6))?.status, 'failed', 'a failed kept one stays failed beside a passed one');
});

t.test('with files given, only their containers are combined, among themselves', async (t) => {
  const r = await reportStore(t);
  // Files 0 and 1 are JUnit files of two CI nodes, 2 and 3 Allure results: only 2 and 3 merge.
  await r.insert([
    [1, null, 'suite', 'Calc', 1, 0],
    [2, 1, 'test', 'adds', 1, 0],
    [3, null, 'suite', 'Calc', 1, 1],
    [4, 3, 'test', 'adds', 1, 1],
    [5, null, 'suite', 'Calc', 1, 2],
    [6, 5, 'suite', 'sub', 1, 2],
    [7, 6, 'test', 'adds', 1, 2],
    [8, null, 'suite', 'Calc', 1, 3],
    [9, 8, 'suite', 'sub', 1, 3],
    [10, 9, 'test', 'subtracts', 1, 3],
  ]);
  t.equal(await mergeContainers(r.store, r.reportId, new Set([2, 3])), 2);
  t.strictSame(await r.rows(), [
    [1, null, 'suite', 'Calc', 1],
    [2, 1, 'test', 'adds', 1],
    [3, null, 'suite', 'Calc', 1],
    [4, 3, 'test', 'adds', 1],
    [5, null, 'suite', 'Calc', 2],
    [6, 5, 'suite', 'sub', 2],
    [7, 6, 'test', 'adds', 1],
    [10, 6, 'test', 'subtracts', 1],
  ]);
  t.equal(await mergeContainers(r.store, r.reportId), 2, 'without files, the rest merges too');
});
