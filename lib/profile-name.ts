/** A profile's name as people give it (the API, the web form): checked once, for every way in. */

export const MAX_PROFILE_NAME = 100;

// C0 and C1 controls, and the line and paragraph separators: a name is one line of text.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/**
 * The name as kept (spaces at either end dropped), or what is wrong with it (`profile_name_invalid`):
 * not a string, empty, longer than MAX_PROFILE_NAME characters, or holding control characters.
 */
export function checkProfileName(raw: unknown): { name: string } | { problem: string } {
  if (typeof raw !== 'string') return { problem: 'The name is not text.' };
  const name = raw.trim();
  if (name.length === 0) return { problem: 'The name is empty.' };
  const length = [...name].length;
  if (length > MAX_PROFILE_NAME) return { problem: `The name has ${length} characters.` };
  if (CONTROL.test(name)) return { problem: 'The name holds a control character (a line break, a tab, …).' };
  return { name };
}
