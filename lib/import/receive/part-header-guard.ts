/**
 * The multipart body's part headers, measured in the raw bytes before busboy sees them: busboy keeps
 * the first header lines of a part and drops the rest without a word, so a header flood would pass.
 */

/** Bytes of one part's header block (busboy's own cap, which it applies silently by dropping the rest). */
export const MAX_PART_HEADER_BYTES = 80 * 1024;

/** The boundary parameter of a multipart Content-Type (quoted or not), as busboy reads it. */
export function boundaryOf(contentType: string): string | null {
  const m = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/i.exec(contentType);
  if (!m) return null;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? '');
}

const CRLF2 = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);

/**
 * Finds each part's header block in the raw body (after `\r\n--boundary`, up to the blank line) and
 * measures it: more than `maxPairs` lines or MAX_PART_HEADER_BYTES bytes is a header flood. Dicer
 * would keep the first pairs and drop the rest without a word. Bytes are only scanned, never held
 * (a few bytes carry over between chunks so a delimiter split across them is still found).
 */
export class PartHeaderGuard {
  private readonly delimiter: Buffer | null;
  private state: 'body' | 'after-delimiter' | 'header' | 'epilogue' = 'body';
  /** Unscanned bytes from the end of the previous chunk; the body starts with a virtual CRLF, as in Dicer. */
  private carry: Buffer = Buffer.from('\r\n');
  private headerBytes = 0;
  private headerLines = 0;

  constructor(
    boundary: string | null,
    private readonly maxPairs: number,
  ) {
    this.delimiter = boundary === null ? null : Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  /** Scans a chunk; returns what is wrong, or null. */
  push(chunk: Buffer): { detail: string; limit: 'headerPairs' | 'headerSize' } | null {
    if (!this.delimiter || this.state === 'epilogue') return null;
    const data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = EMPTY;
    let i = 0;
    while (i < data.length) {
      if (this.state === 'body') {
        const at = data.indexOf(this.delimiter, i);
        if (at < 0) {
          this.carry = Buffer.from(data.subarray(Math.max(i, data.length - (this.delimiter.length - 1))));
          return null;
        }
        i = at + this.delimiter.length;
        this.state = 'after-delimiter';
      } else if (this.state === 'after-delimiter') {
        if (data.length - i < 2) {
          this.carry = Buffer.from(data.subarray(i));
          return null;
        }
        if (data[i] === 0x2d && data[i + 1] === 0x2d) {
          this.state = 'epilogue';
          return null;
        }
        this.state = 'header';
        this.headerBytes = 0;
        this.headerLines = 0;
      } else {
        const end = data.indexOf(CRLF2, i);
        // A delimiter before the blank line cuts the block short (Dicer drops such a part): a new part starts.
        const cut = data.indexOf(this.delimiter, i);
        const interrupted = cut >= 0 && (end < 0 || cut < end);
        // Without either yet, the last bytes wait for the next chunk (a CRLFCRLF or delimiter split across chunks).
        const stop = interrupted
          ? cut
          : end >= 0
            ? end + CRLF2.length
            : Math.max(i, data.length - (this.delimiter.length - 1));
        this.headerBytes += stop - i;
        for (let nl = data.indexOf(0x0a, i); nl >= 0 && nl < stop; nl = data.indexOf(0x0a, nl + 1)) this.headerLines++;
        // The block holds the end of the delimiter line, one line per header and the blank line.
        if (this.headerLines - 2 > this.maxPairs)
          return {
            detail: `A part has more than ${this.maxPairs} header lines (TALLY_MAX_HEADER_PAIRS).`,
            limit: 'headerPairs',
          };
        if (this.headerBytes > MAX_PART_HEADER_BYTES)
          return { detail: `A part's headers are longer than ${MAX_PART_HEADER_BYTES} bytes.`, limit: 'headerSize' };
        if (interrupted) {
          i = cut + this.delimiter.length;
          this.state = 'after-delimiter';
        } else if (end >= 0) {
          i = stop;
          this.state = 'body';
        } else {
          this.carry = Buffer.from(data.subarray(stop));
          return null;
        }
      }
    }
    return null;
  }
}
