/**
 * The NUnit vote: the root element decides (`test-run` for NUnit 3, `test-results` for NUnit 2, a
 * bare `test-suite` for NUnit 3 fragments), attributes and first children confirm. Allure 1 writes a
 * `test-suite` root too, always in its own namespace, so a namespaced root is never ours.
 */
import { prefixedRoot, safeSniff } from '../../lib/formatter/api.js';
import type { Head } from '../../lib/formatter/api.js';

const NUNIT3_ATTRIBUTES = ['testcasecount', 'engine-version', 'runstate', 'clr-version', 'start-time', 'inconclusive'];
const NUNIT3_CHILDREN = new Set(['command-line', 'filter', 'test-suite', 'test-case']);
const NUNIT2_ATTRIBUTES = [
  'not-run',
  'ignored',
  'inconclusive',
  'invalid',
  'date',
  'time',
  'failures',
  'errors',
  'total',
];
const NUNIT2_CHILDREN = new Set(['environment', 'culture-info', 'test-suite']);
const SUITE_ATTRIBUTES = ['testcasecount', 'runstate', 'fullname', 'executed', 'success'];
const SUITE_CHILDREN = new Set([
  'test-suite',
  'test-case',
  'properties',
  'environment',
  'settings',
  'results',
  'failure',
  'reason',
  'output',
  'categories',
]);
/** First children of an Allure 1 `test-suite`. */
const ALLURE1_CHILDREN = new Set(['name', 'title', 'test-cases', 'labels', 'description']);

export const sniff = safeSniff((head) => {
  if (head.kind !== 'xml' || head.rootElement === null) return 0;
  const a = head.rootAttributes;
  const has = (names: string[]): boolean => names.some((n) => n in a);
  const child = (names: Set<string>): boolean => head.childElements.some((c) => names.has(c));
  switch (head.rootElement) {
    case 'test-run':
      if (foreign(head)) return 0.1;
      return has(NUNIT3_ATTRIBUTES) || child(NUNIT3_CHILDREN) ? 0.95 : 0.75;
    case 'test-results':
      if (foreign(head)) return 0.1;
      return has(NUNIT2_ATTRIBUTES) || child(NUNIT2_CHILDREN) ? 0.95 : 0.7;
    case 'test-suite':
      if (foreign(head) || child(ALLURE1_CHILDREN)) return 0;
      // A bare suite is NUnit 3's format for a single assembly run; without NUnit's attributes or
      // children it is some other vocabulary's word.
      return has(SUITE_ATTRIBUTES) || ('type' in a && child(SUITE_CHILDREN)) ? 0.9 : 0.3;
  }
  return 0;
});

/** NUnit writes no namespace: a prefixed root, a default namespace or an Allure URN means somebody else. */
function foreign(head: Head): boolean {
  if ('xmlns' in head.rootAttributes) return true;
  if (Object.values(head.rootAttributes).some((v) => /allure/i.test(v))) return true;
  return prefixedRoot(head);
}
