/**
 * Tally's streaming XML tokenizer: what a result file needs of XML (elements, attributes, text,
 * CDATA, the five entities and character references; comments, processing instructions and a
 * DOCTYPE skipped), driven over decoded text chunks. It finds markup with `indexOf` and hands text
 * over as slices of the chunk, so the cost is per tag, not per character, and text is never
 * gathered: a 500 MB `system-out` passes through in chunk-sized pieces.
 *
 * Well-formedness it checks, as strict `sax` did before it: tags close in order, the root closes,
 * no text outside the root, attribute values quoted, entities known. DTD entities are never
 * expanded and nothing is ever fetched. Nesting, the size of one start tag and of one attribute
 * value are bounded, so hostile files fail fast with a FormatError instead of growing memory.
 */
import { FormatError } from './errors.js';

export interface XmlEvents {
  open(name: string, attributes: Record<string, string>): void;
  /** Character data and CDATA, in pieces; the handler joins what it keeps. */
  text(text: string): void;
  close(name: string): void;
}

export interface XmlBounds {
  maxDepth: number;
  /** Characters of one start tag (name, attributes, quotes and spaces). */
  maxTagChars: number;
  /** Characters of one attribute value, and of one name. */
  maxValueChars: number;
}

type State = 'text' | 'cdata' | 'comment' | 'pi' | 'doctype';

/** `<name attr="v" …>` or `…/>`: the whole start tag, attributes as one group. */
const START_TAG = /<([^\s/>"'=<]+)((?:\s+[^\s/>"'=<]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
const ATTRIBUTE = /\s+([^\s/>"'=<]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
/** A close tag's name may be followed by spaces only. */
const CLOSE_NAME = /^([^\s/>"'=<]+)\s*$/;
const WHITESPACE_ONLY = /^[\s\uFEFF]*$/;
/** The longest entity reference held back at the end of a chunk (`&#x10FFFF;` is 10). */
const MAX_REFERENCE_CHARS = 40;

/** What an unclosed construct is called in the error, by tokenizer state. */
const UNCLOSED: Partial<Record<State, string>> = { cdata: 'CDATA section', pi: 'processing instruction' };
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export class XmlTokenizer {
  private buf = '';
  private state: State = 'text';
  private readonly stack: string[] = [];
  private sawRoot = false;
  /** Newlines in the text already consumed and dropped from `buf`. */
  private lines = 0;
  /** Column of `buf`'s first character (when it starts mid-line). */
  private column0 = 0;
  /** DOCTYPE scanning state, kept across chunks: bracket depth and the open quote (0 = none). */
  private doctypeDepth = 0;
  private doctypeQuote = 0;

  constructor(
    private readonly events: XmlEvents,
    private readonly bounds: XmlBounds,
  ) {}

  write(chunk: string): void {
    this.buf = this.buf.length > 0 ? this.buf + chunk : chunk;
    this.run(false);
  }

  end(): void {
    this.run(true);
    if (this.state !== 'text') this.fail(this.buf.length, `Unclosed ${UNCLOSED[this.state] ?? this.state}`);
    if (this.buf.length > 0) this.fail(0, 'Unexpected end of file inside a tag');
    if (this.stack.length > 0) this.fail(0, 'Unclosed root tag');
    if (!this.sawRoot) this.fail(0, 'No root element');
  }

  private run(final: boolean): void {
    const s = this.buf;
    const n = s.length;
    let i = 0;
    for (;;) {
      if (this.state === 'text') {
        const lt = s.indexOf('<', i);
        let stop = lt < 0 ? n : lt;
        if (lt < 0 && !final) {
          // A reference cut by the chunk's end waits for its `;`.
          const amp = s.lastIndexOf('&');
          if (amp >= i && n - amp < MAX_REFERENCE_CHARS && s.indexOf(';', amp) < 0) stop = amp;
        }
        if (stop > i) this.text(s, i, stop);
        i = stop;
        if (lt < 0) break;
        const next = this.markup(s, i, final);
        if (next < 0) break;
        i = next;
      } else if (this.state === 'cdata') {
        const end = s.indexOf(']]>', i);
        if (end < 0) {
          // Keep two characters back: they may be the start of `]]>`.
          const upto = final ? n : Math.max(i, n - 2);
          if (upto > i) this.cdata(s, i, upto);
          i = upto;
          break;
        }
        if (end > i) this.cdata(s, i, end);
        i = end + 3;
        this.state = 'text';
      } else if (this.state === 'comment' || this.state === 'pi') {
        const close = this.state === 'comment' ? '-->' : '?>';
        const end = s.indexOf(close, i);
        if (end < 0) {
          i = Math.max(i, n - close.length + 1);
          break;
        }
        i = end + close.length;
        this.state = 'text';
      } else {
        const end = this.doctypeEnd(s, i);
        if (end < 0) {
          i = n;
          break;
        }
        i = end + 1;
        this.state = 'text';
      }
    }
    this.consume(s, i);
  }

  /** Handles the markup at `s[i] === '<'`; returns where text goes on, or -1 to wait for more input. */
  private markup(s: string, i: number, final: boolean): number {
    const n = s.length;
    if (i + 1 >= n) return final ? this.fail(i, 'Unexpected end of file after <') : -1;
    const c = s.charCodeAt(i + 1);
    if (c === 47 /* / */) {
      const gt = s.indexOf('>', i + 2);
      if (gt < 0) return this.waitForTag(s, i, final);
      const m = CLOSE_NAME.exec(s.slice(i + 2, gt));
      if (!m) return this.fail(i, 'Invalid characters in closing tag');
      const name = m[1]!;
      const open = this.stack.pop();
      if (open === undefined) return this.fail(i, `Unexpected close tag </${name}>`);
      if (open !== name) return this.fail(i, `Unexpected close tag </${name}>, <${open}> is open`);
      this.events.close(name);
      return gt + 1;
    }
    if (c === 33 /* ! */) {
      if (s.startsWith('<!--', i)) {
        this.state = 'comment';
        return i + 4;
      }
      if (s.startsWith('<![CDATA[', i)) {
        if (this.stack.length === 0) return this.fail(i, 'CDATA outside of the root element');
        this.state = 'cdata';
        return i + 9;
      }
      if (s.startsWith('<!DOCTYPE', i)) {
        if (this.sawRoot) return this.fail(i, 'DOCTYPE after the root element');
        this.state = 'doctype';
        this.doctypeDepth = 0;
        this.doctypeQuote = 0;
        return i + 9;
      }
      if (n - i < 9 && !final) return -1;
      return this.fail(i, 'Invalid markup declaration');
    }
    if (c === 63 /* ? */) {
      this.state = 'pi';
      return i + 2;
    }
    START_TAG.lastIndex = i;
    const m = START_TAG.exec(s);
    if (!m) {
      // No whole tag yet: the input ends inside it (wait), or it is not a tag (fail).
      const end = tagEnd(s, i + 1);
      if (end < 0) return this.waitForTag(s, i, final);
      return this.fail(i, attributeProblem(s.slice(i, end + 1)));
    }
    const end = START_TAG.lastIndex;
    if (end - i > this.bounds.maxTagChars)
      return this.fail(i, `A start tag holds more than ${this.bounds.maxTagChars} characters of attributes`);
    const name = m[1]!;
    if (name.length > this.bounds.maxValueChars)
      return this.fail(i, `A name longer than ${this.bounds.maxValueChars} characters`);
    const attributes = this.attributes(m[2]!, i);
    // Another element after the root closed is accepted, as strict sax did (some tools concatenate files).
    if (this.stack.length >= this.bounds.maxDepth)
      return this.fail(i, `XML nested deeper than ${this.bounds.maxDepth} elements`);
    this.sawRoot = true;
    this.events.open(name, attributes);
    if (m[3] === '/') this.events.close(name);
    else this.stack.push(name);
    return end;
  }

  private attributes(raw: string, at: number): Record<string, string> {
    const out: Record<string, string> = {};
    if (raw.length === 0) return out;
    ATTRIBUTE.lastIndex = 0;
    for (let m = ATTRIBUTE.exec(raw); m; m = ATTRIBUTE.exec(raw)) {
      const value = m[2] ?? m[3] ?? '';
      if (value.length > this.bounds.maxValueChars)
        this.fail(at, `An attribute value longer than ${this.bounds.maxValueChars} characters`);
      out[m[1]!] = value.indexOf('&') >= 0 ? this.decode(value, at) : own(value);
    }
    return out;
  }

  /** The input ends inside a tag: wait for more, unless the tag is already longer than allowed. */
  private waitForTag(s: string, i: number, final: boolean): number {
    if (final) return this.fail(i, 'Unexpected end of file inside a tag');
    if (s.length - i > this.bounds.maxTagChars)
      return this.fail(i, `A start tag holds more than ${this.bounds.maxTagChars} characters of attributes`);
    return -1;
  }

  private text(s: string, from: number, to: number): void {
    const piece = s.slice(from, to);
    if (this.stack.length === 0) {
      if (!WHITESPACE_ONLY.test(piece))
        this.fail(from, this.sawRoot ? 'Text data outside of root node' : 'Non-whitespace before first tag');
      return;
    }
    this.events.text(piece.indexOf('&') >= 0 ? this.decode(piece, from) : piece);
  }

  private cdata(s: string, from: number, to: number): void {
    this.events.text(s.slice(from, to));
  }

  /**
   * Replaces references; a reference to a character XML forbids (`&#27;`, as Surefire writes ANSI
   * colours) becomes U+FFFD.
   */
  private decode(text: string, at: number): string {
    let out = '';
    let last = 0;
    for (let amp = text.indexOf('&'); amp >= 0; amp = text.indexOf('&', last)) {
      const semi = text.indexOf(';', amp + 1);
      if (semi < 0 || semi - amp > MAX_REFERENCE_CHARS)
        this.fail(at + amp, 'Invalid character entity: a & that starts no reference');
      out += text.slice(last, amp) + this.reference(text.slice(amp + 1, semi), at + amp);
      last = semi + 1;
    }
    return out + text.slice(last);
  }

  private reference(name: string, at: number): string {
    const named = NAMED[name];
    if (named !== undefined) return named;
    if (name.charCodeAt(0) === 35 /* # */) {
      const hex = name.charCodeAt(1) === 120; /* x */
      const digits = name.slice(hex ? 2 : 1);
      if (digits.length > 0 && (hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) {
        const code = parseInt(digits, hex ? 16 : 10);
        if (code <= 0x10ffff) return isXmlChar(code) ? String.fromCodePoint(code) : '\uFFFD';
      }
    }
    return this.fail(at, `Invalid character entity &${name};`);
  }

  /** Scans a DOCTYPE (with an internal subset and quoted strings, which may hold `>`); its end or -1. */
  private doctypeEnd(s: string, from: number): number {
    for (let i = from; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (this.doctypeQuote !== 0) {
        if (c === this.doctypeQuote) this.doctypeQuote = 0;
      } else if (c === 34 || c === 39) this.doctypeQuote = c;
      else if (c === 91 /* [ */) this.doctypeDepth++;
      else if (c === 93 /* ] */) this.doctypeDepth--;
      else if (c === 62 /* > */ && this.doctypeDepth <= 0) return i;
    }
    return -1;
  }

  /** Drops `s[0, i)`, keeping the line count for error positions. */
  private consume(s: string, i: number): void {
    if (i === 0) return;
    let lastNl = -1;
    for (let nl = s.indexOf('\n'); nl >= 0 && nl < i; nl = s.indexOf('\n', nl + 1)) {
      this.lines++;
      lastNl = nl;
    }
    this.column0 = lastNl >= 0 ? i - lastNl - 1 : this.column0 + i;
    this.buf = i >= s.length ? '' : s.slice(i);
  }

  private fail(at: number, reason: string): never {
    const s = this.buf;
    const upto = Math.min(at, s.length);
    let line = this.lines + 1;
    let lineStart = -1;
    for (let nl = s.indexOf('\n'); nl >= 0 && nl < upto; nl = s.indexOf('\n', nl + 1)) {
      line++;
      lineStart = nl;
    }
    const column = lineStart >= 0 ? upto - lineStart : this.column0 + upto + 1;
    throw new FormatError(`XML is not well-formed: ${reason}`, line, column);
  }
}

/** End of a tag from `from` (the `>` outside quotes), or -1 when the input ends first. */
function tagEnd(s: string, from: number): number {
  let quote = 0;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 62) return i;
    else if (c === 60 /* < */) return i - 1;
  }
  return -1;
}

/** Why a complete `<…>` is not a start tag, in the words XML users search for. */
function attributeProblem(tag: string): string {
  if (/^<\s/.test(tag) || tag.length < 3) return 'Unencoded <';
  if (/=\s*[^\s"']/.test(tag)) return 'Unquoted attribute value';
  if (/\s[^\s/>"'=]+\s*(?:\/?>|\s[^\s=])/.test(tag)) return 'Attribute without value';
  return 'Invalid start tag';
}

/**
 * A copy of an attribute value that does not keep the chunk it was cut from alive: V8 makes a
 * slice of 13 characters or more a view into its parent string, and formatters that hold values
 * for a while (definitions, open suites) would otherwise pin 256 KiB chunks one value at a time.
 */
function own(value: string): string {
  return value.length < 13 ? value : (' ' + value).slice(1);
}

function isXmlChar(c: number): boolean {
  return (
    c === 0x9 ||
    c === 0xa ||
    c === 0xd ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}
