/**
 * The JUnit vote: the root element decides. Surefire and JUnit Platform put 10–30 KB of JVM
 * properties before the first <testcase>, so children are only a bonus, never required.
 */
import { prefixedRoot, safeSniff } from '../../lib/formatter/api.js';

const ROOTS = new Set(['testsuites', 'testsuite']);
const SUMMARY_ATTRIBUTES = ['tests', 'failures', 'errors', 'skipped', 'time', 'name', 'timestamp'];
const CHILDREN = new Set(['testsuite', 'testcase', 'properties']);

export const sniff = safeSniff((head) => {
  if (head.kind !== 'xml' || head.rootElement === null || !ROOTS.has(head.rootElement)) return 0;
  // No JUnit emitter writes a prefixed root (<x:testsuite>): it belongs to some other vocabulary.
  if (prefixedRoot(head)) return 0.2;
  const summary = SUMMARY_ATTRIBUTES.some((a) => a in head.rootAttributes);
  return summary || head.childElements.some((c) => CHILDREN.has(c)) ? 0.95 : 0.85;
});
