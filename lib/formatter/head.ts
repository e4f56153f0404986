/**
 * Builds the `Head` every formatter votes on from the first bytes of a file. Pure: no I/O.
 */
import path from 'node:path';
import iconv from 'iconv-lite';
import type { Head } from './types.js';
import { guessEncoding, type EncodingGuess } from './encoding.js';
import { forEachTopLevelKey } from './kit/json-head.js';

export const HEAD_BYTES = 64 * 1024;

export function readHead(bytes: Buffer, fileName: string, complete: boolean): { head: Head; encoding: EncodingGuess } {
  const encoding = guessEncoding(bytes);
  const extension = path.extname(baseName(fileName)).toLowerCase();
  const body = bytes.subarray(encoding.bomLength);
  const text = iconv.decode(body, encoding.encoding, { stripBOM: true });
  const kind = classify(text, body, encoding);
  const head: Head = {
    fileName,
    extension,
    text,
    kind,
    hasXmlDeclaration: kind === 'xml' && /^\s*<\?xml\s/.test(text),
    rootElement: null,
    rootAttributes: {},
    childElements: [],
    topLevelKeys: [],
    complete,
  };
  if (kind === 'xml') readXmlHead(text, head);
  if (kind === 'json') head.topLevelKeys = topLevelKeys(text);
  return { head, encoding };
}

/** The last segment of a path written with `/` or `\` (Windows clients send `C:\a\b.xml`). */
export function baseName(name: string): string {
  const parts = name.split(/[\\/]/);
  return parts[parts.length - 1] ?? name;
}

function classify(text: string, body: Buffer, encoding: EncodingGuess): Head['kind'] {
  const first = /^\s*(\S)/.exec(text.slice(0, 4096))?.[1];
  if (first === '<') return 'xml';
  if (first === '{' || first === '[') return 'json';
  if (encoding.encoding === 'utf8' && looksBinary(body)) return 'binary';
  return 'text';
}

function looksBinary(body: Buffer): boolean {
  const sample = body.subarray(0, 4096);
  let controls = 0;
  for (const b of sample) {
    if (b === 0) return true;
    if (b < 0x09 || (b > 0x0d && b < 0x20)) controls++;
  }
  return sample.length > 0 && controls / sample.length > 0.1;
}

const TAG = /<([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/g;
const ATTR = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function readXmlHead(text: string, head: Head): void {
  // Skip the declaration, comments, processing instructions and a DOCTYPE before the root.
  const stripped = text
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/i, '');
  TAG.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TAG.exec(stripped)) !== null) {
    const name = localName(m[1] ?? '');
    if (head.rootElement === null) {
      head.rootElement = name;
      head.rootAttributes = attributes(m[2] ?? '');
    } else {
      head.childElements.push(name);
      if (head.childElements.length >= 32) break;
    }
  }
}

function localName(name: string): string {
  const i = name.indexOf(':');
  return i >= 0 ? name.slice(i + 1) : name;
}

function attributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  ATTR.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ATTR.exec(source)) !== null) out[m[1] ?? ''] = m[2] ?? m[3] ?? '';
  return out;
}

/** Keys at depth 1 of a JSON object, read with a small scanner that tolerates a cut-off head. */
function topLevelKeys(text: string): string[] {
  const keys: string[] = [];
  forEachTopLevelKey(text, (start, end) => {
    let j = end + 1;
    while (j < text.length && /\s/.test(text[j] ?? '')) j++;
    if (text[j] === ':') {
      // A key JSON itself refuses (a raw control character, a bad escape) names nothing: sniffing never throws.
      try {
        keys.push(JSON.parse(text.slice(start, end + 1)) as string);
      } catch {
        /* not a key */
      }
    }
    return keys.length >= 64;
  });
  return keys;
}
