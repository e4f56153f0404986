/** Helpers for a formatter's vote (`sniff`), which must be pure, cheap and never throw. */
import type { Head } from '../types.js';

/** Wraps a vote so that it never throws: a head it cannot read (a malformed one, a bug) scores 0. */
export function safeSniff(sniff: (head: Head) => number): (head: Head) => number {
  return (head) => {
    try {
      return sniff(head);
    } catch {
      return 0;
    }
  };
}

/**
 * The root element is written with a namespace prefix (`<x:testsuite>`). `Head.rootElement` is the
 * local name; a prefixed root usually belongs to another vocabulary that reuses the word.
 */
export function prefixedRoot(head: Pick<Head, 'text'>): boolean {
  const body = head.text
    .slice(0, 8192)
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/i, '');
  const m = /<([A-Za-z_][\w.:-]*)/.exec(body);
  return m !== null && m[1]!.includes(':');
}
