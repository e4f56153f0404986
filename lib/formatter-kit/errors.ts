/** The one error a formatter throws for input it cannot read. */
/** The file cannot be read as its format claims; `line`/`column` point at the problem when known. */
export class FormatError extends Error {
  override name = 'FormatError';
  constructor(
    message: string,
    readonly line: number | null = null,
    readonly column: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

