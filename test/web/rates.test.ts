/**
 * How a rate reads on the pages (plugins/web/format.ts `percent`) and draws in the trend
 * (plugins/web/charts.ts): under 100% never reads 100%, over 0% never 0%, one decimal in the
 * middle, more near the ends; a share that is not none never draws as none.
 */
import t from 'tap';
import { passFailTrend } from '../../plugins/web/charts.js';
import { percent } from '../../plugins/web/format.js';

t.test('percent', async (t) => {
  const cases: [ratio: number | null, text: string][] = [
    [null, '–'],
    [Number.NaN, '–'],
    [0, '0%'],
    [1, '100%'],
    [0.5, '50.0%'],
    [1 / 3, '33.3%'],
    [2 / 3, '66.7%'],
    [0.999, '99.9%'],
    [0.99949, '99.9%'],
    // 2 failures in 4,239 tests: one decimal would round to 100.0%.
    [4237 / 4239, '99.95%'],
    [0.9995, '99.95%'],
    [0.99996, '99.996%'],
    [0.9999999, '99.9999%'],
    [1 - 1e-15, '99.9999%'],
    [0.001, '0.1%'],
    [0.0004, '0.04%'],
    [1 / 3000, '0.03%'],
    [1e-7, '0.0001%'],
    [1e-15, '0.0001%'],
  ];
  for (const [ratio, text] of cases) t.equal(percent(ratio), text, String(ratio));
  // Every rate strictly between none and all reads strictly between 0% and 100%.
  for (let failed = 1; failed <= 3; failed++)
    for (const tests of [10, 999, 4239, 100_000, 1_000_000, 10_000_000]) {
      const below = percent((tests - failed) / tests);
      const above = percent(failed / tests);
      t.ok(Number.parseFloat(below) < 100, `${tests - failed}/${tests}: ${below}`);
      t.ok(Number.parseFloat(above) > 0, `${failed}/${tests}: ${above}`);
    }
});

t.test('the trend keeps a pixel for a share that is not none', async (t) => {
  const heights = (passed: number, failed: number): { pass: number; fail: number } => {
    const svg = passFailTrend([{ passed, failed, label: 'r' }], { width: 10, height: 28, title: 't' }).text;
    const h = (cls: string) => Number(new RegExp(`class="${cls}"[^>]*height="([\\d.]+)"`).exec(svg)?.[1] ?? 0);
    return { pass: h('bar-pass'), fail: h('bar-fail') };
  };
  t.ok(heights(9999, 1).fail >= 1, '1 failed in 10,000: a red pixel');
  t.ok(heights(1, 9999).pass >= 1, '1 passed in 10,000: a green pixel');
  t.strictSame(heights(0, 5), { pass: 0, fail: 28 }, 'all failed: all red');
  t.strictSame(heights(5, 0), { pass: 28, fail: 0 }, 'all passed: all green');
});
