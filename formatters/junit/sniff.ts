/**
 * The JUnit vote: the root element decides. Surefire and JUnit Platform put 10–30 KB of JVM
 * properties before the first <testcase>, so children are only a bonus, never required.
 */
import type { Head } from '../../lib/formatter/api.js';

const ROOTS = new Set(['testsuites', 'testsuite']);
const SUMMARY_ATTRIBUTES = ['tests', 'failures', 'errors', 'skipped', 'time', 'name', 'timestamp'];
const CHILDREN = new Set(['testsuite', 'testcase', 'properties']);

export function sniff(head: Head): number {
  try {
    if (head.kind !== 'xml' || head.rootElement === null || !ROOTS.has(head.rootElement)) return 0;
    // Head.rootElement is the local name; a prefixed root (<x:testsuite>) belongs to some other
    // vocabulary, and no JUnit emitter writes one.
    if (prefixedRoot(head.text)) return 0.2;
    let score = 0.85;
    if (SUMMARY_ATTRIBUTES.some((a) => a in head.rootAttributes) || head.childElements.some((c) => CHILDREN.has(c)))
      score = 0.95;
    return score;
  } catch {
    return 0;
  }
}

/** The raw name of the first element after the prolog carries a namespace prefix. */
function prefixedRoot(text: string): boolean {
  const body = text
    .slice(0, 8192)
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/i, '');
  const m = /<([A-Za-z_][\w.:-]*)/.exec(body);
  return m !== null && m[1]!.includes(':');
}
