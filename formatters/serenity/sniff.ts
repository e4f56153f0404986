/**
 * The Serenity vote: one JSON object, a test outcome. It has the story (`userStory`, Thucydides'
 * `user-story`) or `testSteps`, and a `result` in Serenity's upper-case words (`"SUCCESS"`,
 * `"FAILURE"`, …). Serenity writes `testSteps` before the story, and a long step list can push the
 * story past the head: `testSteps` with a result word and a `title` or `name` votes too. Cucumber
 * JSON is an array; Allure, CTRF, Jest, Mochawesome and Playwright have none of these keys (Allure's
 * `status` is lower-case).
 */
import { safeSniff } from '../../lib/formatter/api.js';
import { RESULT_WORDS } from './values.js';

const RESULT = new RegExp(`"result"\\s*:\\s*"(?:${RESULT_WORDS.join('|')})"`);

export const sniff = safeSniff((head) => {
  if (head.kind !== 'json' || !/^\s*\{/.test(head.text)) return 0;
  const keys = new Set(head.topLevelKeys);
  const story = keys.has('userStory') || keys.has('user-story');
  const steps = keys.has('testSteps');
  const result = RESULT.test(head.text);
  if (story && (steps || result)) return 0.9;
  if (steps && result && (keys.has('title') || keys.has('name'))) return 0.8;
  return 0;
});
