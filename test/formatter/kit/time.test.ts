/** Timestamps as result files write them → UTC instants, a time without a zone flagged naive. */
import t from 'tap';
import { fromEpochMs, parseTimestamp, type Instant } from '../../../lib/formatter/api.js';

t.test('parseTimestamp', async (t) => {
  const cases: [raw: string | undefined, want: Instant | null][] = [
    ['2026-01-02T03:04:05', { iso: '2026-01-02T03:04:05.000Z', naive: true }],
    ['2026-01-02T03:04:05.5+02:00', { iso: '2026-01-02T01:04:05.500Z', naive: false }],
    ['2026-01-02 03:04:05Z', { iso: '2026-01-02T03:04:05.000Z', naive: false }],
    ['26 Jun 2018 15:41:26 GMT', { iso: '2018-06-26T15:41:26.000Z', naive: false }],
    ['2026-02-31T00:00:00Z', null],
    ['1970-01-01T00:00:00', null],
    ['yesterday', null],
    [undefined, null],
  ];
  for (const [raw, want] of cases) t.same(parseTimestamp(raw), want, String(raw));
});

t.test('fromEpochMs', async (t) => {
  const cases: [ms: number | null | undefined, want: Instant | null][] = [
    [1700000000000, { iso: '2023-11-14T22:13:20.000Z', naive: false }],
    [0, null],
    [-5, null],
    [Number.POSITIVE_INFINITY, null],
    [null, null],
  ];
  for (const [ms, want] of cases) t.same(fromEpochMs(ms), want, String(ms));
});
