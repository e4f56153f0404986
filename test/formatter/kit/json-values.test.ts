/** Values a JSON formatter took whole: the type it expects, or null. */
import t from 'tap';
import {
  asList,
  asNonNegative,
  asNumber,
  asRecord,
  asString,
  isRecord,
  parseJsonObject,
} from '../../../lib/formatter/api.js';

t.test('readers', async (t) => {
  const values: unknown[] = ['a', '', 1.5, -1, 0, Number.POSITIVE_INFINITY, null, undefined, [1], { a: 1 }, true];
  const want = {
    asString: ['a', '', null, null, null, null, null, null, null, null, null],
    asNumber: [null, null, 1.5, -1, 0, null, null, null, null, null, null],
    asNonNegative: [null, null, 1.5, null, 0, null, null, null, null, null, null],
    isRecord: [false, false, false, false, false, false, false, false, false, true, false],
  };
  t.same(values.map(asString), want.asString, 'asString');
  t.same(values.map(asNumber), want.asNumber, 'asNumber');
  t.same(values.map(asNonNegative), want.asNonNegative, 'asNonNegative');
  t.same(values.map(isRecord), want.isRecord, 'isRecord');
  t.same(
    values.map(asRecord),
    want.isRecord.map((r, i) => (r ? values[i] : null)),
    'asRecord',
  );
  t.same(asList([1, 2]), [1, 2]);
  t.same(asList({ 0: 1 }), []);
});

t.test('parseJsonObject never throws', async (t) => {
  const cases: [line: string, want: Record<string, unknown> | null][] = [
    ['{"Action":"run"}', { Action: 'run' }],
    ['[1]', null],
    ['"x"', null],
    ['{"cut":', null],
    ['', null],
  ];
  for (const [line, want] of cases) t.same(parseJsonObject(line), want, line);
});
