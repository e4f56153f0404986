/**
 * JSON for formatters, streamed with stream-json's tokenizer: the handler sees where it is (a path
 * of keys and indices) and may take any object or array whole, so a formatter keeps one test at a
 * time, never the file. With `multiple`, the input is a sequence of JSON values (JSON Lines).
 */
import parser from 'stream-json/core/parser.js';
import { getManyValues, isMany, none } from 'stream-chain/defs.js';
import type { ContainerSink } from '../types.js';
import { FormatError } from './errors.js';

export type JsonPath = readonly (string | number)[];

export interface JsonHandler {
  /** An object or array starts at `path`. Return true to get it whole in `value` instead of its parts. */
  open?(path: JsonPath, kind: 'object' | 'array'): boolean | void;
  /** An object or array that was not taken whole ends. */
  close?(path: JsonPath, kind: 'object' | 'array'): void;
  /** A scalar, or a value taken whole. */
  value?(path: JsonPath, value: unknown): void;
}

interface Token {
  name: string;
  value?: unknown;
}

/** Depth past which input is refused: deeper nesting is an attack, not a report. */
const MAX_DEPTH = 512;
/**
 * Longest string or key kept, in characters of the source: longer ones are cut there, with a marker,
 * before the tokenizer sees them (it packs each string whole). Four times the default text cap per
 * container (TALLY_MAX_TEXT_CHARS), so nothing a formatter keeps is lost.
 */
export const MAX_JSON_STRING_CHARS = 4 * 1024 * 1024;
/** Longest number literal, in characters: longer is refused (a number is never cut: that would change it). */
export const MAX_JSON_NUMBER_CHARS = 64 * 1024;

export async function parseJson(
  input: AsyncIterable<string>,
  out: ContainerSink,
  handler: JsonHandler,
  options: { multiple?: boolean } = {},
): Promise<void> {
  const tokenizer = parser({
    packValues: true,
    streamValues: false,
    jsonStreaming: options.multiple ?? false,
  }) as unknown as (chunk: unknown) => unknown;
  const walker = new Walker(handler, options.multiple ?? false);
  // Security: the tokenizer packs every string and number into one token; the guard bounds what it can pack.
  const lengths = new JsonLengthGuard(MAX_JSON_STRING_CHARS, MAX_JSON_NUMBER_CHARS);
  const feed = async (chunk: unknown): Promise<void> => {
    let result: unknown;
    try {
      result = tokenizer(chunk);
      await drain(result, walker);
    } catch (e) {
      if (e instanceof FormatError) throw e;
      throw new FormatError(`JSON is not valid: ${(e as Error).message}`, null, null, { cause: e });
    }
  };
  let any = false;
  for await (const chunk of input) {
    if (chunk.length === 0) continue;
    any = true;
    await feed(lengths.push(chunk));
    const wait = out.ready();
    if (wait) await wait;
  }
  await feed(none);
  if (!any || walker.values === 0) throw new FormatError('The file holds no JSON value.');
  if (walker.depth !== 0) throw new FormatError('The JSON ends before its last value is closed.');
}

async function drain(result: unknown, walker: Walker): Promise<void> {
  if (result === none || result === undefined) return;
  if (isMany(result)) {
    for (const t of getManyValues(result) as Token[]) walker.token(t);
    return;
  }
  if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    for await (const item of result as AsyncIterable<unknown>) await drain(item, walker);
    return;
  }
  walker.token(result as Token);
}

type Frame = { kind: 'object' | 'array'; key: string | number | null; index: number };

class Walker {
  private readonly path: (string | number)[] = [];
  private readonly frames: Frame[] = [];
  /** The value being taken whole: a stack of partial objects/arrays. */
  private readonly building: (Record<string, unknown> | unknown[])[] = [];
  private buildKey: (string | null)[] = [];
  private buildBase = 0;
  values = 0;

  constructor(
    private readonly handler: JsonHandler,
    private readonly multiple: boolean,
  ) {}

  get depth(): number {
    return this.frames.length;
  }

  token(t: Token): void {
    switch (t.name) {
      case 'startObject':
      case 'startArray':
        return this.start(t.name === 'startObject' ? 'object' : 'array');
      case 'endObject':
      case 'endArray':
        return this.end();
      case 'keyValue':
        if (this.building.length > 0) this.buildKey[this.buildKey.length - 1] = own(t.value as string);
        else this.path[this.path.length - 1] = own(t.value as string);
        return;
      case 'stringValue':
        return this.scalar(own(t.value as string));
      case 'numberValue':
        return this.scalar(Number(t.value));
      case 'nullValue':
        return this.scalar(null);
      case 'trueValue':
        return this.scalar(true);
      case 'falseValue':
        return this.scalar(false);
      default:
        return;
    }
  }

  /** Path of the value about to start: the parent's current key or next index. */
  private slot(): void {
    const top = this.frames[this.frames.length - 1];
    if (!top) {
      if (this.multiple) {
        this.path.length = 0;
        this.path.push(this.values);
      }
      return;
    }
    if (top.kind === 'array') this.path[this.path.length - 1] = top.index++;
  }

  private start(kind: 'object' | 'array'): void {
    if (this.frames.length + this.building.length >= MAX_DEPTH)
      throw new FormatError(`JSON nested deeper than ${MAX_DEPTH} levels.`);
    if (this.building.length > 0) {
      const fresh = kind === 'object' ? {} : [];
      this.put(fresh);
      this.building.push(fresh);
      this.buildKey.push(null);
      return;
    }
    this.slot();
    const whole = this.handler.open?.(this.path, kind) === true;
    if (whole) {
      this.building.push(kind === 'object' ? {} : []);
      this.buildKey.push(null);
      this.buildBase = this.frames.length;
      return;
    }
    this.frames.push({ kind, key: null, index: 0 });
    this.path.push(kind === 'array' ? 0 : '');
  }

  private end(): void {
    if (this.building.length > 0) {
      const done = this.building.pop()!;
      this.buildKey.pop();
      if (this.building.length === 0) this.deliver(done);
      return;
    }
    const frame = this.frames.pop();
    this.path.pop();
    if (frame) this.handler.close?.(this.path, frame.kind);
    if (this.frames.length === 0) this.values++;
  }

  private scalar(v: unknown): void {
    if (this.building.length > 0) {
      this.put(v);
      return;
    }
    this.slot();
    this.handler.value?.(this.path, v);
    if (this.frames.length === 0) this.values++;
  }

  private put(v: unknown): void {
    const parent = this.building[this.building.length - 1]!;
    if (Array.isArray(parent)) parent.push(v);
    else {
      const key = this.buildKey[this.buildKey.length - 1];
      // Like JSON.parse: "__proto__" becomes an own property, the prototype is never touched.
      Object.defineProperty(parent, key ?? '', { value: v, enumerable: true, writable: true, configurable: true });
    }
  }

  private deliver(value: unknown): void {
    void this.buildBase;
    this.handler.value?.(this.path, value);
    if (this.frames.length === 0) this.values++;
  }
}

/**
 * A copy of a string that does not share memory with the tokenizer's input: stream-json hands out
 * slices of its whole input chunk, and one kept slice pins the chunk (measured: live heap twice the
 * input for formatters that keep a title per spec file). Short strings are copies already.
 */
function own(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Bounds the strings and numbers of JSON text as it streams, before the tokenizer: a string (or key)
 * longer than `maxString` source characters is cut there (never inside an escape or a surrogate
 * pair) and a marker is put before its closing quote; a number literal longer than `maxNumber` is a
 * FormatError. Everything else passes unchanged (the chunk itself when nothing was cut). It follows
 * only what it must (inside a string or not, escapes, number runs): the tokenizer still judges validity.
 */
export class JsonLengthGuard {
  private inString = false;
  /** 0: plain; -1: the character after a backslash; n > 0: hex digits of a \u escape still to come. */
  private escape = 0;
  /** Source characters of the current string so far. */
  private length = 0;
  /** The current string is being dropped from here to its closing quote. */
  private cutting = false;
  /** Characters of the number literal being read (0 outside one). */
  private number = 0;
  private readonly marker: string;

  constructor(
    private readonly maxString: number,
    private readonly maxNumber: number,
  ) {
    // JSON source for "\n[… truncated by Tally at N characters]".
    this.marker = `\\n[… truncated by Tally at ${maxString} characters]`;
  }

  push(text: string): string {
    const n = text.length;
    // A string being cut in an earlier chunk: this one is dropped up to its closing quote.
    let pieces: string[] | null = this.cutting ? [] : null;
    let keepFrom = this.cutting ? n : 0;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escape !== 0) {
          this.escape = this.escape === -1 ? (c === 0x75 ? 4 : 0) : this.escape - 1;
          if (!this.cutting) this.length++;
          continue;
        }
        if (c === QUOTE) {
          if (this.cutting) {
            (pieces ??= []).push(this.marker);
            keepFrom = i;
            this.cutting = false;
          }
          this.inString = false;
          continue;
        }
        if (c === BACKSLASH) this.escape = -1;
        if (this.cutting) continue;
        if (this.length >= this.maxString) {
          // Cut before this character; keep a surrogate pair whole by cutting before its first half.
          let at = i;
          if (c >= 0xdc00 && c <= 0xdfff && at > keepFrom && isHighSurrogate(text.charCodeAt(at - 1))) at--;
          (pieces ??= []).push(text.slice(keepFrom, at));
          keepFrom = n;
          this.cutting = true;
          continue;
        }
        this.length++;
        continue;
      }
      if (c === QUOTE) {
        this.inString = true;
        this.length = 0;
        this.number = 0;
        continue;
      }
      if (this.number > 0 ? isNumberChar(c) : c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        if (++this.number > this.maxNumber)
          throw new FormatError(`A JSON number is longer than ${this.maxNumber} characters.`);
      } else this.number = 0;
    }
    if (pieces === null) return text;
    if (keepFrom < n) pieces.push(text.slice(keepFrom));
    return pieces.join('');
  }
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}
