/** Values whose spelling differs per writer: seconds, TimeSpans, paths and words. */
import t from 'tap';
import {
  fileTitle,
  lastPathSegment,
  lowerWord,
  parseSeconds,
  parseTimeSpan,
  roundMs,
  secondsToMs,
} from '../../../lib/formatter/api.js';

t.test('parseSeconds: grouped thousands, decimal commas, exponents', async (t) => {
  const cases: [raw: string | undefined, ms: number | null][] = [
    ['1.5', 1500],
    ['0,123', 123],
    ['1,234.567', 1_234_567],
    ['1,234,567', 1_234_567_000],
    ['1.7e-05', 0.017],
    [' 2 ', 2000],
    ['+3', 3000],
    ['-1', null],
    ['', null],
    ['abc', null],
    [undefined, null],
  ];
  for (const [raw, ms] of cases) t.equal(parseSeconds(raw), ms, JSON.stringify(raw));
});

t.test('parseTimeSpan', async (t) => {
  const cases: [raw: string | undefined, ms: number | null][] = [
    ['00:00:01.5000000', 1500],
    ['1.02:03:04', 93_784_000],
    ['00:00:00.0000001', 0],
    ['1:2:3', null],
    [undefined, null],
  ];
  for (const [raw, ms] of cases) t.equal(parseTimeSpan(raw), ms, JSON.stringify(raw));
});

t.test('secondsToMs: JSON numbers of seconds', async (t) => {
  const cases: [raw: unknown, ms: number | null][] = [
    [0, 0],
    [0.06, 60],
    [1.2650000000000001, 1265],
    [1.7e-5, 0.017],
    [-1, null],
    ['1', null],
    [undefined, null],
    [Number.NaN, null],
  ];
  for (const [raw, ms] of cases) t.equal(secondsToMs(raw), ms, String(raw));
  t.equal(roundMs(0.1 + 0.2), 0.3);
});

t.test('paths and words', async (t) => {
  const paths: [path: string, last: string, title: string][] = [
    ['C:\\a\\b\\results.xml', 'results.xml', 'results.xml'],
    ['reports/TEST-a.xml', 'TEST-a.xml', 'TEST-a.xml'],
    ['a/', 'a/', '(unnamed)'],
    ['', '', '(unnamed)'],
  ];
  for (const [p, last, title] of paths) {
    t.equal(lastPathSegment(p), last, `lastPathSegment ${p}`);
    t.equal(fileTitle(p, '(unnamed)'), title, `fileTitle ${p}`);
  }
  t.equal(lowerWord(' Passed '), 'passed');
  t.equal(lowerWord(undefined), '');
});
