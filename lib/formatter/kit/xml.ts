/**
 * XML for formatters: a SAX handler driven over decoded text by Tally's own streaming tokenizer
 * (xml-tokenizer.ts; bench/xml-tokenizers.ts compares it with sax). DTD entities are never
 * expanded and nothing is fetched.
 */
import type { ContainerSink } from '../types.js';
import { FormatError } from './errors.js';
import { XmlTokenizer, type XmlEvents } from './xml-tokenizer.js';

export type XmlHandler = XmlEvents;

/** Elements open at once past which a file is refused: deeper nesting is an attack, not a report. */
export const MAX_XML_DEPTH = 1000;
/** Characters of one start tag (its name, attributes, quotes and spaces) past which a file is refused. */
export const MAX_XML_TAG_CHARS = 1024 * 1024;
/** Longest attribute value (or element name) a file may hold; text and CDATA have no such bound, they stream. */
export const MAX_XML_BUFFER_CHARS = 64 * 1024;

/**
 * Drive a SAX handler over XML text. DTD entities are never expanded and nothing is fetched:
 * a DOCTYPE is skipped, an undeclared entity is an error. Nesting, one start tag and any single
 * attribute value are bounded (the constants above), so memory stays flat. References to
 * characters XML forbids (`&#27;`) become U+FFFD, as real emitters write them.
 */
export async function parseXml(input: AsyncIterable<string>, out: ContainerSink, handler: XmlHandler): Promise<void> {
  const tokenizer = new XmlTokenizer(handler, {
    maxDepth: MAX_XML_DEPTH,
    maxTagChars: MAX_XML_TAG_CHARS,
    maxValueChars: MAX_XML_BUFFER_CHARS,
  });
  for await (const chunk of input) {
    tokenizer.write(chunk);
    const wait = out.ready();
    if (wait) await wait;
  }
  tokenizer.end();
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
  const legal =
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff);
  return legal ? ref : '\uFFFD';
}

/** An element or attribute name without its namespace prefix. */
export function localName(name: string): string {
  const i = name.indexOf(':');
  return i >= 0 ? name.slice(i + 1) : name;
}

/**
 * The root element is another vocabulary's: `element` as found (`<assembly>`), `expected` what
 * the formatter reads and what the file is not (`<testsuites> or <testsuite>: this is not a JUnit
 * XML file`).
 */
export function wrongRootError(element: string, expected: string): FormatError {
  return new FormatError(
    `The root element is ${element}, not ${expected}; choose the formatter for its format or let Tally detect it`,
  );
}

/** The events ended without a root element; `expected` is what to send instead (`a TRX file`). */
export function noRootError(expected: string): FormatError {
  return new FormatError(`The file has no XML root element (it is empty or holds only a prolog); send ${expected}`);
}

/** The events ended with elements still open: the file was cut short. */
export function unclosedRootError(why = 'the report looks truncated'): FormatError {
  return new FormatError(`The file ends before its root element is closed; ${why}`);
}
