/**
 * What the formats' bench generators (formatters/<key>/generate.ts) share: deterministic (seeded)
 * large result files for bench/formatters.ts. Each generator writes a realistic file of about N
 * bytes in exactly the shape its formatter's sniff claims and its parser understands, and returns
 * how many counted tests (`isCountedTest`) the parse must produce.
 *
 * Every test is a pure function of (seed, index): headers that carry totals, sections that repeat
 * tests (Mocha), definitions written after results (TRX) and envelopes that refer back by id
 * (Cucumber Messages) regenerate what they need instead of keeping it, so nothing of the output is
 * held whole. Output is streamed in 64 KiB blocks with backpressure. Here: the output (`sized`),
 * the test model every format draws from (`caseAt`, `tally`), stack traces per ecosystem and XML
 * escaping.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { rng } from './random.js';

// ---------------------------------------------------------------------------------------------
// Output

/** Where a generator writes: the file, or a byte counter used to size the file beforehand. */
export interface Out {
  put(s: string): void | Promise<void>;
}

export const BLOCK_CHARS = 64 * 1024;

export class CountingOut implements Out {
  bytes = 0;
  put(s: string): void {
    this.bytes += Buffer.byteLength(s);
  }
}

export class StreamOut implements Out {
  private block = '';
  constructor(private readonly stream: Writable) {}

  put(s: string): void | Promise<void> {
    this.block += s;
    // Only a full block costs an await; most puts return synchronously.
    if (this.block.length >= BLOCK_CHARS) return this.flush();
  }

  async flush(): Promise<void> {
    const b = this.block;
    this.block = '';
    if (b.length > 0 && !this.stream.write(b)) await once(this.stream, 'drain');
  }
}

/** Writes `units` units of the format; returns the counted tests written. */
export type Writer = (out: Out, units: number, seed: number) => Promise<number>;

export interface FormatGenerator {
  /** A file name the format's own tools write, so extension- and name-based votes see the usual case. */
  fileName: string;
  /** Writes about `bytes` to `path`; resolves with the number of counted tests in the file. */
  generate(path: string, bytes: number, seed: number): Promise<number>;
}

/**
 * Files carry totals in their headers, so the number of units must be known before the first
 * byte. Size is linear in units (fixed header and footer, a per-unit cost with suite overhead
 * amortised), so two dry runs into a byte counter give the slope and the intercept.
 */
export const PROBE_SMALL = 1000;
export const PROBE_LARGE = 3000;

export function sized(fileName: string, write: Writer): FormatGenerator {
  return {
    fileName,
    async generate(path, bytes, seed) {
      const small = new CountingOut();
      await write(small, PROBE_SMALL, seed);
      const large = new CountingOut();
      await write(large, PROBE_LARGE, seed);
      const perUnit = (large.bytes - small.bytes) / (PROBE_LARGE - PROBE_SMALL);
      const fixed = small.bytes - PROBE_SMALL * perUnit;
      const units = Math.max(1, Math.round((bytes - fixed) / perUnit));
      const stream = createWriteStream(path);
      const out = new StreamOut(stream);
      const tests = await write(out, units, seed);
      await out.flush();
      stream.end();
      await once(stream, 'close');
      return tests;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The test model shared by all formats

export type Status = 'passed' | 'failed' | 'skipped';

export interface Outcome {
  status: Status;
  /** A failure by an unexpected exception rather than an assertion (errored where the format says so). */
  error: boolean;
}

export interface Case extends Outcome {
  i: number;
  suite: number;
  module: number;
  /** Index within its suite. */
  j: number;
  /** Human title: non-ASCII, quotes, `<`, `&`, backslashes; unique in the file thanks to `#i`. */
  title: string;
  /** An identifier (letters may be non-ASCII), unique in the file. */
  method: string;
  durationMs: number;
  startMs: number;
  expected: string;
  actual: string;
  /** The failure message, null unless failed. */
  message: string | null;
  frames: number;
  stdout: string | null;
  skipReason: string | null;
  line: number;
  /** The case's own generator, for format-specific extras after the shared draws. */
  r: () => number;
}

export const TESTS_PER_SUITE = 40;
export const SUITES_PER_MODULE = 10;
export const BASE_MS = Date.UTC(2026, 10, 1, 10, 0, 0);

export const MODULE_NAMES = [
  'billing',
  'checkout',
  'catalog',
  'identity',
  'search',
  'shipping',
  'reporting',
  'notifications',
];
export const VERBS = [
  'parses',
  'rejects',
  'handles',
  'überprüft',
  'returns',
  'retries',
  'streams',
  'caches',
  'validiert',
  'проверяет',
  'renders',
  'serialises',
];
export const OBJECTS = [
  'an empty basket',
  'the größe of a <div>',
  'ключ & значение',
  'エラー responses',
  '"quoted" values',
  "O'Brien's invoice",
  'a path C:\\temp\\out.log',
  'résumé uploads',
  '50% < 60% discounts',
  'a <b>bold</b> & <i>italic</i> label',
  'naïve café orders',
  'emoji ✓ output',
];
export const VALUES = [
  'größe & <b>fett</b>',
  'ключ "значение"',
  'エラー: 見つかりません',
  "O'Brien & Söhne",
  'C:\\builds\\app\\out.log',
  '{"id": 42, "tags": ["ü", "ß"]}',
  '50% < 60% > 40%',
  'naïve café ✓',
];
export const SKIP_REASONS = [
  'disabled on CI: needs <docker> & "network"',
  'flaky on Windows — see ticket #4711',
  'nicht unterstützt auf ARM64',
  'pending: payment provider sandbox down',
];

export function mix(seed: number, i: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(i, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

export const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;

/** The first two draws of a case: cheap enough to total a million tests for a header. */
export function outcomeFrom(r: () => number): Outcome {
  const roll = r();
  const err = r();
  const status: Status = roll < 0.06 ? 'failed' : roll < 0.1 ? 'skipped' : 'passed';
  return { status, error: status === 'failed' && err < 0.25 };
}

export function outcomeAt(seed: number, i: number): Outcome {
  return outcomeFrom(rng(mix(seed, i)));
}

export function caseAt(seed: number, i: number): Case {
  const r = rng(mix(seed, i));
  const { status, error } = outcomeFrom(r);
  const suite = Math.floor(i / TESTS_PER_SUITE);
  const verb = pick(r, VERBS);
  const object = pick(r, OBJECTS);
  const expected = pick(r, VALUES);
  const actual = pick(
    r,
    VALUES.filter((v) => v !== expected),
  );
  const durationMs = status === 'skipped' ? 0 : Math.round(r() ** 3 * 3_000_000) / 1000;
  const hasStdout = r() < 0.15;
  const stdout = hasStdout
    ? Array.from(
        { length: 1 + Math.floor(r() * 3) },
        (_, k) =>
          `[INFO] ${new Date(BASE_MS + i * 120 + k).toISOString()} GET /api/` +
          `items?q=${encodeURIComponent(object).slice(0, 12)}&lang=de → 200 in ${k + 3} ms (größe ✓)`,
      ).join('\n')
    : null;
  const message =
    status !== 'failed'
      ? null
      : error
        ? `connection to "db-${i % 7}.internal:5432" refused (errno=111) while loading ${expected}`
        : `expected: <${expected}> but was: <${actual}>`;
  return {
    i,
    suite,
    module: Math.floor(suite / SUITES_PER_MODULE),
    j: i % TESTS_PER_SUITE,
    status,
    error,
    title: `${verb} ${object} (#${i})`,
    method: `${camel(verb)}${camel(object)}${i}`,
    durationMs,
    startMs: BASE_MS + i * 120 + Math.floor(r() * 100),
    expected,
    actual,
    message,
    frames: 4 + Math.floor(r() * 9),
    stdout,
    skipReason: status === 'skipped' ? pick(r, SKIP_REASONS) : null,
    line: 10 + Math.floor(r() * 400),
    r,
  };
}

export function tally(
  seed: number,
  from: number,
  to: number,
): { total: number; passed: number; failed: number; skipped: number; errors: number } {
  const t = { total: 0, passed: 0, failed: 0, skipped: 0, errors: 0 };
  for (let i = from; i < to; i++) {
    const o = outcomeAt(seed, i);
    t.total++;
    t[o.status]++;
    if (o.error) t.errors++;
  }
  return t;
}

/** `parses "quoted" <x>` → `ParsesQuotedX`; letters stay as they are (Java and C# allow Unicode). */
export function camel(s: string): string {
  return s
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

export const moduleName = (m: number): string =>
  `${MODULE_NAMES[m % MODULE_NAMES.length]!}${m >= MODULE_NAMES.length ? Math.floor(m / MODULE_NAMES.length) : ''}`;
export const className = (c: Pick<Case, 'module' | 'suite'>): string =>
  `${camel(moduleName(c.module))}Service${c.suite}`;
export const iso = (ms: number): string => new Date(ms).toISOString();

/** A v4-shaped UUID from (seed, kind, index): ids that refer to each other can be recomputed. */
export function uuid(seed: number, kind: number, i: number): string {
  const h = (k: number): string =>
    mix(seed + kind * 7919 + k, i)
      .toString(16)
      .padStart(8, '0');
  const a = h(1);
  const b = h(2);
  const c = h(3);
  const d = h(4);
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${'89ab'[parseInt(c[0]!, 16) % 4]}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}

// ---------------------------------------------------------------------------------------------
// Stack traces per ecosystem

export function javaStack(c: Case, exception: string): string {
  const cls = `com.example.${moduleName(c.module)}.${className(c)}Test`;
  const lines = [`${exception}: ${c.message ?? ''}`, `\tat ${cls}.${c.method}(${className(c)}Test.java:${c.line})`];
  const framework = [
    'java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)',
    'java.base/java.lang.reflect.Method.invoke(Method.java:580)',
    'org.junit.platform.commons.util.ReflectionUtils.invokeMethod(ReflectionUtils.java:728)',
    'org.testng.internal.invokers.MethodInvocationHelper.invokeMethod(MethodInvocationHelper.java:139)',
    'org.testng.internal.invokers.TestInvoker.invokeMethod(TestInvoker.java:677)',
    'org.testng.TestRunner.privateRun(TestRunner.java:808)',
    'io.cucumber.java.Invoker.doInvoke(Invoker.java:66)',
    'java.base/java.util.ArrayList.forEach(ArrayList.java:1596)',
    'java.base/java.lang.Thread.run(Thread.java:1583)',
  ];
  for (let k = 0; k < c.frames; k++) lines.push(`\tat ${framework[k % framework.length]!}`);
  return lines.join('\n');
}

export function dotnetStack(c: Case): string {
  const ns = `Example.${camel(moduleName(c.module))}`;
  const lines = [
    `   at ${ns}.Tests.${className(c)}Tests.${c.method}() in /builds/app/${ns}.Tests/${className(c)}Tests.cs:line ` +
      `${c.line}`,
  ];
  const framework = [
    `   at ${ns}.${className(c)}.Load(String key) in /builds/app/${ns}/${className(c)}.cs:line ${c.line + 7}`,
    '   at System.RuntimeMethodHandle.InvokeMethod(Object target, Void** arguments, Signature sig, Boolean ' +
      'isConstructor)',
    '   at System.Reflection.MethodBaseInvoker.InvokeWithNoArgs(Object obj, BindingFlags invokeAttr)',
    '   at Xunit.Sdk.TestInvoker`1.<>c__DisplayClass48_0.<InvokeTestMethodAsync>b__1()',
    '   at NUnit.Framework.Internal.Commands.TestMethodCommand.Execute(TestExecutionContext context)',
    '   at System.Threading.Tasks.Task.InnerInvoke()',
  ];
  for (let k = 0; k < c.frames; k++) lines.push(framework[k % framework.length]!);
  return lines.join('\n');
}

export function jsStack(c: Case, name = 'AssertionError'): string {
  const lines = [
    `${c.error ? 'Error' : name}: ${c.message ?? ''}`,
    `    at Context.<anonymous> (test/${moduleName(c.module)}/service${c.suite}.test.js:${c.line}:${11 + (c.i % 30)})`,
  ];
  const framework = [
    'node_modules/mocha/lib/runnable.js:366:21',
    'node_modules/mocha/lib/runner.js:668:10',
    'node:internal/process/task_queues:95:5',
    'async Promise.all (index 0)',
    'node:internal/test_runner/test:631:25',
    'node_modules/jest-circus/build/utils.js:298:28',
  ];
  for (let k = 0; k < c.frames; k++) lines.push(`    at ${framework[k % framework.length]!}`);
  return lines.join('\n');
}

export function rubyBacktrace(c: Case): string[] {
  const lines = [
    `./spec/${moduleName(c.module)}/service_${c.suite}_spec.rb:${c.line}:in 'block (3 levels) in <top (required)>'`,
  ];
  const framework = [
    '/usr/local/bundle/gems/rspec-expectations-3.13.3/lib/rspec/expectations/fail_with.rb:35:in ' +
      "'RSpec::Expectations.fail_with'",
    "/usr/local/bundle/gems/rspec-core-3.13.2/lib/rspec/core/example.rb:263:in 'RSpec::Core::Example#run'",
    "./app/models/invoice.rb:88:in 'Invoice#total'",
    "/usr/local/bundle/gems/activerecord-7.2.1/lib/active_record/relation.rb:1040:in 'ActiveRecord::Relation#load'",
  ];
  for (let k = 0; k < c.frames; k++) lines.push(framework[k % framework.length]!);
  return lines;
}

// ---------------------------------------------------------------------------------------------
// XML helpers

export const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
export const attr = (s: string): string => s.replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]!);
export const text = (s: string): string => s.replace(/[&<>]/g, (ch) => XML_ESCAPES[ch]!);
/** CDATA cannot hold `]]>`: it is split across two sections, as serializers do. */
export const cdata = (s: string): string => `<![CDATA[${s.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
export const seconds = (ms: number, digits = 3): string => (ms / 1000).toFixed(digits);
/** .NET TimeSpan `hh:mm:ss.fffffff`. */
export function timeSpan(ms: number): string {
  const total = Math.round(ms * 10_000);
  const ticks = total % 10_000_000;
  const s = Math.floor(total / 10_000_000);
  return (
    `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:` +
    `${String(s % 60).padStart(2, '0')}.${String(ticks).padStart(7, '0')}`
  );
}

/** JSON of one value, indented as if it sat `depth` levels deep in a 2-space pretty-printed file. */
export function pretty(value: unknown, depth: number): string {
  return JSON.stringify(value, null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`);
}

/** Gherkin steps (keyword, text) the Cucumber generators cycle through. */
export const GHERKIN = [
  ['Given ', 'an empty basket for "Jürgen"'],
  ['And ', 'the catalogue lists <größe> & "ключ" items'],
  ['When ', 'I add 2 "äpfel" to the basket'],
  ['And ', 'I apply the voucher "50%-OFF"'],
  ['Then ', 'the total is 12,50 €'],
  ['And ', 'the receipt reads "Danke schön ✓"'],
] as const;

/** The counters Mocha's reporters (json, mochawesome) open their `stats` with, for `n` tests. */
export function mochaStats(n: number, all: ReturnType<typeof tally>): Record<string, number | string> {
  return {
    suites: Math.ceil(n / TESTS_PER_SUITE),
    tests: n,
    passes: all.passed,
    pending: all.skipped,
    failures: all.failed,
    start: iso(BASE_MS),
    end: iso(BASE_MS + n * 120),
    duration: n * 120,
  };
}
