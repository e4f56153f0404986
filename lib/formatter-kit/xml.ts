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

/**
 * Drive a SAX handler over XML text. DTD entities are never expanded and nothing is fetched:
 * a DOCTYPE is skipped, an undeclared entity is an error.
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
  parser.onerror = (err) => {
    failure ??= err;
  };
  parser.onopentag = (tag) => handler.open(tag.name, tag.attributes as Record<string, string>);
  parser.ontext = (t) => handler.text(t);
  parser.oncdata = (t) => handler.text(t);
  parser.onclosetag = (name) => handler.close(name);
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

