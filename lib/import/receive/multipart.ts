/**
 * Reads a multipart/form-data body part by part with @fastify/busboy (a maintained Dicer; plain
 * dicer 0.3.1 crashes the process on CVE-2022-24434). Parts are handed over one at a time: the next
 * part is not parsed until the current file stream has been consumed, so a slow consumer slows the
 * upload instead of growing memory.
 */
import { Busboy, type BusboyFileStream } from '@fastify/busboy';
import type { Readable } from 'node:stream';
import type { Limits } from '../../config.js';
import { ImportFault } from '../../messages.js';
import { normaliseName } from './params.js';

export interface PartHandlers {
  field(name: string, value: string): void;
  /** Must consume `stream` to the end (or throw). */
  file(name: string, fileName: string | undefined, stream: Readable, mimeType: string | undefined): Promise<void>;
}

/** Bytes of one part's header block (busboy's own cap, which it applies silently by dropping the rest). */
export const MAX_PART_HEADER_BYTES = 80 * 1024;
/** A form field is refused once this many bytes past TALLY_MAX_FIELD_BYTES arrived while it is open. */
const FIELD_SLACK_BYTES = 1024 * 1024;

export async function readMultipart(
  body: Readable,
  contentType: string,
  limits: Limits,
  handlers: PartHandlers,
): Promise<void> {
  let parser;
  // The field busboy is reading (it reports a field only once it ended), and the bytes that arrived since.
  let fieldOpen = false;
  let fieldBytes = 0;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      preservePath: true,
      // A part named like a file parameter is a file even without a filename (curl -F 'file[]=<x.xml').
      isPartAFile: (field, _type, fileName) => {
        const isFile = fileName !== undefined || ['file', 'attachment'].includes(normaliseName(field ?? '').role);
        fieldOpen = !isFile;
        fieldBytes = 0;
        return isFile;
      },
      limits: {
        fieldSize: limits.maxFieldBytes,
        fields: limits.maxFields,
        parts: limits.maxParts,
        headerPairs: limits.maxHeaderPairs,
        headerSize: MAX_PART_HEADER_BYTES,
        fieldNameSize: 200,
      },
    });
  } catch (cause) {
    throw new ImportFault('import_validation_error', {
      detail: `Malformed multipart Content-Type: ${(cause as Error).message}.`,
      cause,
    });
  }
  const headers = new PartHeaderGuard(boundaryOf(contentType), limits.maxHeaderPairs);

  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let chain: Promise<void> = Promise.resolve();
    let current: BusboyFileStream | null = null;
    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      body.unpipe(parser);
      // The part being read fails too, and its handler cleans up before the caller hears of it.
      current?.destroy(err instanceof Error ? err : new Error(String(err)));
      chain.finally(() => reject(err)).catch(() => undefined);
    };
    const limit = (what: string) => () =>
      fail(new ImportFault('multipart_limit_exceeded', { detail: `Too many ${what}.`, details: { limit: what } }));
    parser.on('partsLimit', limit('parts'));
    parser.on('fieldsLimit', limit('fields'));
    parser.on('field', (name: string, value: string, nameTruncated: boolean, valueTruncated: boolean) => {
      fieldOpen = false;
      if (settled) return;
      if (nameTruncated || valueTruncated) {
        fail(
          new ImportFault('multipart_limit_exceeded', {
            detail: `The field "${name.slice(0, 60)}" is longer than ${limits.maxFieldBytes} bytes.`,
            details: { limit: 'fieldSize', field: name.slice(0, 60) },
          }),
        );
        return;
      }
      // Fields are applied in order with the files around them.
      // A part without name="…" in its Content-Disposition reaches here with no name: it is the name "".
      chain = chain
        .then(() => (settled ? undefined : handlers.field(name ?? '', value)))
        .catch((e: unknown) => fail(e));
    });
    parser.on(
      'file',
      (
        name: string,
        stream: BusboyFileStream,
        fileName: string | undefined,
        _enc: string,
        mimeType: string | undefined,
      ) => {
        // Security: when the body ends inside this part, busboy re-emits Dicer's "Part terminated early" on the
        // stream at once. If the body's end was already buffered (a slow store before the parser was attached),
        // that is before the part's handler, a microtask later, listens, and an 'error' without a listener ends
        // the process. The stream keeps the error for its reader instead.
        stream.on('error', (e: Error) => {
          if (!stream.destroyed) stream.destroy(e);
        });
        if (settled) {
          stream.resume();
          return;
        }
        chain = chain
          .then(() => {
            // An earlier part failed: this one is drained, never stored.
            if (settled) {
              stream.resume();
              return;
            }
            current = stream;
            return handlers.file(name ?? '', fileName || undefined, stream, mimeType).finally(() => {
              current = null;
            });
          })
          .catch((e: unknown) => {
            stream.resume();
            fail(e);
          });
      },
    );
    parser.on('error', (cause: unknown) =>
      fail(
        new ImportFault('import_validation_error', {
          detail: `Malformed multipart body: ${(cause as Error)?.message ?? String(cause)}.`,
          cause,
        }),
      ),
    );
    parser.on('finish', () => {
      chain.then(() => {
        if (!settled) {
          settled = true;
          resolve();
        }
      }, fail);
    });
    body.on('error', (cause) => fail(cause));
    // Sees every chunk as it arrives, before busboy: part headers and open fields are measured here,
    // because busboy drops header lines past its limits silently and reports a long field only at its end.
    const watch = (chunk: Buffer): void => {
      if (settled) return;
      const problem = headers.push(chunk);
      if (problem) {
        fail(
          new ImportFault('multipart_limit_exceeded', {
            detail: problem.detail,
            details: {
              limit: problem.limit,
              max: problem.limit === 'headerPairs' ? limits.maxHeaderPairs : MAX_PART_HEADER_BYTES,
            },
          }),
        );
        return;
      }
      // Security: a 100 MB field is refused after ~1 MiB, not read to its end first.
      if (fieldOpen && (fieldBytes += chunk.length) > limits.maxFieldBytes + FIELD_SLACK_BYTES) {
        fail(
          new ImportFault('multipart_limit_exceeded', {
            detail: `A form field is longer than ${limits.maxFieldBytes} bytes.`,
            details: { limit: 'fieldSize' },
          }),
        );
      }
    };
    body.on('data', watch);
    body.pipe(parser);
  });
}

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
