/**
 * Files a Robot Framework log message points at. SeleniumLibrary and Browser log screenshots as
 * HTML messages (`<a href="selenium-screenshot-1.png"><img src="selenium-screenshot-1.png">`), which
 * SAX hands over unescaped; the paths are relative to the output directory.
 */

/** A value longer than this is inline content (a `data:` screenshot), not a path: it is skipped unread. */
const MAX_VALUE = 4096;
const ATTRIBUTE = /(src|href)\s*=\s*(["'])/gi;
const SCREENSHOT = /(?:[^\s"'<>|]*[\\/])?selenium-screenshot-[^\s"'<>|\\/]*?\.(?:png|jpe?g|webp|gif)/gi;

/**
 * Finds `src="…"`/`href="…"` values in HTML that arrives in pieces. It carries at most one value's
 * worth of text between pieces, so a base64 image of megabytes costs nothing.
 */
export class HtmlRefScanner {
  private carry = '';
  /** Inside an over-long value: the quote that ends it. */
  private skipUntil: string | null = null;

  constructor(private readonly found: (ref: string) => void) {}

  push(piece: string): void {
    let s = this.carry + piece;
    this.carry = '';
    if (this.skipUntil !== null) {
      const end = s.indexOf(this.skipUntil);
      if (end < 0) return;
      s = s.slice(end + 1);
      this.skipUntil = null;
    }
    let done = 0;
    ATTRIBUTE.lastIndex = 0;
    for (let m = ATTRIBUTE.exec(s); m !== null; m = ATTRIBUTE.exec(s)) {
      const quote = m[2]!;
      const from = m.index + m[0].length;
      const end = s.indexOf(quote, from);
      if (end < 0) {
        if (s.length - from > MAX_VALUE) this.skipUntil = quote;
        else this.carry = s.slice(m.index);
        return;
      }
      const ref = fileRef(s.slice(from, end), m[1]!.toLowerCase() === 'href');
      if (ref) this.found(ref);
      done = end + 1;
      ATTRIBUTE.lastIndex = done;
    }
    // Keep a tail that may be the start of an attribute cut by the boundary (`hr` + `ef="…`).
    this.carry = s.slice(Math.max(done, s.length - 16));
  }
}

/** Screenshot file names in plain-text messages (`Screenshot saved to …/selenium-screenshot-3.png`). */
export function screenshotNames(text: string): string[] {
  return [...text.matchAll(SCREENSHOT)].map((m) => m[0]);
}

/**
 * A path worth resolving against the uploaded files: not a URL, not inline data, not an anchor.
 * Links (`href`) count only when they name a file with an extension; `file:` URIs become paths.
 */
export function fileRef(raw: string, link: boolean): string | null {
  let ref = raw.trim();
  if (ref === '' || ref.length > MAX_VALUE || ref.startsWith('#')) return null;
  if (/^file:/i.test(ref))
    ref = decodeUriPath(ref.replace(/^file:(\/\/[^/]*)?/i, '')).replace(/^\/([a-z]:[\\/])/i, '$1');
  else if (/^[a-z][a-z0-9+.-]*:/i.test(ref) && !/^[a-z]:[\\/]/i.test(ref)) return null;
  ref = ref.replace(/[?#].*$/, '');
  if (ref === '') return null;
  if (link && !/\.[A-Za-z0-9]{1,8}$/.test(ref)) return null;
  return ref;
}

function decodeUriPath(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}
