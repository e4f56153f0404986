/** Reading values a JSON formatter took whole: the type it expects, or null (a file is never trusted). */

export function asString(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** A finite number (JSON.parse turns literals past a double into ±Infinity). */
export function asNumber(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function asRecord(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

export function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
