/** A profile's name as people give it (the API, the web form): checked once, for every way in. */

export const MAX_PROFILE_NAME = 100;

// C0 and C1 controls, and the line and paragraph separators: a name is one line of text.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/**
 * The name as kept (spaces at either end dropped), or null when it is not a string, is empty, is
 * longer than MAX_PROFILE_NAME characters, or holds control characters (`profile_name_invalid`).
 */
export function profileName(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const name = raw.trim();
  if (name.length === 0 || [...name].length > MAX_PROFILE_NAME || CONTROL.test(name)) return null;
  return name;
}
