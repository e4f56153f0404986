/** JavaScript errors as reporters write them: the name split off, colours dropped, text capped. */
import t from 'tap';
import { errorFailure, splitErrorName } from '../../../lib/formatter/api.js';

t.test('splitErrorName', async (t) => {
  const cases: [text: string, type: string | null, message: string][] = [
    ['TypeError: x is not a function', 'TypeError', 'x is not a function'],
    ['AssertionError [ERR_ASSERTION]: 1 !== 2', 'AssertionError', '1 !== 2'],
    ['org.opentest4j.AssertionFailedError: expected', 'org.opentest4j.AssertionFailedError', 'expected'],
    ['Error:', 'Error', ''],
    ['expected 1 to equal 2', null, 'expected 1 to equal 2'],
    ['MyError happened: later', null, 'MyError happened: later'],
    ['', null, ''],
  ];
  for (const [text, type, message] of cases) t.same(splitErrorName(text), { type, message }, text);
});

t.test('errorFailure', async (t) => {
  t.equal(errorFailure(null, null, 100), null, 'nothing to say');
  t.same(
    errorFailure('\u001b[31mexpected\u001b[39m 1', 'Error: \u001b[31mexpected\u001b[39m 1\n    at x (a.js:1:1)', 100),
    { message: 'expected 1', type: 'Error', stack: 'Error: expected 1\n    at x (a.js:1:1)' },
    'colours dropped, type from the stack',
  );
  t.same(errorFailure('TimeoutError: late', null, 100), {
    message: 'TimeoutError: late',
    type: 'TimeoutError',
    stack: null,
  });
  t.same(errorFailure('abcdef', null, 3), {
    message: 'abc\n[… truncated by Tally at 3 characters]',
    type: null,
    stack: null,
  });
});
