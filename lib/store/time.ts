/**
 * Times as the stores keep them: every stored time is `toISOString()` output, so string order is
 * time order, in SQLite columns and MongoDB fields alike.
 */

export function now(): string {
  return new Date().toISOString();
}

/**
 * A caller's time bound in the stored form, so comparing it with stored times as strings is
 * comparing times. `what` names the bound in the error.
 */
export function isoTime(value: string, what: string): string {
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new TypeError(`${what} is not a time: ${JSON.stringify(value)}`);
  return time.toISOString();
}
