/**
 * Text a formatter keeps: capped at the import's limit (`ctx.limits.maxTextChars`) with Tally's
 * marker, whole or arriving in pieces, and strings copied off the input chunk they were cut from.
 */

/** What ends a cut text (after a newline in TextBuffer and capText): the same words in every stored text. */
export function truncationMarker(limit: number): string {
  return `[… truncated by Tally at ${limit} characters]`;
}

/** A text cut to `limit` characters with the marker, or the text itself when it fits; null stays null. */
export function capText(text: string, limit: number): string;
export function capText(text: string | null, limit: number): string | null;
export function capText(text: string | null, limit: number): string | null {
  if (text === null || text.length <= limit) return text;
  return `${text.slice(0, limit)}\n${truncationMarker(limit)}`;
}

/** Keeps at most `limit` characters of a text that arrives in pieces, and says whether it cut. */
export class TextBuffer {
  private parts: string[] = [];
  private length = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  append(piece: string): void {
    if (this.length >= this.limit) {
      if (piece.length > 0) this.truncated = true;
      return;
    }
    const room = this.limit - this.length;
    const kept = piece.length > room ? piece.slice(0, room) : piece;
    if (kept.length < piece.length) this.truncated = true;
    this.parts.push(kept);
    this.length += kept.length;
  }

  /** The text kept, with a marker when it was cut. */
  value(): string {
    const text = this.parts.join('');
    return this.truncated ? `${text}\n${truncationMarker(this.limit)}` : text;
  }

  get empty(): boolean {
    return this.length === 0;
  }
}

/** The buffer's text, or null when it holds only whitespace (the indentation of a pretty-printed file). */
export function textOrNull(buffer: TextBuffer | null): string | null {
  if (buffer === null || buffer.empty) return null;
  const value = buffer.value();
  return value.trim() === '' ? null : value;
}

/** Messages and stacks: the blank lines around them belong to the file's layout, inner indentation is kept. */
export function trimmedOrNull(buffer: TextBuffer | null): string | null {
  return textOrNull(buffer)?.trim() ?? null;
}

/**
 * A copy of a string that does not keep the input chunk it was cut from alive. V8 makes a slice of
 * 13 characters or more a view into its parent string, so a formatter that holds values for a while
 * (definitions, open suites, titles waiting for a later section) would otherwise pin whole chunks.
 */
export function ownCopy(value: string): string {
  return value.length < 13 ? value : (' ' + value).slice(1);
}
