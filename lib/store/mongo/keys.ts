/**
 * Reversible escaping of the keys of free-form maps (import params, message details, container meta).
 * Their keys come from outside — `params` keeps every query-string name as received — and a key with
 * a `.` or a `$` is refused by FerretDB on insert and by MongoDB inside `$set`, which would make one
 * odd parameter name fail the whole import. Keys without `%`, `.`, `$` or NUL are stored unchanged.
 */

const UNSAFE = /[%.$\0]/g;
const ESCAPED = /%(25|2E|24|00)/g;
const DECODE: Record<string, string> = { '25': '%', '2E': '.', '24': '$', '00': '\0' };

export function escapeKeys(value: unknown): unknown {
  return mapKeys(value, (key) =>
    key.replace(UNSAFE, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`),
  );
}

export function unescapeKeys(value: unknown): unknown {
  return mapKeys(value, (key) => key.replace(ESCAPED, (_, hex: string) => DECODE[hex]!));
}

function mapKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, rename));
  if (!isPlainObject(value)) return value;
  // fromEntries defines own properties, so a key named `__proto__` stays data instead of becoming the prototype.
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), mapKeys(v, rename)]));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
