/** Reading a JSON head (the first 64 KiB, possibly cut) for sniffing: cheap, never throws. */

/** First character of the value of a top-level key (`{`, `[`, `"`, a digit…), read from the head text. */
export function jsonValueStart(text: string, key: string): string | null {
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return null;
      if (depth === 1 && expectKey) {
        const m = /^\s*:\s*(\S)/.exec(text.slice(end + 1, end + 64));
        if (m && text.slice(i + 1, end) === key) return m[1]!;
      }
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
  return null;
}

function stringEnd(text: string, start: number): number {
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
