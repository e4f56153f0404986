/**
 * Reading a JSON head (maybe cut) for a vote: where a top-level key's value starts, a top-level
 * string value, a flat object's text.
 */
import t from 'tap';
import { flatObjectText, jsonStringValue, jsonValueStart } from '../../../lib/formatter/api.js';

t.test('jsonValueStart', async (t) => {
  const cases: [text: string, key: string, want: string | null][] = [
    ['{"results":{"tool":{}}}', 'results', '{'],
    ['{"a":{"results":[]},"results":[1]}', 'results', '['],
    ['{"a":"results","b":1}', 'results', null],
    ['{"s":"a \\" \\"results\\": 1","results":2}', 'results', '2'],
    ['{"results": ', 'results', null],
    ['{"cut', 'cut', null],
  ];
  for (const [text, key, want] of cases) t.equal(jsonValueStart(text, key), want, text);
});

t.test('jsonStringValue', async (t) => {
  const cases: [text: string, want: string | null][] = [
    ['{"name": "t", "status": "passed", "steps": []}', 'passed'],
    ['{"steps":[{"status":"failed"}],"status":"broken"}', 'broken'],
    ['{"steps":[{"status":"failed"}]', null],
    ['{"status":1}', null],
    ['{"status":"pass\\"ed"}', 'pass"ed'],
    ['{"status":"\\u0070assed"}', 'passed'],
    ['{"status":"pass', null],
    ['{"s":"\\"status\\":\\"x\\""}', null],
    ['[{"status":"passed"}]', null],
  ];
  for (const [text, want] of cases) t.equal(jsonStringValue(text, 'status'), want, text);
});

t.test('flatObjectText', async (t) => {
  const cases: [text: string, want: string][] = [
    ['{"stats":{"tests":1,"passPercent":100},"results":[]}', '"stats":{"tests":1,"passPercent":100'],
    ['{"stats":{"tests":1,', '"stats":{"tests":1,'],
    ['{"tests":[]}', ''],
  ];
  for (const [text, want] of cases) t.equal(flatObjectText(text, 'stats'), want, text);
});
