/**
 * The public formatter API: the one module a formatter may import.
 *
 * A formatter is a plain object (`satisfies Formatter`). Tally hands it the decoded text of one
 * result file as an async iterable of string chunks; the formatter emits containers to the sink as
 * it closes them and never builds the whole tree. Plumbing (decoding, backpressure, limits,
 * teardown) belongs to Tally, not to the formatter.
 */
import sax from 'sax';

export type ContainerType = 'suite' | 'test' | 'scenario' | 'step' | 'hook';
export type ContainerStatus = 'passed' | 'failed' | 'errored' | 'skipped' | 'pending' | 'unknown';

export interface FailureInfo {
  message: string | null;
  /** Exception class or failure kind as the file names it. */
  type: string | null;
  stack: string | null;
}

/** One attempt of a test that the format records as retried (Surefire `flaky*`/`rerun*`, ...). */
export interface Attempt {
  status: ContainerStatus;
  durationMs: number | null;
  failure: FailureInfo | null;
}

export interface Property {
  name: string;
  value: string;
}

export interface Container {
  /** From `ctx.nextId()`, taken when the container opens so children can point at it. */
  id: number;
  /** `null` for the top level of this file. */
  parentId: number | null;
  type: ContainerType;
  title: string;
  status: ContainerStatus;
  durationMs: number | null;
  /** ISO 8601 in UTC. */
  startedAt: string | null;
  /** True when the file gave a time without a zone: it was read as UTC, not shifted. */
  startedAtNaive?: boolean;
  failure: FailureInfo | null;
  output: { stdout: string | null; stderr: string | null } | null;
  properties: Property[];
  /** Paths the file refers to (`[[ATTACHMENT|path]]`, attachment properties, ...). */
  attachmentRefs: string[];
  flaky?: boolean;
  attempts?: Attempt[];
  /** Small facts worth keeping: classname, file, line, ... */
  meta?: Record<string, string>;
}

/** Counted as one test of the report's totals. Suites, steps and hooks are not. */
export function isCountedTest(c: Pick<Container, 'type'>): boolean {
  return c.type === 'test' || c.type === 'scenario';
}

export interface ContainerSink {
  emit(container: Container): void;
  /** Resolves when the sink can take more; Tally's helpers await it after each input chunk. */
  ready(): Promise<void> | null;
}

export interface ParseLimits {
  /** Longest stdout/stderr/failure text kept per container, in characters; the rest is cut with a marker. */
  maxTextChars: number;
}

export interface ParseContext {
  /** The file's name as uploaded (for zip entries: the entry path). */
  fileName: string;
  nextId(): number;
  limits: ParseLimits;
  /** Set once the producing tool is known (`surefire`, `pytest`, `jest-junit`, ...). */
  setProducer(name: string): void;
  /** Options of the import that a formatter may honour. */
  options: { smart: boolean };
}

/** What a formatter sees to vote: the first bytes of a file, decoded. */
export interface Head {
  fileName: string;
  /** Lower-case extension with its dot ('.xml'), or ''. */
  extension: string;
  /** Up to 64 KiB of the file as decoded text (BOM removed). */
  text: string;
  kind: 'xml' | 'json' | 'text' | 'binary';
  hasXmlDeclaration: boolean;
  /** Local name of the first element, for XML. */
  rootElement: string | null;
  rootAttributes: Record<string, string>;
  /** Names of the first child elements seen in the head, in order, for XML. */
  childElements: string[];
  /** Keys of the top-level object seen in the head, for JSON. */
  topLevelKeys: string[];
  /** True when the whole file fits in the head. */
  complete: boolean;
}

export interface Formatter {
  /** Path segment and stored name. */
  key: string;
  title: string;
  extensions: string[];
  /** Content types accepted for a raw-body import. */
  mediaTypes: string[];
  mergeContainersByDefault?: boolean;
  /** 0 = not mine ... 1 = certainly mine. Pure and cheap; never throws. */
  sniff(head: Head): number;
  parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void>;
}

/** The file cannot be read as its format claims; `line`/`column` point at the problem when known. */
export class FormatError extends Error {
  override name = 'FormatError';
  constructor(
    message: string,
    readonly line: number | null = null,
    readonly column: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

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

/** Keeps at most `limit` characters of a text that arrives in pieces, and says whether it cut. */
export class TextBuffer {
  private parts: string[] = [];
  private length = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  append(piece: string): void {
    if (this.length >= this.limit) {
      if (piece.length > 0) this.truncated = true;
      return;
    }
    const room = this.limit - this.length;
    const kept = piece.length > room ? piece.slice(0, room) : piece;
    if (kept.length < piece.length) this.truncated = true;
    this.parts.push(kept);
    this.length += kept.length;
  }

  /** The text kept, with a marker when it was cut. */
  value(): string {
    const text = this.parts.join('');
    return this.truncated ? `${text}\n[… truncated by Tally at ${this.limit} characters]` : text;
  }

  get empty(): boolean {
    return this.length === 0;
  }
}
