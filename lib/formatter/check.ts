/**
 * The conformance kit for formatters (`tally formatter check PATH`, and the built-ins' own test):
 * the sniff table against every built-in fixture, its own fixtures (with their manifest counts),
 * empty and truncated input, and chunk-boundary independence.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isFormatError, isCountedTest, type Container, type Formatter, type ParseContext } from './api.js';
import { MATCH_THRESHOLD, createRegistry } from './registry.js';
import { decodeText } from './encoding.js';
import { HEAD_BYTES, readHead } from './head.js';

export interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface Fixture {
  /** The formatter key whose fixture it is. */
  key: string;
  path: string;
}

interface ManifestEntry {
  path: string;
  expected: Record<'tests' | 'passed' | 'failed' | 'errored' | 'skipped', number> | null;
  parse_error_expected?: boolean;
}

const NOT_FIXTURES = new Set(['MANIFEST.json', 'README.md', 'LICENSE', 'LICENSES.md']);

/** Files of a fixtures folder (recursively), with the manifest beside them if there is one. */
export function fixturesIn(dir: string): { files: string[]; manifest: ManifestEntry[] } {
  if (!existsSync(dir)) return { files: [], manifest: [] };
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else if (!NOT_FIXTURES.has(e.name)) files.push(path.join(d, e.name));
    }
  };
  walk(dir);
  const manifestPath = path.join(dir, 'MANIFEST.json');
  const manifest = existsSync(manifestPath)
    ? ((JSON.parse(readFileSync(manifestPath, 'utf8')) as { files: ManifestEntry[] }).files ?? [])
    : [];
  return { files: files.sort(), manifest };
}

/** Every built-in formatter's fixtures, from a checkout's formatters/ folder. */
export function builtinFixtures(formattersDir: string): Fixture[] {
  if (!existsSync(formattersDir)) return [];
  const out: Fixture[] = [];
  for (const d of readdirSync(formattersDir, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    for (const file of fixturesIn(path.join(formattersDir, d.name, 'fixtures')).files)
      out.push({ key: d.name, path: file });
  }
  return out;
}

export interface ParseOutcome {
  containers: Container[];
  error: unknown;
}

/** Parses bytes as Tally does (head, encoding, decoding) in text chunks of `chunkChars`. */
export async function parseBytes(
  f: Formatter,
  bytes: Buffer,
  fileName: string,
  chunkChars = 65_536,
): Promise<ParseOutcome> {
  const { encoding } = readHead(bytes.subarray(0, HEAD_BYTES), fileName, bytes.length <= HEAD_BYTES);
  const text: string[] = [];
  for await (const t of decodeText(
    (async function* () {
      yield bytes;
    })(),
    encoding,
  ))
    text.push(t);
  const whole = text.join('');
  async function* chunks(): AsyncGenerator<string> {
    for (let i = 0; i < whole.length; i += chunkChars) yield whole.slice(i, i + chunkChars);
  }
  const containers: Container[] = [];
  let seq = 0;
  const ctx: ParseContext = {
    fileName,
    nextId: () => ++seq,
    limits: { maxTextChars: 1024 * 1024 },
    setProducer: () => undefined,
    options: { smart: true },
  };
  try {
    await f.parse(chunks(), { emit: (c) => void containers.push(c), ready: () => null }, ctx);
    return { containers, error: null };
  } catch (error) {
    return { containers, error };
  }
}

export function totalsOf(
  containers: Container[],
): Record<'tests' | 'passed' | 'failed' | 'errored' | 'skipped', number> {
  const t = { tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0 };
  for (const c of containers) {
    if (!isCountedTest(c)) continue;
    t.tests++;
    if (c.status === 'passed' || c.status === 'failed' || c.status === 'errored') t[c.status]++;
    else t.skipped++;
  }
  return t;
}

function score(f: Formatter, file: string): number | Error {
  const bytes = readFileSync(file);
  const { head } = readHead(bytes.subarray(0, HEAD_BYTES), path.basename(file), bytes.length <= HEAD_BYTES);
  try {
    const s = f.sniff(head);
    return typeof s === 'number' && Number.isFinite(s) && s >= 0 && s <= 1
      ? s
      : new Error(`sniff returned ${String(s)}`);
  } catch (e) {
    return e as Error;
  }
}

export async function checkFormatter(f: Formatter, o: { ownFixtures: string; others: Fixture[] }): Promise<Check[]> {
  const checks: Check[] = [];
  const add = (name: string, ok: boolean, detail?: string): void =>
    void checks.push(detail === undefined ? { name, ok } : { name, ok, detail });
  try {
    createRegistry([f]);
    add('shape: key, title, extensions, mediaTypes, sniff, parse', true);
  } catch (e) {
    add('shape: key, title, extensions, mediaTypes, sniff, parse', false, (e as Error).message);
    return checks;
  }

  const own = fixturesIn(o.ownFixtures);
  add('has fixtures', own.files.length > 0, own.files.length === 0 ? `no files in ${o.ownFixtures}` : undefined);
  const manifest = new Map(own.manifest.map((m) => [path.basename(m.path), m]));
  let largest: string | null = null;
  for (const file of own.files) {
    const name = path.relative(o.ownFixtures, file);
    const entry = manifest.get(path.basename(file));
    const s = score(f, file);
    if (!entry?.parse_error_expected)
      add(
        `sniff claims its fixture ${name}`,
        typeof s === 'number' && s >= MATCH_THRESHOLD,
        s instanceof Error ? s.message : `score ${s}`,
      );
    const { containers, error } = await parseBytes(f, readFileSync(file), path.basename(file));
    if (entry?.parse_error_expected)
      add(`${name} is refused with a FormatError`, isFormatError(error), error ? String(error) : 'it parsed');
    else if (error) add(`${name} parses`, false, String(error));
    else if (entry?.expected)
      add(
        `${name} totals match MANIFEST.json`,
        JSON.stringify(totalsOf(containers)) === JSON.stringify(entry.expected),
        `got ${JSON.stringify(totalsOf(containers))}, manifest ${JSON.stringify(entry.expected)}`,
      );
    else add(`${name} parses`, true);
    if (!entry?.parse_error_expected && !error && (!largest || statSync(file).size > statSync(largest).size))
      largest = file;
  }

  const stolen: string[] = [];
  for (const other of o.others) {
    if (other.key === f.key) continue;
    const s = score(f, other.path);
    if (s instanceof Error) stolen.push(`${path.basename(other.path)}: sniff threw ${s.message}`);
    else if (s >= MATCH_THRESHOLD) stolen.push(`${other.key}/${path.basename(other.path)} (${s})`);
  }
  add(
    `sniff leaves the ${o.others.filter((x) => x.key !== f.key).length} fixtures of other formats alone`,
    stolen.length === 0,
    stolen.slice(0, 10).join('; ') || undefined,
  );

  const empty = await parseBytes(f, Buffer.alloc(0), 'empty');
  add(
    'empty input: a FormatError, nothing else',
    empty.error === null || isFormatError(empty.error),
    empty.error ? String(empty.error) : undefined,
  );

  if (largest) {
    const bytes = readFileSync(largest);
    const cut = await parseBytes(f, bytes.subarray(0, Math.floor(bytes.length / 2)), path.basename(largest));
    add(
      'truncated input: a FormatError, nothing else',
      cut.error === null || isFormatError(cut.error),
      cut.error ? String(cut.error) : undefined,
    );
    const runs = await Promise.all([1, 7, 65_536].map((n) => parseBytes(f, bytes, path.basename(largest!), n)));
    const shapes = runs.map((r) => JSON.stringify(r.containers));
    add(
      `chunk boundaries (1, 7, 65536) give the same containers for ${path.basename(largest)}`,
      shapes.every((s) => s === shapes[0]) && runs.every((r) => r.error === null),
    );
  }
  return checks;
}
