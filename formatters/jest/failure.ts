/**
 * Jest writes each failure as one string (message, then the stack) with ANSI colours for a
 * terminal. The colours are dropped; the message is what precedes the first `    at ` frame.
 */
import { stripVTControlCharacters } from 'node:util';
import { capText, splitErrorName } from '../../lib/formatter/api.js';
import type { FailureInfo } from '../../lib/formatter/api.js';

const FRAME = /^\s+at /m;

export function failureFromMessages(messages: string[], limit: number): FailureInfo | null {
  const text = messages
    .map((m) => stripVTControlCharacters(m).trim())
    .filter((m) => m !== '')
    .join('\n\n');
  if (text === '') return null;
  const frame = FRAME.exec(text);
  // `Error: whatever` → type `Error`, message `whatever`; the stack keeps the text as written.
  const { type, message } = splitErrorName((frame ? text.slice(0, frame.index) : text).trim());
  return {
    message: message === '' ? null : capText(message, limit),
    type,
    stack: frame ? capText(text, limit) : null,
  };
}
