/**
 * The Allure vote, for both generations, on content (a results folder's files may be renamed):
 * - Allure 2 JSON, one object per file: for a container, `uuid` and `children`/`befores`/`afters`;
 *   for a result, `status`/`stage` with `uuid` and a result field, or, without `uuid` in the head
 *   (allure-pytest writes it after `steps`, which can fill the head), a top-level `status` that is
 *   one of Allure's five words with fields only Allure results have. CTRF, Jest, mocha, mochawesome,
 *   Playwright and RSpec keep their tests below a top-level key and have no top-level `status`;
 *   Serenity's outcome has `result` in capitals and `testSteps`; Cucumber JSON is an array; NDJSON
 *   streams have no `uuid` at the top.
 * - Allure 1 XML: a `test-suite` root in the Allure namespace (NUnit's bare `<test-suite>` has none).
 */
import { jsonStringValue, safeSniff } from '../../lib/formatter/api.js';
import type { Head } from '../../lib/formatter/api.js';
import { ALLURE1_NAMESPACE } from './allure1.js';

const RESULT_KEYS = [
  'historyId',
  'testCaseId',
  'fullName',
  'labels',
  'start',
  'stop',
  'name',
  'steps',
  'statusDetails',
];
const CONTAINER_KEYS = ['children', 'befores', 'afters'];
/** Top-level fields of an Allure 2 result that other formats' reports do not have at their top. */
const ALLURE_RESULT_FIELDS = [
  'historyId',
  'testCaseId',
  'testCaseName',
  'fullName',
  'labels',
  'links',
  'statusDetails',
  'stage',
  'steps',
  'attachments',
  'parameters',
  'start',
  'stop',
  'titlePath',
  'descriptionHtml',
];
/** Allure's statuses, as its adapters write them. */
const STATUSES = new Set(['passed', 'failed', 'broken', 'skipped', 'unknown']);

export const sniff = safeSniff((head) => {
  if (head.kind === 'xml') return sniffXml(head);
  if (head.kind === 'json') return sniffJson(head);
  return 0;
});

function sniffJson(head: Head): number {
  // Allure writes one object; an array or JSON Lines is somebody else's.
  if (!/^\s*\{/.test(head.text)) return 0;
  const keys = new Set(head.topLevelKeys);
  if (keys.has('uuid')) {
    if (CONTAINER_KEYS.some((k) => keys.has(k))) return 0.9;
    if ((keys.has('status') || keys.has('stage')) && RESULT_KEYS.some((k) => keys.has(k))) return 0.9;
    if (/-(result|container)\.json$/i.test(head.fileName)) return 0.6;
    return 0.2;
  }
  // No uuid in the head: a result whose status is an Allure word, told by the fields beside it.
  const status = keys.has('status') ? jsonStringValue(head.text, 'status') : null;
  if (status === null || !STATUSES.has(status)) return 0;
  const fields = ALLURE_RESULT_FIELDS.filter((k) => keys.has(k)).length;
  if (fields >= 2) return 0.85;
  // `{"name": …, "status": …, "steps": [` and a step list longer than the head.
  return fields === 1 && keys.has('name') ? 0.7 : 0;
}

function sniffXml(head: Head): number {
  if (head.rootElement !== 'test-suite') return 0;
  if (Object.values(head.rootAttributes).includes(ALLURE1_NAMESPACE)) return 0.95;
  return 0;
}
