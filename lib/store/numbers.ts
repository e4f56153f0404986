/**
 * The public ids of reports and profiles: integers, unique in the deployment, handed out by a counter
 * per noun that never goes back (a deleted report's number is never given again). Calliope's ids
 * are integers and its clients declare them as 32-bit ones (`Integer report_id`, `int32`), so a
 * number stays within 1..2,147,483,647. The UUID stays the internal key every other record points
 * to; a route accepts either.
 */

/** The largest number a client with a signed 32-bit id can read. */
export const MAX_NUMBER = 2_147_483_647;

/** What a lookup takes: the UUID (internal key, old links), or the public number. */
export type IdOrNumber = string | number;

/** The nouns that have a counter of their own. */
export type NumberedNoun = 'profile' | 'report';

/** A chosen number that another record of the noun already has. */
export class NumberTakenError extends Error {
  constructor(
    readonly noun: NumberedNoun,
    readonly number: number,
  ) {
    super(`${noun} id ${number} is taken`);
    this.name = 'NumberTakenError';
  }
}

/** The number of a decimal text (a route segment, a command-line flag), or null when it is not one. */
export function parseNumber(text: string): number | null {
  if (!/^[0-9]{1,10}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= MAX_NUMBER ? n : null;
}

/** A route's id segment as a lookup: the number when it is one, else the text (a UUID, or nothing). */
export function idOrNumber(segment: string): IdOrNumber {
  return parseNumber(segment) ?? segment;
}

/** Refuses a number outside 1..MAX_NUMBER: chosen ones, and a counter that ran out. */
export function checkNumber(noun: NumberedNoun, n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`A ${noun} id is a whole number from 1; ${n} is not.`);
  if (n > MAX_NUMBER)
    throw new RangeError(
      `The ${noun} ids have reached ${MAX_NUMBER}, the largest a client with 32-bit ids can read; ` +
        `${n} cannot be given.`,
    );
  return n;
}
