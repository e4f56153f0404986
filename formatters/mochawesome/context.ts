/**
 * mochawesome's `context` (from `addContext(this, …)`): a JSON-encoded string whose value is a
 * string, a `{ title, value }` object or an array of those. Cypress setups put screenshot and
 * video paths there; anything else is kept as a property.
 */
import { capText as cap } from '../../lib/formatter/api.js';
import type { Property } from '../../lib/formatter/api.js';

export function readContext(raw: unknown, limit: number): { properties: Property[]; refs: string[] } {
  const properties: Property[] = [];
  const refs: string[] = [];
  if (raw === undefined || raw === null) return { properties, refs };
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      // Some reporters store the text itself rather than its JSON encoding.
      value = raw;
    }
  }
  for (const item of Array.isArray(value) ? value : [value]) {
    const titled = typeof item === 'object' && item !== null && !Array.isArray(item) && 'value' in item;
    const name =
      titled && typeof (item as { title?: unknown }).title === 'string' ? (item as { title: string }).title : 'context';
    const v = titled ? (item as { value: unknown }).value : item;
    if (v === undefined || v === null) continue;
    const text = typeof v === 'string' ? v : JSON.stringify(v);
    properties.push({ name, value: cap(text, limit) });
    if (typeof v === 'string') {
      const ref = attachmentRef(v);
      if (ref && !refs.includes(ref)) refs.push(ref);
    }
  }
  return { properties, refs };
}

/**
 * A context string that names a file: one line, not a data: URI nor a web URL, and either a path
 * (it has a separator) or a single file name with an extension. Plain text such as a note stays a
 * property only.
 */
export function attachmentRef(value: string): string | null {
  const v = value.trim();
  if (v === '' || v.length > 2048 || /[\r\n]/.test(v)) return null;
  if (/^data:/i.test(v) || (/^[a-z][a-z0-9+.-]*:\/\//i.test(v) && !/^file:\/\//i.test(v))) return null;
  const path = v.replace(/^file:\/\//i, '');
  if (!/\.[A-Za-z0-9]{1,8}$/.test(path)) return null;
  if (/[\\/]/.test(path) || !/\s/.test(path)) return path;
  return null;
}
