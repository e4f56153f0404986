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

/**
 * True for a FormatError, also one thrown by a plugin that loaded its own copy of the formatter
 * API (another build, a test runner's loader): the class may differ, the name does not.
 */
export function isFormatError(e: unknown): e is FormatError {
  return e instanceof FormatError || (e instanceof Error && e.name === 'FormatError');
}
