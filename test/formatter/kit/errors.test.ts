/** The one error a formatter throws: where it is, and recognised across copies of the API. */
import t from 'tap';
import { FormatError, isFormatError } from '../../../lib/formatter/api.js';

t.test('FormatError and isFormatError', async (t) => {
  const cause = new Error('inner');
  const e = new FormatError('bad', 3, 7, { cause });
  t.match(e, { name: 'FormatError', message: 'bad', line: 3, column: 7, cause });
  const copy = Object.assign(new Error('from a plugin’s own copy of the API'), { name: 'FormatError' });
  const cases: [unknown, boolean][] = [
    [e, true],
    [new FormatError('x'), true],
    [copy, true],
    [new TypeError('x'), false],
    ['FormatError', false],
    [null, false],
  ];
  for (const [value, want] of cases) t.equal(isFormatError(value), want, String(value));
});
