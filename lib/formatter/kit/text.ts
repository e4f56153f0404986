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
    return this.truncated ? `${text}\n[… truncated by Tally at ${this.limit} characters]` : text;
  }

  get empty(): boolean {
    return this.length === 0;
  }
}

/** The buffer's text, or null when it holds only whitespace (the indentation of a pretty-printed file). */
export function textOrNull(buffer: TextBuffer): string | null {
  if (buffer.empty) return null;
  const value = buffer.value();
  return value.trim() === '' ? null : value;
}

/** Messages and stacks: the blank lines around them belong to the file's layout, inner indentation is kept. */
export function trimmedOrNull(buffer: TextBuffer): string | null {
  return textOrNull(buffer)?.trim() ?? null;
}
