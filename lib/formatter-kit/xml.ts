/**
 * XML for formatters: a SAX handler driven over decoded text with `sax` in strict mode. DTD entities
 * are never expanded and nothing is fetched.
 */
import sax from 'sax';
import type { ContainerSink } from '../formatter-api.js';
import { FormatError } from './errors.js';

export interface XmlHandler {
  open(name: string, attributes: Record<string, string>): void;
  /** Character data and CDATA, in pieces; the handler joins what it keeps. */
  text(text: string): void;
  close(name: string): void;
}

/** Elements open at once past which a file is refused: deeper nesting is an attack, not a report. */
export const MAX_XML_DEPTH = 1000;
/** Characters of one start tag's attributes (names and values, plus 32 per attribute) past which a file is refused. */
export const MAX_XML_TAG_CHARS = 1024 * 1024;
/**
 * Longest single buffer sax holds (an attribute value or name, a tag name, a DOCTYPE, a comment, a
 * processing instruction) before it fails the file with "Max buffer length exceeded"; text and CDATA
 * are handed over in pieces of this size instead. sax's default, pinned here: the per-attribute cap.
 */
export const MAX_XML_BUFFER_CHARS = 64 * 1024;
(sax as unknown as { MAX_BUFFER_LENGTH: number }).MAX_BUFFER_LENGTH = MAX_XML_BUFFER_CHARS;

/**
 * Drive a SAX handler over XML text. DTD entities are never expanded and nothing is fetched:
 * a DOCTYPE is skipped, an undeclared entity is an error. Nesting, one start tag's attributes and
 * any single attribute value are bounded (the constants above), so memory stays flat.
 */
export async function parseXml(
  input: AsyncIterable<string>,
  out: ContainerSink,
  handler: XmlHandler,
): Promise<void> {
  // strictEntities: only the five XML entities and character references; sax never expands DTD entities.
  const options = { xmlns: false, position: true, strictEntities: true, trim: false, normalize: false };
  const parser = sax.parser(true, options as sax.SAXOptions);
  let failure: Error | null = null;
  let depth = 0;
  let tagChars = 0;
  parser.onerror = (err) => {
    failure ??= err;
  };
  parser.onopentagstart = () => {
    tagChars = 0;
  };
  // Security: attributes arrive one by one before their tag opens; a tag holding megabytes of them is refused.
  parser.onattribute = (a) => {
    tagChars += a.name.length + a.value.length + 32;
    if (tagChars > MAX_XML_TAG_CHARS) throw new FormatError(`A start tag holds more than ${MAX_XML_TAG_CHARS} characters of attributes.`, parser.line + 1, parser.column + 1);
  };
  parser.onopentag = (tag) => {
    // Security: a depth limit, so 100,000 nested elements are a FormatError, not a deep stack of open containers.
    if (++depth > MAX_XML_DEPTH) throw new FormatError(`XML nested deeper than ${MAX_XML_DEPTH} elements.`, parser.line + 1, parser.column + 1);
    handler.open(tag.name, tag.attributes as Record<string, string>);
  };
  parser.ontext = (t) => handler.text(t);
  parser.oncdata = (t) => handler.text(t);
  parser.onclosetag = (name) => {
    depth--;
    handler.close(name);
  };
  const check = (): void => {
    if (!failure) return;
    const reason = failure.message.split('\n')[0] ?? failure.message;
    throw new FormatError(`XML is not well-formed: ${reason}`, parser.line + 1, parser.column + 1, { cause: failure });
  };
  const repair = new IllegalReferenceFilter();
  for await (const chunk of input) {
    parser.write(repair.push(chunk));
    check();
    const wait = out.ready();
    if (wait) await wait;
  }
  parser.write(repair.end());
  // sax keeps its first error and throws it raw from the next write or close: read it out first.
  check();
  parser.close();
  check();
}

/**
 * Rewrites numeric character references to characters XML forbids (`&#27;` for ANSI colours, as
 * Surefire writes them) into U+FFFD, which strict parsers would otherwise reject. A reference split
 * across chunks is held back until its end arrives.
 */
export class IllegalReferenceFilter {
  private carry = '';

  push(chunk: string): string {
    let text = this.carry + chunk;
    this.carry = '';
    const amp = text.lastIndexOf('&');
    if (amp >= 0 && amp > text.length - 12 && text.indexOf(';', amp) < 0) {
      this.carry = text.slice(amp);
      text = text.slice(0, amp);
    }
    return text.includes('&#') ? text.replace(/&#(x[0-9a-fA-F]+|[0-9]+);/g, replaceIllegal) : text;
  }

  end(): string {
    const rest = this.carry;
    this.carry = '';
    return rest;
  }
}

function replaceIllegal(ref: string, num: string): string {
  const code = num[0] === 'x' ? parseInt(num.slice(1), 16) : parseInt(num, 10);
  const legal = code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
  return legal ? ref : '\uFFFD';
}


/** An element or attribute name without its namespace prefix. */
export function localName(name: string): string {
  const i = name.indexOf(':');
  return i >= 0 ? name.slice(i + 1) : name;
}
