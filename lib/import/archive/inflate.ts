/**
 * Reading one zip entry: deflated entries are inflated here, from yauzl's raw (compressed) stream in
 * large chunks, with the size and CRC-32 checks yauzl would make; any read error of an entry becomes
 * zip_invalid.
 */
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Entry } from 'yauzl-promise';
import { ImportFault } from '../../messages.js';

/** zip compression method 8. */
export const DEFLATE = 8;
/**
 * Inflated bytes per chunk. zlib's default (16 KiB) costs a callback, a copy and a message to a
 * parse worker per 16 KiB; 256 KiB chunks read the same entry with a sixteenth of that overhead.
 */
const INFLATE_CHUNK_BYTES = 256 * 1024;

/**
 * A deflated entry's bytes, inflated in large chunks, with the checks yauzl would make on its own
 * stream: never more bytes than the central directory says, exactly that many, and a matching CRC-32.
 */
export async function* inflateEntry(raw: Readable, entry: Entry): AsyncGenerator<Buffer> {
  const inflate = zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES });
  // One fate for both: a corrupt raw stream fails the inflater (and so this reader), and a reader
  // that stops early (the finally below) closes the raw stream. What settles it is seen below.
  pipeline(raw, inflate, () => undefined);
  let size = 0;
  let crc = 0;
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > entry.uncompressedSize)
        throw new Error(`it inflates to more than the ${entry.uncompressedSize} bytes its header says`);
      crc = zlib.crc32(chunk, crc);
      yield chunk;
    }
    if (size !== entry.uncompressedSize)
      throw new Error(`it inflates to ${size} bytes, its header says ${entry.uncompressedSize}`);
    if (crc !== entry.crc32) throw new Error('its CRC-32 does not match');
  } finally {
    inflate.destroy();
  }
}

/** An entry's bytes with its read errors as zip_invalid (a corrupt entry is not a parser error). */
export async function* guardEntry(
  source: AsyncIterable<Buffer>,
  stream: Readable,
  name: string,
  invalid: (d: string, c?: unknown) => ImportFault,
): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of source) yield chunk as Buffer;
  } catch (cause) {
    if (cause instanceof ImportFault) throw cause;
    throw invalid(`The entry "${name}" is corrupt: ${(cause as Error).message}.`, cause);
  } finally {
    stream.destroy();
  }
}
