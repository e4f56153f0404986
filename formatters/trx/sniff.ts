/**
 * The TRX vote: root `<TestRun>`. The Visual Studio TeamTest namespace makes it certain; without it
 * TRX's own first children (`Times`, `TestSettings`, `Results`, …) are needed, because CppUnit's
 * XML output also has a `<TestRun>` root.
 */
import { safeSniff } from '../../lib/formatter/api.js';

const TRX_CHILDREN = new Set([
  'Times',
  'TestSettings',
  'TestRunConfiguration',
  'ResultSummary',
  'TestDefinitions',
  'Results',
  'TestLists',
  'TestEntries',
]);

export const sniff = safeSniff((head) => {
  if (head.kind !== 'xml' || head.rootElement !== 'TestRun') return 0;
  const ns = head.rootAttributes['xmlns'];
  if (ns !== undefined) return /microsoft\.com\/schemas\/VisualStudio\/TeamTest\//i.test(ns) ? 0.98 : 0.1;
  if (head.childElements.some((c) => TRX_CHILDREN.has(c))) return 0.85;
  return head.extension === '.trx' ? 0.6 : 0.2;
});
