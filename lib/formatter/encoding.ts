/**
 * Which text encoding a file is in, from its first bytes: BOM first, then the encoding an XML
 * declaration names, else UTF-8. Sniffed by hand because binary sniffers misread UTF-16 XML.
 */
import iconv from 'iconv-lite';

export interface EncodingGuess {
  /** iconv-lite name: 'utf8', 'utf16le', 'utf16be', 'latin1', ... */
  encoding: string;
  /** Bytes of BOM to skip. */
  bomLength: number;
}

export function guessEncoding(bytes: Buffer): EncodingGuess {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { encoding: 'utf8', bomLength: 3 };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf16le', bomLength: 2 };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf16be', bomLength: 2 };
  // UTF-16 without BOM: '<' or '{' next to a NUL byte.
  if (bytes.length >= 2 && bytes[0] !== 0 && bytes[1] === 0) return { encoding: 'utf16le', bomLength: 0 };
  if (bytes.length >= 2 && bytes[0] === 0 && bytes[1] !== 0) return { encoding: 'utf16be', bomLength: 0 };
  const declared = declaredXmlEncoding(bytes);
  if (declared && !/^utf-?8$/i.test(declared) && !/^utf-?16/i.test(declared) && iconv.encodingExists(declared)) {
    return { encoding: declared.toLowerCase(), bomLength: 0 };
  }
  return { encoding: 'utf8', bomLength: 0 };
}

function declaredXmlEncoding(bytes: Buffer): string | null {
  const start = bytes.subarray(0, 200).toString('latin1');
  const m = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(start);
  return m?.[1] ?? null;
}

/** Decodes a byte stream to text chunks, skipping the BOM; multi-byte sequences may span chunks. */
export async function* decodeText(
  source: AsyncIterable<Buffer | string>,
  guess: EncodingGuess,
): AsyncGenerator<string> {
  const decoder = iconv.getDecoder(guess.encoding);
  let skip = guess.bomLength;
  for await (const raw of source) {
    let chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    if (skip > 0) {
      const n = Math.min(skip, chunk.length);
      chunk = chunk.subarray(n);
      skip -= n;
    }
    if (chunk.length === 0) continue;
    const text = decoder.write(chunk);
    if (text.length > 0) yield text;
  }
  const rest = decoder.end();
  if (rest && rest.length > 0) yield rest;
}
