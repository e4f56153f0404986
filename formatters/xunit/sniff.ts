/**
 * The xUnit.net vote: root `<assemblies>` (v2/v3, and v1 written by newer runners) or a bare
 * `<assembly>` (v1, some converters). `<assembly>` is a common word (Maven assembly descriptors), so
 * a bare one needs xUnit's attributes or children, and a namespaced root is never ours.
 */
import { prefixedRoot, safeSniff } from '../../lib/formatter/api.js';

const ROOT_ATTRIBUTES = ['schema-version', 'timestamp', 'start-rtf', 'finish-rtf', 'computer', 'user'];
const ASSEMBLY_ATTRIBUTES = ['test-framework', 'run-date', 'run-time', 'environment', 'config-file'];
const ASSEMBLY_CHILDREN = new Set(['collection', 'class', 'errors', 'test']);

export const sniff = safeSniff((head) => {
  if (head.kind !== 'xml' || (head.rootElement !== 'assemblies' && head.rootElement !== 'assembly')) return 0;
  const a = head.rootAttributes;
  if ('xmlns' in a || prefixedRoot(head)) return 0.1;
  const has = (names: string[]): boolean => names.some((n) => n in a);
  const children = head.childElements;
  if (head.rootElement === 'assemblies') {
    if (children[0] === 'assembly' || has(ROOT_ATTRIBUTES)) return 0.95;
    // An empty run: `<assemblies/>` or `<assemblies></assemblies>`.
    return children.length === 0 ? 0.7 : 0.3;
  }
  return has(ASSEMBLY_ATTRIBUTES) || children.some((c) => ASSEMBLY_CHILDREN.has(c)) ? 0.9 : 0.2;
});
