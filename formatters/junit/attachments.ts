/**
 * Attachment references in JUnit files: `[[ATTACHMENT|path]]` markers in system-out/system-err
 * (Jenkins junit-attachments convention) and `attachment*` properties (testmo convention).
 */

const OPEN = '[[ATTACHMENT|';
const CLOSE = ']]';
/** A marker longer than this is dropped: it keeps the carried tail, and so memory, small. */
const MAX_MARKER = 4096;

/**
 * Finds markers in text that arrives in pieces, so a marker cut by a chunk boundary is still found,
 * and never holds more than one marker's worth of text. Markers do not span lines.
 */
export class MarkerScanner {
  private carry = '';

  constructor(private readonly found: (path: string) => void) {}

  push(piece: string): void {
    const s = this.carry + piece;
    this.carry = '';
    let i = 0;
    for (;;) {
      const open = s.indexOf(OPEN, i);
      if (open < 0) {
        // Keep a tail that may be the start of a marker cut by the boundary.
        this.carry = s.slice(Math.max(i, s.length - (OPEN.length - 1)));
        return;
      }
      const from = open + OPEN.length;
      const close = s.indexOf(CLOSE, from);
      const eol = lineEnd(s, from);
      if (eol >= 0 && (close < 0 || eol < close)) {
        i = eol + 1;
        continue;
      }
      if (close < 0) {
        if (s.length - open <= MAX_MARKER) this.carry = s.slice(open);
        return;
      }
      // Jenkins reserves text after a second `|` inside the brackets; it is not part of the path.
      const path = s.slice(from, close).split('|')[0]!.trim();
      if (path) this.found(path);
      i = close + CLOSE.length;
    }
  }
}

function lineEnd(s: string, from: number): number {
  const n = s.indexOf('\n', from);
  const r = s.indexOf('\r', from);
  if (n < 0) return r;
  if (r < 0) return n;
  return Math.min(n, r);
}

/** `attachment`, `attachment1`, … (testmo); a `data:` URI is content, not a reference to a file. */
export function attachmentProperty(name: string, value: string): string | null {
  if (!/^attachment\d*$/i.test(name)) return null;
  const ref = value.trim();
  if (!ref || /^data:/i.test(ref)) return null;
  return ref;
}
