/**
 * The harness the built-in formatters' tests (formatters/<key>/<key>.test.ts) share:
 *
 * - `formatterFixtures(formatter, import.meta.url)`: the formatter's fixtures folder, its
 *   MANIFEST.json, its sniff samples (samples.json beside the fixtures) and `run`, which parses
 *   bytes as Tally does (head, encoding, the bytes in chunks).
 * - `formatterChecks(fx, options)`: the tests every formatter passes the same way (fixture folder,
 *   manifest totals, producers, the vote on its fixtures and samples, chunk boundaries, empty and
 *   broken input), registered as subtests of the file; `jsonReportChecks` is the same with what
 *   the JSON report formats (ctrf, jest, mocha, mochawesome, playwright) share.
 * - `driveHandler` (with `feedXml`, `walkJson`) to drive a formatter's state machine without its
 *   stream shell.
 *
 * Other formats' samples and fixtures are voted on in test/formatter/registry.test.ts, which also
 * checks that every test file runs formatterChecks. Totals and the manifest come from the
 * conformance kit (lib/formatter/check.ts, what `tally formatter check` runs). Its `parseBytes` is
 * not the runner here: it decodes the whole file and cuts the text in characters, with
 * `smart: true`, a fixed text limit and no producer, while these tests cut the raw bytes (so
 * 1-byte chunks split multi-byte characters in the decoder), set the text limit and read the
 * producer.
 */
import t, { type Test } from 'tap';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FormatError,
  type Container,
  type Formatter,
  type Head,
  type JsonHandler,
  type HandlerContext,
  type JsonPath,
  type XmlHandler,
} from '../../lib/formatter/api.js';
import { fixturesIn, totalsOf } from '../../lib/formatter/check.js';
import { MATCH_THRESHOLD } from '../../lib/formatter/registry.js';
import { decodeText } from '../../lib/formatter/encoding.js';
import { HEAD_BYTES, readHead } from '../../lib/formatter/head.js';

/** One file of a fixtures folder's MANIFEST.json. */
export type ManifestEntry = ReturnType<typeof fixturesIn>['manifest'][number] & { sha256: string };

/** What one parse gave: the head Tally voted on, the containers in emit order, every producer set. */
export interface Parsed {
  head: Head;
  containers: Container[];
  producers: string[];
}

/** Parses `bytes` as a file named `fileName`, fed in chunks of `chunkSize` bytes, text cut at `maxTextChars`. */
export type Run = (bytes: Buffer, fileName: string, chunkSize?: number, maxTextChars?: number) => Promise<Parsed>;

/**
 * What a format's samples.json holds for the shared checks: heads its vote is tested with, the
 * input its parse must refuse (beside the empty file every formatter is given), and the producers
 * its fixtures set.
 */
export interface SampleFile {
  samples: SniffSample[];
  rejects?: {
    /** The name the input is parsed under, unless a case names its own. */
    file: string;
    /** The input as text, or the first half of a fixture (a report cut short). */
    cases: ({ name: string; file?: string } & ({ text: string } | { half: string }))[];
  };
  /** `[fixture, the producers it sets, in order]`. */
  producers?: [file: string, producers: string[]][];
}

/** A head a formatter's vote is tested with (formatters/<key>/samples.json). */
export interface SniffSample {
  name: string;
  /** The name the file has: the extension counts in some votes. */
  file: string;
  /** The format's own (its sniff scores it at least the match threshold), or a near miss (under it). */
  mine: boolean;
  /** The start of the file, voted on as a whole file. */
  text: string;
}

export interface FormatterFixtures {
  formatter: Formatter;
  /** The formatter's `fixtures` folder. */
  dir: string;
  /** The files MANIFEST.json lists, with their sha256 and expected totals. */
  manifest: ManifestEntry[];
  /** The heads of samples.json beside the fixtures folder. */
  samples: SniffSample[];
  /** All of samples.json. */
  checks: SampleFile;
  run: Run;
  /** The bytes of a fixture. */
  read(name: string): Buffer;
  /** The head Tally builds from a fixture's first bytes, to vote on. */
  head(name: string): Head;
}

/** The fixtures beside a test file (`moduleUrl` is its `import.meta.url`), and a runner for `formatter`. */
export function formatterFixtures(formatter: Formatter, moduleUrl: string): FormatterFixtures {
  const dir = path.join(path.dirname(fileURLToPath(moduleUrl)), 'fixtures');
  const read = (name: string): Buffer => readFileSync(path.join(dir, name));
  const checks = loadSampleFile(path.dirname(dir));
  return {
    formatter,
    dir,
    manifest: loadManifest(dir),
    samples: checks.samples,
    checks,
    run: runner(formatter),
    read,
    head: (name) => headOfBytes(read(name), name),
  };
}

/** MANIFEST.json of a fixtures folder; a folder without one is an error, not an empty list. */
export function loadManifest(dir: string): ManifestEntry[] {
  if (!existsSync(path.join(dir, 'MANIFEST.json'))) throw new Error(`no MANIFEST.json in ${dir}`);
  return fixturesIn(dir).manifest as ManifestEntry[];
}

/** A formatter folder's samples.json; a folder without one is an error, not an empty file. */
export function loadSampleFile(folder: string): SampleFile {
  const file = path.join(folder, 'samples.json');
  if (!existsSync(file)) throw new Error(`no samples.json in ${folder}`);
  return JSON.parse(readFileSync(file, 'utf8')) as SampleFile;
}

/** The sniff samples of a formatter folder. */
export function loadSamples(folder: string): SniffSample[] {
  return loadSampleFile(folder).samples;
}

async function* byteChunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Decodes and parses as Tally does: encoding from the head, the bytes in chunks of `chunkSize`. */
export function runner(formatter: Formatter): Run {
  return async (bytes, fileName, chunkSize = 65536, maxTextChars = 100_000) => {
    const { head, encoding } = readHead(bytes.subarray(0, HEAD_BYTES), fileName, bytes.length <= HEAD_BYTES);
    const containers: Container[] = [];
    const producers: string[] = [];
    let id = 0;
    await formatter.parse(
      decodeText(byteChunks(bytes, chunkSize), encoding),
      { emit: (c) => containers.push(c), ready: () => null },
      {
        fileName,
        nextId: () => ++id,
        limits: { maxTextChars },
        setProducer: (p) => producers.push(p),
        options: { smart: false },
      },
    );
    return { head, containers, producers };
  };
}

/** Parses a report given as text, as a file named `fileName` in one chunk; the containers it gave. */
export function textParser(
  fx: FormatterFixtures,
  fileName: string,
): (text: string, maxTextChars?: number) => Promise<Container[]> {
  return async (text, maxTextChars = 100_000) =>
    (await fx.run(Buffer.from(text), fileName, 65536, maxTextChars)).containers;
}

/** What `p` rejects with, or null when it resolves. */
export async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => null,
    (err: unknown) => err,
  );
}

/** The head of a whole file given as text (`complete`), for sniff tables. */
export function headOf(text: string, fileName = 'r.xml'): Head {
  return readHead(Buffer.from(text), fileName, true).head;
}

/** The head Tally builds from the first bytes of a file. */
export function headOfBytes(bytes: Buffer, fileName: string): Head {
  return readHead(bytes.subarray(0, HEAD_BYTES), fileName, bytes.length <= HEAD_BYTES).head;
}

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * The fixtures folder holds exactly the files of its manifest, byte-identical to their hash, each
 * named in its README.
 */
export function expectFixtureFolder(t: Test, fx: FormatterFixtures): void {
  const readme = readFileSync(path.join(fx.dir, 'README.md'), 'utf8');
  const onDisk = readdirSync(fx.dir)
    .filter((f) => f !== 'MANIFEST.json' && f !== 'README.md')
    .sort();
  t.same(onDisk, fx.manifest.map((f) => f.path).sort());
  for (const f of fx.manifest) {
    t.equal(sha256(fx.read(f.path)), f.sha256, f.path);
    t.ok(readme.includes(f.path), `README lists ${f.path}`);
  }
}

/**
 * Every fixture parses (in one chunk) to its manifest totals, or rejects with a FormatError where
 * the manifest expects a parse error; `more` adds the formatter's own checks of each parsed fixture.
 */
export async function expectManifestTotals(
  t: Test,
  fx: FormatterFixtures,
  more?: (parsed: Parsed, name: string) => void,
): Promise<void> {
  for (const f of fx.manifest) {
    const bytes = fx.read(f.path);
    if (f.parse_error_expected) {
      t.type(await failure(fx.run(bytes, f.path)), FormatError, `${f.path} rejects with FormatError`);
      continue;
    }
    const parsed = await fx.run(bytes, f.path);
    t.same(totalsOf(parsed.containers), f.expected, f.path);
    more?.(parsed, f.path);
  }
}

/** Every container's parent was emitted after it (children first), and ids are unique. */
function expectChildrenFirst(t: Test, containers: Container[], name: string): void {
  const seen = new Set<number>();
  const ids = new Set(containers.map((c) => c.id));
  t.equal(ids.size, containers.length, `${name}: ids are unique`);
  for (const c of containers) {
    if (c.parentId !== null)
      t.ok(ids.has(c.parentId) && !seen.has(c.parentId), `${name}: ${c.title} comes before its parent`);
    seen.add(c.id);
  }
}

/** Every container's parent is emitted after it, and every parent id is a container of the file. */
export function childrenFirst(containers: Container[]): boolean {
  const ids = new Set(containers.map((c) => c.id));
  const emitted = new Set<number>();
  for (const c of containers) {
    if (c.parentId !== null && (emitted.has(c.parentId) || !ids.has(c.parentId))) return false;
    emitted.add(c.id);
  }
  return true;
}

/** `eachFixture` of a format that names the producer once per file and emits children before parents. */
export function producerOnceChildrenFirst(t: Test, { containers, producers }: Parsed, name: string): void {
  t.ok(childrenFirst(containers), `${name}: children before parents`);
  t.equal(producers.length, 1, `${name}: producer set once`);
}

const sizeOf = (fx: FormatterFixtures, name: string): number => fx.read(name).length;

/** The largest fixture that parses (the first in manifest order of equal ones). */
/** The largest fixture that parses, or the largest of at most `maxBytes` (the smallest when none is that small). */
export function largestFixture(fx: FormatterFixtures, maxBytes = Infinity): ManifestEntry {
  const bySize = [...fx.manifest]
    .filter((f) => !f.parse_error_expected)
    .sort((a, b) => sizeOf(fx, b.path) - sizeOf(fx, a.path));
  return bySize.find((f) => sizeOf(fx, f.path) <= maxBytes) ?? bySize[bySize.length - 1]!;
}

/**
 * Byte-by-byte parsing costs about 30 µs a byte: on a 1.7 MB fixture that is most of a minute per
 * format. Every boundary inside every kind of token is met as well in a fixture of a few hundred KiB,
 * so the 1-byte run takes the largest fixture up to this size; the 7-byte run still takes the largest.
 */
const BYTE_BY_BYTE_MAX = 256 * 1024;

export interface ChunkCheck {
  /** The text limit of every run: a small one checks that cuts do not depend on chunk ends. Default 300. */
  maxTextChars?: number;
  /**
   * Compare the largest fixture's runs as JSON text instead of with tap's deep `same`: that is slow
   * on thousands of containers, and the JSON form (key order included) is what must not change.
   */
  asJson?: boolean;
  /** Then parse every fixture that parses in chunks of this many bytes too, against one chunk. */
  eachInChunksOf?: number;
  /** Compare those as JSON text too. */
  eachAsJson?: boolean;
}

/**
 * Chunk boundaries do not change the containers: the largest fixture in chunks of 1, 7 and 65536
 * bytes (its totals those of the manifest), and each fixture if `eachInChunksOf` says so.
 */
export async function expectChunkIndependence(t: Test, fx: FormatterFixtures, o: ChunkCheck = {}): Promise<void> {
  const maxTextChars = o.maxTextChars ?? 300;
  const same = (a: Container[], b: Container[], message: string, asJson = false): void => {
    if (asJson) t.equal(JSON.stringify(a), JSON.stringify(b), message);
    else t.same(a, b, message);
  };
  const largest = largestFixture(fx);
  const bytes = fx.read(largest.path);
  const [seven, big] = await Promise.all(
    [7, 65536].map(async (n) => (await fx.run(bytes, largest.path, n, maxTextChars)).containers),
  );
  t.same(totalsOf(big!), largest.expected, largest.path);
  same(seven!, big!, `${largest.path} in chunks of 7 bytes`, o.asJson);
  const smaller = largestFixture(fx, BYTE_BY_BYTE_MAX);
  const smallerBytes = fx.read(smaller.path);
  const [one, whole] = await Promise.all(
    [1, 65536].map(async (n) => (await fx.run(smallerBytes, smaller.path, n, maxTextChars)).containers),
  );
  same(one!, whole!, `${smaller.path} in chunks of 1 byte`, o.asJson);
  const n = o.eachInChunksOf;
  if (n === undefined) return;
  for (const f of fx.manifest.filter((x) => !x.parse_error_expected)) {
    const b = fx.read(f.path);
    const [small, whole] = [
      (await fx.run(b, f.path, n, maxTextChars)).containers,
      (await fx.run(b, f.path, 65536, maxTextChars)).containers,
    ];
    same(small, whole, `${f.path} in ${n}-byte chunks`, o.eachAsJson);
  }
}

/** The first half of a file: a report cut short (a killed run, an upload that stopped). */
export function half(bytes: Buffer): Buffer {
  return bytes.subarray(0, Math.floor(bytes.length / 2));
}

/** Each input, parsed as a file named `fileName`, rejects with a FormatError. */
export async function expectFormatErrors(
  t: Test,
  fx: FormatterFixtures,
  fileName: string,
  cases: RejectCase[],
): Promise<void> {
  for (const [name, input, file = fileName] of cases)
    t.type(await failure(fx.run(Buffer.isBuffer(input) ? input : Buffer.from(input), file)), FormatError, name);
}

/** Input that must be refused: a name, the bytes or text, and the file name when not the usual one. */
export type RejectCase = [name: string, input: Buffer | string, fileName?: string];

/** Truncated and foreign input to a JSON report format, cut from its smallest fixture over 200 bytes. */
function jsonReportRejects(fx: FormatterFixtures): RejectCase[] {
  const smallest = [...fx.manifest]
    .filter((f) => !f.parse_error_expected && sizeOf(fx, f.path) > 200)
    .sort((a, b) => sizeOf(fx, a.path) - sizeOf(fx, b.path))[0]!;
  const bytes = fx.read(smallest.path);
  return [
    ['whitespace only', Buffer.from(' \n\t')],
    ['truncated in the middle', bytes.subarray(0, Math.floor(bytes.length / 2))],
    ['truncated one byte short', Buffer.from(bytes.toString('utf8').trimEnd().slice(0, -1))],
    ['a JSON array', Buffer.from('[{"stats":{}}]')],
    ['a JSON string', Buffer.from('"tests"')],
    ['not JSON', Buffer.from('<testsuites/>')],
    ['another JSON object', Buffer.from('{"name":"x","version":"1.0.0"}')],
  ];
}

/** The container titled `title`; throws when there is none. */
export function byTitle(cs: Container[], title: string): Container {
  const c = cs.find((x) => x.title === title);
  if (!c) throw new Error(`no container ${title}`);
  return c;
}

/**
 * Drives a formatter's state machine without its stream shell: the handler gets ids from 1, the
 * text limit and a producer list, `feed` hands it its events, then `end()` is called.
 */
export function driveHandler<H extends { end(): void }>(
  make: (ctx: HandlerContext, emit: (c: Container) => void) => H,
  fileName: string,
  maxTextChars: number,
  feed: (h: H) => void,
): { out: Container[]; producers: string[] } {
  const out: Container[] = [];
  const producers: string[] = [];
  let id = 0;
  const h = make(
    { fileName, nextId: () => ++id, limits: { maxTextChars }, setProducer: (p) => producers.push(p) },
    (c) => out.push(c),
  );
  feed(h);
  h.end();
  return { out, producers };
}

/** An XML event as parseXml hands it to a handler. */
export type XmlEvent = ['open', string, Record<string, string>?] | ['text', string] | ['close', string];

/** Feeds XML events to a handler. */
export function feedXml(h: XmlHandler, events: XmlEvent[]): void {
  for (const e of events) {
    if (e[0] === 'open') h.open(e[1], e[2] ?? {});
    else if (e[0] === 'text') h.text(e[1]);
    else h.close(e[1]);
  }
}

/** Walks a value the way parseJson does: containers the handler takes whole arrive in one `value`. */
export function walkJson(h: JsonHandler, path: JsonPath, v: unknown): void {
  if (v === null || typeof v !== 'object') return void h.value?.(path, v);
  const kind = Array.isArray(v) ? 'array' : 'object';
  if (h.open?.(path, kind) === true) return void h.value?.(path, v);
  for (const [k, child] of Object.entries(v)) walkJson(h, [...path, Array.isArray(v) ? Number(k) : k], child);
  h.close?.(path, kind);
}

/** A head whose parts a sniff reads are all missing (a plugin's bug, a head of another version). */
function malformed(head: Head): Head {
  return { ...head, text: null, rootAttributes: null, childElements: null, topLevelKeys: null } as unknown as Head;
}

export interface FormatterCheckOptions {
  /** The least score of each fixture's head; the match threshold by default. */
  fixtureScore?: number;
  /** More checks of each fixture that parses, after its totals. */
  eachFixture?: (t: Test, parsed: Parsed, name: string) => void;
  chunks?: ChunkCheck;
  /**
   * Input that must reject with a FormatError besides that of samples.json (which the code builds:
   * a cut inside a construct, bytes), parsed under the name samples.json gives unless a case names one.
   */
  rejects?: RejectCase[];
}

/**
 * The tests every formatter passes the same way, as subtests of the test file: its fixture folder,
 * every fixture's manifest totals, the producers it sets, its vote (every fixture and own sample
 * yes, every near miss no, a malformed head 0), chunk boundaries, and empty, cut and foreign input.
 */
export function formatterChecks(fx: FormatterFixtures, o: FormatterCheckOptions = {}): void {
  const { formatter } = fx;
  t.test('fixture folder: every file listed, byte-identical to its manifest hash, and in the README', async (t) =>
    expectFixtureFolder(t, fx),
  );
  t.test('every fixture gives the manifest counts', async (t) =>
    expectManifestTotals(t, fx, o.eachFixture && ((parsed, name) => o.eachFixture!(t, parsed, name))),
  );
  const producers = fx.checks.producers;
  if (producers)
    t.test('producers', async (t) => {
      for (const [file, want] of producers) t.same((await fx.run(fx.read(file), file)).producers, want, file);
    });
  t.test('sniff: every fixture and its own samples vote yes, near misses no, a malformed head 0', async (t) => {
    const least = o.fixtureScore ?? MATCH_THRESHOLD;
    for (const f of fx.manifest) {
      const score = formatter.sniff(fx.head(f.path));
      t.ok(score >= least, `${f.path}: ${score}`);
    }
    for (const s of fx.samples) {
      const score = formatter.sniff(headOf(s.text, s.file));
      t.ok(s.mine ? score >= MATCH_THRESHOLD : score < MATCH_THRESHOLD, `${s.name}: ${score}`);
    }
    const own = fx.samples.find((x) => x.mine);
    if (own) t.equal(formatter.sniff(malformed(headOf(own.text, own.file))), 0, 'a malformed head scores 0, no throw');
  });
  t.test('chunk boundaries do not change the containers', async (t) => expectChunkIndependence(t, fx, o.chunks));
  t.test('empty, truncated and foreign input reject with FormatError', async (t) => {
    const listed = fx.checks.rejects?.cases ?? [];
    const cases: RejectCase[] = [
      ['empty', Buffer.alloc(0)],
      ...listed.map((c): RejectCase => [c.name, 'text' in c ? c.text : half(fx.read(c.half)), c.file]),
      ...(o.rejects ?? []),
    ];
    await expectFormatErrors(t, fx, fx.checks.rejects?.file ?? 'x.json', cases);
  });
}

/**
 * formatterChecks as the JSON report formatters (ctrf, jest, mocha, mochawesome, playwright) share
 * them: each fixture sets its producer once and emits children before parents, every fixture votes
 * 0.8 or more, chunk boundaries are compared as JSON text with a text limit of 300 (every fixture
 * also in 7-byte chunks), and the rejected input is cut from a fixture. `more` adds the format's own.
 */
export function jsonReportChecks(fx: FormatterFixtures, more: RejectCase[] = []): void {
  formatterChecks(fx, {
    fixtureScore: 0.8,
    eachFixture: (t, { containers, producers }, name) => {
      t.equal(producers.length, 1, `${name}: the producer is set once`);
      expectChildrenFirst(t, containers, name);
    },
    chunks: { asJson: true, eachInChunksOf: 7, eachAsJson: true },
    rejects: [...jsonReportRejects(fx), ...more],
  });
}
