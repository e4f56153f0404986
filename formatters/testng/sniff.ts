/**
 * The TestNG vote: only TestNG's XMLReporter writes a `<testng-results>` root. (Its JUnit reports
 * under `junitreports/` are JUnit XML and belong to the junit formatter.)
 */
import { safeSniff } from '../../lib/formatter/api.js';

const SUMMARY = ['total', 'passed', 'failed', 'skipped', 'ignored'];
const CHILDREN = new Set(['reporter-output', 'suite']);

export const sniff = safeSniff((head) => {
  if (head.kind !== 'xml' || head.rootElement !== 'testng-results') return 0;
  if (SUMMARY.some((a) => a in head.rootAttributes) || head.childElements.some((c) => CHILDREN.has(c))) return 0.95;
  return 0.85;
});
