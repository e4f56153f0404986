/**
 * Parse throughput of every built-in formatter on a generated file of about `--mb` MB of its own
 * format (written by its folder's generate.ts, see bench/formats.ts): MB/s, tests/s and the
 * process's peak RSS, as a Markdown table. Each input is first checked to be detected as its own
 * format by the same vote an import runs, and each parse must produce the number of tests the
 * generator wrote.
 *
 *   node --import tsx bench/formatters.ts [--mb 100] [--only key1,key2]
 *
 * Only the parse is timed: file read (256 KiB chunks) → decodeText → formatter.parse into a sink
 * that counts containers and never applies backpressure. No store, no HTTP.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { builtinFormatters } from '../formatters/index.js';
import { isCountedTest, type Formatter, type ParseContext } from '../lib/formatter/api.js';
import { createRegistry, vote } from '../lib/formatter/registry.js';
import { decodeText, guessEncoding } from '../lib/formatter/encoding.js';
import { HEAD_BYTES, readHead } from '../lib/formatter/head.js';
import { generatorOf } from './formats.js';

const MB = 1024 * 1024;
const SEED = 1;
/** Big enough for the JIT to settle on each parser's hot paths; small next to the timed file. */
const WARMUP_BYTES = 5 * MB;

const { values } = parseArgs({ options: { mb: { type: 'string', default: '100' }, only: { type: 'string' } } });
const targetMb = Number(values.mb);
if (!Number.isFinite(targetMb) || targetMb <= 0) throw new Error(`--mb must be a positive number, not ${values.mb}`);
const registry = createRegistry(builtinFormatters);
const only = values.only
  ? values.only
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
  : null;
const unknown = only?.filter((k) => !registry.get(k)) ?? [];
if (unknown.length > 0)
  throw new Error(
    `--only names no built-in formatter: ${unknown.join(', ')} (known: ${registry
      .all()
      .map((f) => f.key)
      .join(', ')})`,
  );
const selected = builtinFormatters.filter((f) => !only || only.includes(f.key));

async function peakRssMiB(): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function headOf(file: string, size: number): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(Math.min(HEAD_BYTES, size));
    await fh.read(buf, 0, buf.length, 0);
    return buf;
  } finally {
    await fh.close();
  }
}

/** What the import's vote makes of the file: null when it picks `f`, else why not. */
async function detection(f: Formatter, file: string, fileName: string, size: number): Promise<string | null> {
  const { head } = readHead(await headOf(file, size), fileName, size <= HEAD_BYTES);
  const v = vote(registry.all(), head);
  if (v.kind === 'match') return v.formatter.key === f.key ? null : `detected as ${v.formatter.key} (score ${v.score})`;
  if (v.kind === 'tie') return `tie between ${v.formatters.map((x) => x.key).join(', ')}`;
  return 'no formatter claims it';
}

interface Parsed {
  tests: number;
  containers: number;
  seconds: number;
}

async function parseFile(f: Formatter, file: string, fileName: string, size: number): Promise<Parsed> {
  const encoding = guessEncoding(await headOf(file, size));
  let tests = 0;
  let containers = 0;
  let seq = 0;
  const ctx: ParseContext = {
    fileName,
    nextId: () => ++seq,
    limits: { maxTextChars: 1024 * 1024 },
    setProducer: () => undefined,
    options: { smart: true },
  };
  const started = process.hrtime.bigint();
  const bytes = createReadStream(file, { highWaterMark: 256 * 1024 });
  await f.parse(
    decodeText(bytes, encoding),
    {
      emit: (c) => {
        containers++;
        if (isCountedTest(c)) tests++;
      },
      ready: () => null,
    },
    ctx,
  );
  return { tests, containers, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'tally-formatters-bench-'));
  const rows: string[] = [];
  let failed = false;
  try {
    for (const f of selected) {
      const gen = await generatorOf(f.key);
      if (!gen) {
        rows.push(`| ${f.key} | – | ✗ no generator in formatters/${f.key}/generate.ts | | | | |`);
        failed = true;
        continue;
      }
      const file = path.join(work, gen.fileName);
      const warm = path.join(work, `warmup-${gen.fileName}`);
      try {
        const warmTests = await gen.generate(warm, Math.min(WARMUP_BYTES, targetMb * MB), SEED + 1);
        const warmSize = (await stat(warm)).size;
        const warmRun = await parseFile(f, warm, gen.fileName, warmSize);
        await rm(warm, { force: true });
        if (warmRun.tests !== warmTests)
          process.stderr.write(
            `${f.key}: warm-up parse gave ${warmRun.tests} tests, the generator wrote ${warmTests}\n`,
          );

        const g0 = Date.now();
        const expected = await gen.generate(file, targetMb * MB, SEED);
        const size = (await stat(file)).size;
        process.stderr.write(
          `${f.key}: generated ${fmt(size / MB, 1)} MB (${fmt(expected)} tests) in ` +
            `${fmt((Date.now() - g0) / 1000, 1)} s; parsing …\n`,
        );
        const detected = await detection(f, file, gen.fileName, size);
        const run = await parseFile(f, file, gen.fileName, size);
        const rss = await peakRssMiB();
        const testsCell =
          run.tests === expected ? fmt(run.tests) : `✗ ${fmt(run.tests)} (generator wrote ${fmt(expected)})`;
        rows.push(
          `| ${f.key} | ${fmt(size / MB, 1)} | ${testsCell} | ${fmt(run.seconds, 2)} | ` +
            `${fmt(size / MB / run.seconds, 1)} | ${fmt(run.tests / run.seconds)} | ${fmt(rss)} |`,
        );
        if (detected !== null) rows.push(`| ⚠ ${f.key} | input not detected as ${f.key}: ${detected} | | | | | |`);
        process.stderr.write(
          `${f.key}: ${fmt(run.seconds, 2)} s, ${fmt(run.containers)} containers, peak RSS ${fmt(rss)} MiB\n`,
        );
      } catch (e) {
        failed = true;
        const message = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.replaceAll('|', '\\|');
        rows.push(`| ${f.key} | – | ✗ ${message} | | | | |`);
        process.stderr.write(`${f.key}: ${e instanceof Error ? e.stack : String(e)}\n`);
      } finally {
        await rm(file, { force: true });
        await rm(warm, { force: true });
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const cpus = os.cpus();
  const command = ['node --import tsx bench/formatters.ts', ...process.argv.slice(2)].join(' ');
  process.stdout.write(
    `\n## ${new Date().toISOString()} — formatter parse throughput\n\n` +
      `- Node ${process.version}, ${os.availableParallelism()} CPUs (${cpus[0]?.model ?? 'unknown model'}), ` +
      `${fmt(os.totalmem() / 1024 ** 3)} GiB\n` +
      `- Command: \`${command}\`\n` +
      '- Seconds: read (256 KiB chunks) + decode + parse only; the sink counts containers and never waits.\n' +
      '- MB are 2^20 bytes. Peak RSS is the process high-water mark (VmHWM) read after each formatter: cumulative, ' +
      'in table order.\n\n' +
      '| key | input MB | tests | seconds | MB/s | tests/s | peak RSS MiB |\n|---|---:|---:|---:|---:|---:|---:|\n' +
      `${rows.join('\n')}\n`,
  );
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
