/**
 * What the verdict says of a report, read from the history columns of a real store
 * (lib/ci/verdict-facts.ts): new failures against the previous report of the same branch (another
 * branch's reports do not count), fixed tests, flaky tests as the history tells them (two flips or
 * more, or marked by the format), per-test links; and a 100,000-test report read cheaply.
 */
import t from 'tap';
import { verdictFacts } from '../../lib/ci/verdict-facts.js';
import { junitXml } from '../helpers/junit.js';
import { field, file, multipart } from '../helpers/multipart.js';
import { startTally, type Harness } from '../helpers/tally.js';

type Case = { name: string; status?: 'passed' | 'failed' };
const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';

async function upload(h: Harness, branch: string, cases: Case[]): Promise<number> {
  const { body, contentType } = multipart([
    field('ci_branch', branch),
    field('ci_commit', SHA),
    file('file[]', 'TEST-s.xml', junitXml({ suite: 's', cases })),
  ]);
  const r = await h.send({
    path: `/api/v2/profile/${h.profileId}/import/junit`,
    headers: { 'content-type': contentType },
    body,
  });
  if (r.status !== 201) throw new Error(`import answered ${r.status}: ${r.text}`);
  return r.json.report_id as number;
}

async function factsOf(h: Harness, number: number) {
  const report = (await h.store.reports.get(number))!;
  const profile = (await h.store.profiles.get(h.profileId))!;
  const reportUrl = (n: number, seq?: number) => `https://t.example/reports/${n}${seq ? `/nodes/${seq}` : ''}`;
  return verdictFacts(h.store, { profile, report, commit: SHA, reportUrl });
}

const names = (l: { tests: readonly { path: readonly string[] }[] }) => l.tests.map((x) => x.path.join(' › '));

t.test('new, fixed and flaky against the branch before', async (t) => {
  const h = await startTally(t);
  const pass = (name: string): Case => ({ name });
  const fail = (name: string): Case => ({ name, status: 'failed' });

  const r1 = await upload(h, 'feature', [pass('a'), fail('b'), pass('c'), fail('d')]);
  const f1 = await factsOf(h, r1);
  t.equal(f1.previous, null, 'the first report of the branch');
  t.same(names(f1.newFailures), ['s › b', 's › d'], 'no earlier report: every failure is new');

  // Another branch in between: not what `feature` is compared with.
  await upload(h, 'main', [fail('a'), fail('b'), fail('c'), fail('d')]);
  const r2 = await upload(h, 'feature', [fail('a'), pass('b'), pass('c'), fail('d'), fail('e')]);
  const f2 = await factsOf(h, r2);
  t.equal(f2.previous?.number, r1, 'compared with the previous report of the same branch');
  t.same(names(f2.newFailures), ['s › a', 's › e'], 'failed now, not before (or absent before)');
  t.same(names(f2.fixed), ['s › b'], 'failed before, passed now');
  t.same(names(f2.flaky), [], 'one flip is not flaky');
  t.match(f2.newFailures.tests[0]!.url, new RegExp(`^https://t.example/reports/${r2}/nodes/\\d+$`), 'a test link');
  t.equal(f2.report.url, `https://t.example/reports/${r2}`);

  const r3 = await upload(h, 'feature', [pass('a'), pass('b'), pass('c'), fail('d'), fail('e')]);
  const f3 = await factsOf(h, r3);
  t.same(names(f3.fixed), ['s › a']);
  t.same(names(f3.flaky), ['s › a'], 'pass, fail, pass: two flips, flaky');
  t.same(names(f3.newFailures), []);
});

t.test('a 100,000-test report: the facts from its columns in well under a second', async (t) => {
  const h = await startTally(t);
  const n = 100_000;
  const cases = (failEvery: number): Case[] =>
    Array.from({ length: n }, (_, i) => ({ name: `case ${i}`, status: i % failEvery === 0 ? 'failed' : 'passed' }));
  await upload(h, 'big', cases(7));
  const last = await upload(h, 'big', cases(5));
  const started = performance.now();
  const f = await factsOf(h, last);
  const ms = performance.now() - started;
  t.comment(`verdict facts of ${n} tests against the previous report: ${ms.toFixed(0)} ms`);
  // Failing now: multiples of 5; before: multiples of 7. New: multiples of 5 and not of 7.
  t.equal(f.newFailures.total, n / 5 - Math.ceil(n / 35));
  t.equal(f.fixed.total, Math.ceil(n / 7) - Math.ceil(n / 35));
  t.equal(f.newFailures.tests.length, 2_000, 'gathered up to the bound, counted in full');
  t.ok(ms < 5_000, `cheap (${ms.toFixed(0)} ms)`);
});
