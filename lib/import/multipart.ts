/**
 * Reads a multipart/form-data body part by part with @fastify/busboy (a maintained Dicer; plain
 * dicer 0.3.1 crashes the process on CVE-2022-24434). Parts are handed over one at a time: the next
 * part is not parsed until the current file stream has been consumed, so a slow consumer slows the
 * upload instead of growing memory.
 */
import { Busboy, type BusboyFileStream } from '@fastify/busboy';
import type { Readable } from 'node:stream';
import type { Limits } from '../config.js';
import { ImportFault } from '../messages.js';
import { normaliseName } from './params.js';

export interface PartHandlers {
  field(name: string, value: string): void;
  /** Must consume `stream` to the end (or throw). */
  file(name: string, fileName: string | undefined, stream: Readable, mimeType: string | undefined): Promise<void>;
}

export async function readMultipart(body: Readable, contentType: string, limits: Limits, handlers: PartHandlers): Promise<void> {
  let parser;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      preservePath: true,
      // A part named like a file parameter is a file even without a filename (curl -F 'file[]=<x.xml').
      isPartAFile: (field, _type, fileName) => fileName !== undefined || ['file', 'attachment'].includes(normaliseName(field ?? '').role),
      limits: {
        fieldSize: limits.maxFieldBytes,
        fields: limits.maxFields,
        parts: limits.maxParts,
        headerPairs: limits.maxHeaderPairs,
        fieldNameSize: 200,
      },
    });
  } catch (cause) {
    throw new ImportFault('import_validation_error', { detail: `Malformed multipart Content-Type: ${(cause as Error).message}.`, cause });
  }

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
    const limit = (what: string) => () => fail(new ImportFault('multipart_limit_exceeded', { detail: `Too many ${what}.`, details: { limit: what } }));
    parser.on('partsLimit', limit('parts'));
    parser.on('fieldsLimit', limit('fields'));
    parser.on('field', (name: string, value: string, nameTruncated: boolean, valueTruncated: boolean) => {
      if (settled) return;
      if (nameTruncated || valueTruncated) {
        fail(new ImportFault('multipart_limit_exceeded', { detail: `The field "${name.slice(0, 60)}" is longer than ${limits.maxFieldBytes} bytes.`, details: { limit: 'fieldSize', field: name.slice(0, 60) } }));
        return;
      }
      // Fields are applied in order with the files around them.
      chain = chain.then(() => (settled ? undefined : handlers.field(name, value))).catch((e: unknown) => fail(e));
    });
    parser.on('file', (name: string, stream: BusboyFileStream, fileName: string | undefined, _enc: string, mimeType: string | undefined) => {
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
          return handlers.file(name, fileName || undefined, stream, mimeType).finally(() => {
            current = null;
          });
        })
        .catch((e: unknown) => {
          stream.resume();
          fail(e);
        });
    });
    parser.on('error', (cause: unknown) =>
      fail(new ImportFault('import_validation_error', { detail: `Malformed multipart body: ${(cause as Error)?.message ?? String(cause)}.`, cause })),
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
    body.pipe(parser);
  });
}
