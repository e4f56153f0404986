/**
 * The Allure vote, for both generations:
 * - Allure 2 JSON, one object per file: `uuid` plus, for a result, `status`/`stage` and one of the
 *   fields only results have; for a container, `children`/`befores`/`afters`. CTRF, Jest, mocha,
 *   mochawesome, Playwright and RSpec keep their tests below a top-level key and have no top-level
 *   `uuid`; Cucumber JSON is an array; NDJSON streams have no `uuid` at the top.
 * - Allure 1 XML: a `test-suite` root in the Allure namespace (NUnit's bare `<test-suite>` has none).
 */
import { safeSniff } from '../../lib/formatter/api.js';
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

export const sniff = safeSniff((head) => {
  if (head.kind === 'xml') return sniffXml(head);
  if (head.kind === 'json') return sniffJson(head);
  return 0;
});

function sniffJson(head: Head): number {
  // Allure writes one object; an array or JSON Lines is somebody else's.
  if (!/^\s*\{/.test(head.text)) return 0;
  const keys = new Set(head.topLevelKeys);
  // allure-pytest writes `uuid` after `steps`: a long step list can push it past the head.
  if (!keys.has('uuid'))
    return /-result\.json$/i.test(head.fileName) && keys.has('status') && keys.has('name') ? 0.75 : 0;
  if (CONTAINER_KEYS.some((k) => keys.has(k))) return 0.9;
  if ((keys.has('status') || keys.has('stage')) && RESULT_KEYS.some((k) => keys.has(k))) return 0.9;
  if (/-(result|container)\.json$/i.test(head.fileName)) return 0.6;
  return 0.2;
}

function sniffXml(head: Head): number {
  if (head.rootElement !== 'test-suite') return 0;
  if (Object.values(head.rootAttributes).includes(ALLURE1_NAMESPACE)) return 0.95;
  return 0;
}
