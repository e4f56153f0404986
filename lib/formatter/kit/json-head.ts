/** Reading a JSON head (the first 64 KiB, possibly cut) for sniffing: cheap, never throws. */

/** First character of the value of a top-level key (`{`, `[`, `"`, a digit…), read from the head text. */
export function jsonValueStart(text: string, key: string): string | null {
  let found: string | null = null;
  forEachTopLevelKey(text, (start, end) => {
    const m = /^\s*:\s*(\S)/.exec(text.slice(end + 1, end + 64));
    if (m && text.slice(start + 1, end) === key) found = m[1]!;
    return found !== null;
  });
  return found;
}

/**
 * The value of a top-level key when it is a JSON string (`"status": "passed"` → `passed`), read from
 * the head text; null when the key is not there, holds no string, or the string is cut off.
 */
export function jsonStringValue(text: string, key: string): string | null {
  let found: string | null = null;
  forEachTopLevelKey(text, (start, end) => {
    if (text.slice(start + 1, end) !== key) return false;
    const colon = /^\s*:\s*"/.exec(text.slice(end + 1, end + 64));
    if (colon) {
      const open = end + colon[0].length;
      const close = stringEnd(text, open);
      if (close > 0) {
        try {
          found = JSON.parse(text.slice(open, close + 1)) as string;
        } catch {
          found = null;
        }
      }
    }
    return true;
  });
  return found;
}

/**
 * Each string that stands where a key of the top-level object may (after its `{` or a `,` at depth
 * 1), as the positions of its quotes, until `visit` returns true or the (possibly cut) text ends.
 */
export function forEachTopLevelKey(text: string, visit: (start: number, end: number) => boolean): void {
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return;
      if (depth === 1 && expectKey && visit(i, end)) return;
      expectKey = false;
      i = end;
      continue;
    }
    if (c === '{' || c === '[') {
      depth++;
      expectKey = c === '{' && depth === 1;
    } else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 1) expectKey = true;
  }
}

/** Where the JSON string that opens at `start` (its `"`) closes, escapes read past; -1 when the text ends first. */
export function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/**
 * The text of a flat object under `key` (`"stats": {…}`), from the key to the first `}`, as far as
 * the head holds it; '' when the head has no such key. For votes on the words inside it.
 */
export function flatObjectText(text: string, key: string): string {
  const at = text.indexOf(`"${key}"`);
  if (at < 0) return '';
  const end = text.indexOf('}', at);
  return text.slice(at, end < 0 ? undefined : end);
}
