/**
 * Reads a multipart/form-data body part by part with @fastify/busboy (a maintained Dicer; plain
 * dicer 0.3.1 crashes the process on CVE-2022-24434). Parts are handed over one at a time: the next
 * part is not parsed until the current file stream has been consumed, so a slow consumer slows the
 * upload instead of growing memory.
 */
import { Busboy, type BusboyFileStream } from '@fastify/busboy';
import { pipeline, type Readable } from 'node:stream';
import type { Limits } from '../../config.js';
import { ImportFault } from '../../messages.js';
import { normaliseName } from './params.js';
import { boundaryOf, MAX_PART_HEADER_BYTES, PartHeaderGuard } from './part-header-guard.js';

export interface PartHandlers {
  field(name: string, value: string): void;
  /** Must consume `stream` to the end (or throw). */
  file(name: string, fileName: string | undefined, stream: Readable, mimeType: string | undefined): Promise<void>;
}

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
      const error = err instanceof Error ? err : new Error(String(err));
      // The pipeline below tears the body down with the parser; the part being read fails too, and
      // its handler cleans up before the caller hears of it.
      parser.destroy(error);
      current?.destroy(error);
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
    // busboy says 'finish' at the closing delimiter, before the body's end (an epilogue may follow):
    // the form is read then.
    parser.on('finish', () => {
      chain.then(() => {
        if (!settled) {
          settled = true;
          resolve();
        }
      }, fail);
    });
    // The body's own failure (a limit, the client gone) reaches the parser through the pipeline as is;
    // anything else the parser says is about the multipart syntax.
    parser.on('error', (cause: unknown) =>
      fail(
        cause === body.errored
          ? cause
          : new ImportFault('import_validation_error', {
              detail: `Malformed multipart body: ${(cause as Error)?.message ?? String(cause)}.`,
              cause,
            }),
      ),
    );
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
    // Either side failing tears down both; the failure itself is taken by the listeners above. The
    // pipeline may never end when busboy finished early: the body's owner tears it down then.
    pipeline(body, parser, (err) => {
      if (err) fail(err);
    });
  });
}
