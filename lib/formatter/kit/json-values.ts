/** Reading values a JSON formatter took whole: the type it expects, or null (a file is never trusted). */

export function asString(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** A finite number (JSON.parse turns literals past a double into ±Infinity). */
export function asNumber(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** A finite number that is not negative: a duration or an epoch time as a reporter writes it. */
export function asNonNegative(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

export function asRecord(v: unknown): Record<string, unknown> | null {
  return isRecord(v) ? v : null;
}

/** A JSON object (not an array, not null), as a type guard. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** One line of JSON Lines read as an object, or null when it is not one (never throws: a sniff reads heads with it). */
export function parseJsonObject(line: string): Record<string, unknown> | null {
  try {
    return asRecord(JSON.parse(line));
  } catch {
    return null;
  }
}
