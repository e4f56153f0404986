/** Cucumber's step result words: a step's status, and the scenario status its steps decide. */
import t from 'tap';
import { ScenarioVerdict, stepResultStatus, type ContainerStatus } from '../../../lib/formatter/api.js';

t.test('stepResultStatus', async (t) => {
  const cases: [word: string | null, want: ContainerStatus][] = [
    ['passed', 'passed'],
    ['failed', 'failed'],
    ['ambiguous', 'failed'],
    ['undefined', 'pending'],
    ['pending', 'pending'],
    ['skipped', 'skipped'],
    ['unknown', 'unknown'],
    [null, 'unknown'],
    ['PASSED', 'unknown'],
  ];
  for (const [word, want] of cases) t.equal(stepResultStatus(word), want, String(word));
});

t.test('ScenarioVerdict: the first step of the most decisive result decides', async (t) => {
  const cases: [steps: (string | null)[], status: ContainerStatus, decisive: number | null][] = [
    [[], 'passed', null],
    [['passed', 'passed'], 'passed', null],
    [['passed', 'skipped', null], 'skipped', 1],
    [[null], 'skipped', 0],
    [['passed', 'undefined', 'pending', 'skipped'], 'pending', 1],
    [['skipped', 'pending', 'failed', 'ambiguous'], 'failed', 2],
    [['unknown', 'passed'], 'skipped', 0],
  ];
  for (const [steps, status, decisive] of cases) {
    const v = new ScenarioVerdict<number>();
    steps.forEach((word, i) => v.add(i, word));
    t.equal(v.status, status, steps.join(','));
    t.equal(v.decisive, decisive, `decisive step of ${steps.join(',')}`);
  }
});
