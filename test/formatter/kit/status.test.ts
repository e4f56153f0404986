/** Statuses of groupings: the worst of a set or list, a suite's with `passed` for none, two folded. */
import t from 'tap';
import {
  SCENARIO_SEVERITY,
  suiteStatus,
  worseOf,
  worstStatus,
  type ContainerStatus,
} from '../../../lib/formatter/api.js';

t.test('worstStatus and suiteStatus', async (t) => {
  const cases: [seen: ContainerStatus[], worst: ContainerStatus | null, suite: ContainerStatus][] = [
    [[], null, 'passed'],
    [['passed'], 'passed', 'passed'],
    [['skipped', 'passed'], 'passed', 'passed'],
    [['passed', 'failed', 'errored'], 'errored', 'errored'],
    [['pending', 'skipped'], 'skipped', 'skipped'],
    [['unknown'], 'unknown', 'unknown'],
  ];
  for (const [seen, worst, suite] of cases) {
    t.equal(worstStatus(new Set(seen)), worst, `set ${seen.join(',')}`);
    t.equal(worstStatus(seen), worst, `list ${seen.join(',')}`);
    t.equal(suiteStatus(seen), suite, `suite of ${seen.join(',')}`);
  }
  t.equal(worstStatus(['pending', 'skipped'], SCENARIO_SEVERITY), 'pending', 'Cucumber ranks pending above skipped');
});

t.test('worseOf', async (t) => {
  const cases: [a: ContainerStatus | null, b: ContainerStatus | null, want: ContainerStatus | null][] = [
    [null, null, null],
    ['failed', null, 'failed'],
    [null, 'skipped', 'skipped'],
    ['passed', 'failed', 'failed'],
    ['errored', 'failed', 'errored'],
    ['skipped', 'passed', 'passed'],
  ];
  for (const [a, b, want] of cases) t.equal(worseOf(a, b), want, `${a} ${b}`);
});
