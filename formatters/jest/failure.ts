/**
 * Jest writes each failure as one string (message, then the stack) with ANSI colours for a
 * terminal. The colours are dropped; the message is what precedes the first `    at ` frame.
 */
import { TextBuffer, type FailureInfo } from '../../lib/formatter/api.js';

const FRAME = /^\s+at /m;

export function failureFromMessages(messages: string[], limit: number): FailureInfo | null {
  const text = messages
    .map((m) => stripAnsi(m).trim())
    .filter((m) => m !== '')
    .join('\n\n');
  if (text === '') return null;
  const frame = FRAME.exec(text);
  const head = (frame ? text.slice(0, frame.index) : text).trim();
  // `Error: whatever` → type `Error`, message `whatever`; the stack keeps the text as written.
  const typed = /^((?:[A-Za-z_$][\w$.]*)?(?:Error|Exception))(?: \[[^\]\n]*\])?:\s*/.exec(head);
  const message = typed ? head.slice(typed[0].length) : head;
  return {
    message: message === '' ? null : cap(message, limit),
    type: typed?.[1] ?? null,
    stack: frame ? cap(text, limit) : null,
  };
}

export function stripAnsi(text: string): string {
  // The escape character is the point of this pattern.
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '');
}

function cap(text: string, limit: number): string {
  const b = new TextBuffer(limit);
  b.append(text);
  return b.value();
}
