/**
 * JavaScript errors as test reporters write them (Jest, Vitest, Mocha, Playwright, CTRF): a message
 * and a stack whose first line is `Name: message`, often with ANSI colours for a terminal.
 */
import { stripVTControlCharacters } from 'node:util';
import type { FailureInfo } from '../types.js';
import { capText } from './text.js';

/** `AssertionError [ERR_ASSERTION]: x`, `TypeError: x`, `org.opentest4j.AssertionFailedError: x`. */
const NAMED = /^((?:[A-Za-z_$][\w$.]*)?(?:Error|Exception))(?: \[[^\]\n]*\])?:\s*/;

/**
 * `TypeError: x is not a function` → type `TypeError`, message `x is not a function`. Text that
 * does not start with an error's name keeps its words and has no type.
 */
export function splitErrorName(text: string): { type: string | null; message: string } {
  const m = NAMED.exec(text);
  return m ? { type: m[1]!, message: text.slice(m[0].length) } : { type: null, message: text };
}

/**
 * A reporter's error (`message`, `stack`) as a failure: colours dropped, each text capped at
 * `limit`, the type read from the start of the stack (or of the message); null when both are null.
 */
export function errorFailure(message: string | null, stack: string | null, limit: number): FailureInfo | null {
  if (message === null && stack === null) return null;
  const clean = (t: string | null): string | null => (t === null ? null : capText(stripVTControlCharacters(t), limit));
  const type = splitErrorName(stripVTControlCharacters(stack ?? message ?? '')).type;
  return { message: clean(message), type, stack: clean(stack) };
}
