/**
 * Deterministic (seeded) generators of large result files, one per built-in formatter key, for
 * bench/formatters.ts. Each writes a realistic file of about N bytes in exactly the shape its
 * formatter's sniff claims and its parser understands, and returns how many counted tests
 * (`isCountedTest`) the parse must produce.
 *
 * Every test is a pure function of (seed, index): headers that carry totals, sections that repeat
 * tests (Mocha), definitions written after results (TRX) and envelopes that refer back by id
 * (Cucumber Messages) regenerate what they need instead of keeping it, so nothing of the output is
 * held whole. Output is streamed in 64 KiB blocks with backpressure.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { junitFile, rng } from './generate.js';

// ---------------------------------------------------------------------------------------------
// Output

/** Where a generator writes: the file, or a byte counter used to size the file beforehand. */
interface Out {
  put(s: string): void | Promise<void>;
}

const BLOCK_CHARS = 64 * 1024;

class CountingOut implements Out {
  bytes = 0;
  put(s: string): void {
    this.bytes += Buffer.byteLength(s);
  }
}

class StreamOut implements Out {
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
type Writer = (out: Out, units: number, seed: number) => Promise<number>;

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
const PROBE_SMALL = 1000;
const PROBE_LARGE = 3000;

function sized(fileName: string, write: Writer): FormatGenerator {
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

type Status = 'passed' | 'failed' | 'skipped';

interface Outcome {
  status: Status;
  /** A failure by an unexpected exception rather than an assertion (errored where the format says so). */
  error: boolean;
}

interface Case extends Outcome {
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

const TESTS_PER_SUITE = 40;
const SUITES_PER_MODULE = 10;
const BASE_MS = Date.UTC(2026, 10, 1, 10, 0, 0);

const MODULE_NAMES = ['billing', 'checkout', 'catalog', 'identity', 'search', 'shipping', 'reporting', 'notifications'];
const VERBS = [
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
const OBJECTS = [
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
const VALUES = [
  'größe & <b>fett</b>',
  'ключ "значение"',
  'エラー: 見つかりません',
  "O'Brien & Söhne",
  'C:\\builds\\app\\out.log',
  '{"id": 42, "tags": ["ü", "ß"]}',
  '50% < 60% > 40%',
  'naïve café ✓',
];
const SKIP_REASONS = [
  'disabled on CI: needs <docker> & "network"',
  'flaky on Windows — see ticket #4711',
  'nicht unterstützt auf ARM64',
  'pending: payment provider sandbox down',
];

function mix(seed: number, i: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(i, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;

/** The first two draws of a case: cheap enough to total a million tests for a header. */
function outcomeFrom(r: () => number): Outcome {
  const roll = r();
  const err = r();
  const status: Status = roll < 0.06 ? 'failed' : roll < 0.1 ? 'skipped' : 'passed';
  return { status, error: status === 'failed' && err < 0.25 };
}

function outcomeAt(seed: number, i: number): Outcome {
  return outcomeFrom(rng(mix(seed, i)));
}

function caseAt(seed: number, i: number): Case {
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
          `[INFO] ${new Date(BASE_MS + i * 120 + k).toISOString()} GET /api/items?q=${encodeURIComponent(object).slice(0, 12)}&lang=de → 200 in ${k + 3} ms (größe ✓)`,
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

function tally(
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
function camel(s: string): string {
  return s
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

const moduleName = (m: number): string =>
  `${MODULE_NAMES[m % MODULE_NAMES.length]!}${m >= MODULE_NAMES.length ? Math.floor(m / MODULE_NAMES.length) : ''}`;
const className = (c: Pick<Case, 'module' | 'suite'>): string => `${camel(moduleName(c.module))}Service${c.suite}`;
const iso = (ms: number): string => new Date(ms).toISOString();

/** A v4-shaped UUID from (seed, kind, index): ids that refer to each other can be recomputed. */
function uuid(seed: number, kind: number, i: number): string {
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

function javaStack(c: Case, exception: string): string {
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

function dotnetStack(c: Case): string {
  const ns = `Example.${camel(moduleName(c.module))}`;
  const lines = [
    `   at ${ns}.Tests.${className(c)}Tests.${c.method}() in /builds/app/${ns}.Tests/${className(c)}Tests.cs:line ${c.line}`,
  ];
  const framework = [
    `   at ${ns}.${className(c)}.Load(String key) in /builds/app/${ns}/${className(c)}.cs:line ${c.line + 7}`,
    '   at System.RuntimeMethodHandle.InvokeMethod(Object target, Void** arguments, Signature sig, Boolean isConstructor)',
    '   at System.Reflection.MethodBaseInvoker.InvokeWithNoArgs(Object obj, BindingFlags invokeAttr)',
    '   at Xunit.Sdk.TestInvoker`1.<>c__DisplayClass48_0.<InvokeTestMethodAsync>b__1()',
    '   at NUnit.Framework.Internal.Commands.TestMethodCommand.Execute(TestExecutionContext context)',
    '   at System.Threading.Tasks.Task.InnerInvoke()',
  ];
  for (let k = 0; k < c.frames; k++) lines.push(framework[k % framework.length]!);
  return lines.join('\n');
}

function jsStack(c: Case, name = 'AssertionError'): string {
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

function rubyBacktrace(c: Case): string[] {
  const lines = [
    `./spec/${moduleName(c.module)}/service_${c.suite}_spec.rb:${c.line}:in 'block (3 levels) in <top (required)>'`,
  ];
  const framework = [
    "/usr/local/bundle/gems/rspec-expectations-3.13.3/lib/rspec/expectations/fail_with.rb:35:in 'RSpec::Expectations.fail_with'",
    "/usr/local/bundle/gems/rspec-core-3.13.2/lib/rspec/core/example.rb:263:in 'RSpec::Core::Example#run'",
    "./app/models/invoice.rb:88:in 'Invoice#total'",
    "/usr/local/bundle/gems/activerecord-7.2.1/lib/active_record/relation.rb:1040:in 'ActiveRecord::Relation#load'",
  ];
  for (let k = 0; k < c.frames; k++) lines.push(framework[k % framework.length]!);
  return lines;
}

// ---------------------------------------------------------------------------------------------
// XML helpers

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const attr = (s: string): string => s.replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]!);
const text = (s: string): string => s.replace(/[&<>]/g, (ch) => XML_ESCAPES[ch]!);
/** CDATA cannot hold `]]>`: it is split across two sections, as serializers do. */
const cdata = (s: string): string => `<![CDATA[${s.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
const seconds = (ms: number, digits = 3): string => (ms / 1000).toFixed(digits);
/** .NET TimeSpan `hh:mm:ss.fffffff`. */
function timeSpan(ms: number): string {
  const total = Math.round(ms * 10_000);
  const ticks = total % 10_000_000;
  const s = Math.floor(total / 10_000_000);
  return `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.${String(ticks).padStart(7, '0')}`;
}

/** JSON of one value, indented as if it sat `depth` levels deep in a 2-space pretty-printed file. */
function pretty(value: unknown, depth: number): string {
  return JSON.stringify(value, null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`);
}

// ---------------------------------------------------------------------------------------------
// NUnit 3: test-run → Assembly → TestSuite → Namespace (module) → TestFixture (suite) → test-case

const nunit: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  const end = BASE_MS + n * 120;
  const counts = (t: ReturnType<typeof tally>): string =>
    `total="${t.total}" passed="${t.passed}" failed="${t.failed}" warnings="0" inconclusive="0" skipped="${t.skipped}" asserts="${t.passed + t.failed}"`;
  const result = (t: ReturnType<typeof tally>): string =>
    t.failed > 0 ? 'result="Failed" site="Child"' : t.passed > 0 ? 'result="Passed"' : 'result="Skipped"';
  const childFailure = '<failure><message><![CDATA[One or more child tests had errors]]></message></failure>';
  await out.put(
    `<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<test-run id="0" runstate="Runnable" testcasecount="${n}" ${result(all)} ${counts(all)} engine-version="3.16.3.0" clr-version="8.0.10" start-time="2026-11-01 10:00:00Z" end-time="${iso(end).replace('T', ' ').replace('.000', '')}" duration="${seconds(end - BASE_MS, 6)}">\n` +
      `  <command-line>${cdata('nunit3-console.exe Example.Tests.dll --where "cat != Slow && cat != Größe" --result=TestResult.xml')}</command-line>\n` +
      `  <test-suite type="Assembly" id="0-1" name="Example.Tests.dll" fullname="/builds/app/Example.Tests/bin/Release/net8.0/Example.Tests.dll" runstate="Runnable" testcasecount="${n}" ${result(all)} start-time="2026-11-01T10:00:00.0000000Z" end-time="${iso(end)}" duration="${seconds(end - BASE_MS, 6)}" ${counts(all)}>\n` +
      `    <environment framework-version="3.14.0.0" clr-version="8.0.10" os-version="Unix 6.8.0.1017" platform="Unix" cwd="/builds/app" machine-name="runner-7f9c" user="runner" user-domain="runner-7f9c" culture="de-DE" uiculture="de-DE" os-architecture="x64" />\n` +
      `    <settings><setting name="NumberOfTestWorkers" value="2" /><setting name="ImageTargetFrameworkName" value=".NETCoreApp,Version=v8.0" /></settings>\n` +
      `    <properties><property name="_PID" value="4752" /><property name="_APPDOMAIN" value="domain-Example.Tests.dll" /></properties>\n` +
      (all.failed > 0 ? `    ${childFailure}\n` : '') +
      `    <test-suite type="TestSuite" id="0-2" name="Example" fullname="Example" runstate="Runnable" testcasecount="${n}" ${result(all)} ${counts(all)}>\n`,
  );
  for (let m = 0; m * SUITES_PER_MODULE * TESTS_PER_SUITE < n; m++) {
    const from = m * SUITES_PER_MODULE * TESTS_PER_SUITE;
    const to = Math.min(n, from + SUITES_PER_MODULE * TESTS_PER_SUITE);
    const mt = tally(seed, from, to);
    const ns = `Example.${camel(moduleName(m))}`;
    await out.put(
      `      <test-suite type="Namespace" id="0-ns${m}" name="${camel(moduleName(m))}" fullname="${ns}" runstate="Runnable" testcasecount="${mt.total}" ${result(mt)} ${counts(mt)}>\n${mt.failed > 0 ? `        ${childFailure}\n` : ''}`,
    );
    for (let s = from / TESTS_PER_SUITE; s * TESTS_PER_SUITE < to; s++) {
      let body = '';
      const st = { total: 0, passed: 0, failed: 0, skipped: 0, errors: 0 };
      let fixture = '';
      for (let i = s * TESTS_PER_SUITE; i < Math.min(to, (s + 1) * TESTS_PER_SUITE); i++) {
        const c = caseAt(seed, i);
        fixture = `${ns}.${className(c)}Tests`;
        st.total++;
        st[c.status]++;
        const name = `${c.method}(${JSON.stringify(c.expected)})`;
        const res =
          c.status === 'passed'
            ? 'result="Passed"'
            : c.status === 'skipped'
              ? 'result="Skipped" label="Ignored"'
              : c.error
                ? 'result="Failed" label="Error"'
                : 'result="Failed"';
        body += `          <test-case id="0-${1000 + i}" name="${attr(name)}" fullname="${attr(`${fixture}.${name}`)}" methodname="${c.method}" classname="${fixture}" runstate="${c.status === 'skipped' ? 'Ignored' : 'Runnable'}" seed="${mix(seed, i) % 2_000_000_000}" ${res} start-time="${iso(c.startMs)}" end-time="${iso(c.startMs + c.durationMs)}" duration="${seconds(c.durationMs, 6)}" asserts="${c.status === 'skipped' ? 0 : 1}">\n`;
        body += `            <properties><property name="Description" value="${attr(c.title)}" />${c.status === 'skipped' ? `<property name="_SKIPREASON" value="${attr(c.skipReason!)}" />` : ''}<property name="Category" value="${c.i % 3 === 0 ? 'Slow' : 'Unit'}" /></properties>\n`;
        if (c.status === 'failed') {
          const message = c.error
            ? `System.InvalidOperationException : ${c.message!}`
            : `  Expected: ${JSON.stringify(c.expected)}\n  But was:  ${JSON.stringify(c.actual)}\n`;
          body += `            <failure>\n              <message>${cdata(message)}</message>\n              <stack-trace>${cdata(dotnetStack(c))}</stack-trace>\n            </failure>\n`;
          if (!c.error)
            body += `            <assertions><assertion result="Failed"><message>${cdata(message)}</message><stack-trace>${cdata(dotnetStack(c))}</stack-trace></assertion></assertions>\n`;
        }
        if (c.status === 'skipped') body += `            <reason><message>${cdata(c.skipReason!)}</message></reason>\n`;
        if (c.stdout) body += `            <output>${cdata(`${c.stdout}\n`)}</output>\n`;
        body += '          </test-case>\n';
      }
      await out.put(
        `        <test-suite type="TestFixture" id="0-fx${s}" name="${fixture.slice(ns.length + 1)}" fullname="${fixture}" classname="${fixture}" runstate="Runnable" testcasecount="${st.total}" ${result(st)} start-time="${iso(BASE_MS + s * TESTS_PER_SUITE * 120)}" duration="${seconds(st.total * 120, 6)}" ${counts(st)}>\n${st.failed > 0 ? `          ${childFailure}\n` : ''}${body}        </test-suite>\n`,
      );
    }
    await out.put('      </test-suite>\n');
  }
  await out.put('    </test-suite>\n  </test-suite>\n</test-run>\n');
  return n;
};

// ---------------------------------------------------------------------------------------------
// xUnit.net v2: assemblies → assembly (every 50 classes) → collection (suite) → test

const SUITES_PER_ASSEMBLY = 50;

const xunit: Writer = async (out, n, seed) => {
  await out.put('<?xml version="1.0" encoding="utf-8"?>\n<assemblies timestamp="11/01/2026 10:00:00">\n');
  const perAssembly = SUITES_PER_ASSEMBLY * TESTS_PER_SUITE;
  for (let a = 0; a * perAssembly < n; a++) {
    const from = a * perAssembly;
    const to = Math.min(n, from + perAssembly);
    const at = tally(seed, from, to);
    const name = `Example.${camel(moduleName(a * 5))}.Tests`;
    await out.put(
      `  <assembly name="/builds/app/${name}/bin/Release/net8.0/${name}.dll" run-date="2026-11-01" run-time="10:00:00" config-file="/builds/app/${name}/bin/Release/net8.0/${name}.dll.config" test-framework="xUnit.net 2.9.2.0" environment="64-bit .NET 8.0.10 [collection-per-class, parallel (2 threads)]" total="${at.total}" passed="${at.passed}" failed="${at.failed}" skipped="${at.skipped}" time="${seconds(at.total * 120)}" errors="0">\n    <errors />\n`,
    );
    for (let s = from / TESTS_PER_SUITE; s * TESTS_PER_SUITE < to; s++) {
      let body = '';
      const st = { passed: 0, failed: 0, skipped: 0 };
      let type = '';
      for (let i = s * TESTS_PER_SUITE; i < Math.min(to, (s + 1) * TESTS_PER_SUITE); i++) {
        const c = caseAt(seed, i);
        type = `Example.${camel(moduleName(c.module))}.Tests.${className(c)}Tests`;
        st[c.status]++;
        const result = c.status === 'passed' ? 'Pass' : c.status === 'failed' ? 'Fail' : 'Skip';
        body += `      <test name="${attr(`${type}.${c.method}(input: ${JSON.stringify(c.expected)})`)}" type="${type}" method="${c.method}" time="${seconds(c.durationMs, 7)}" result="${result}">\n`;
        body += `        <traits><trait name="Category" value="${c.i % 3 === 0 ? 'Integration' : 'Unit'}" /><trait name="Beschreibung" value="${attr(c.title)}" /></traits>\n`;
        if (c.stdout) body += `        <output>${cdata(`${c.stdout}\n`)}</output>\n`;
        if (c.status === 'failed') {
          const exceptionType = c.error ? 'System.InvalidOperationException' : 'Xunit.Sdk.EqualException';
          const message = c.error
            ? `System.InvalidOperationException : ${c.message!}`
            : `Assert.Equal() Failure: Strings differ\n           ↓ (pos 0)\nExpected: ${JSON.stringify(c.expected)}\nActual:   ${JSON.stringify(c.actual)}\n           ↑ (pos 0)`;
          body += `        <failure exception-type="${exceptionType}">\n          <message>${cdata(message)}</message>\n          <stack-trace>${cdata(dotnetStack(c))}</stack-trace>\n        </failure>\n`;
        }
        if (c.status === 'skipped') body += `        <reason>${cdata(c.skipReason!)}</reason>\n`;
        body += '      </test>\n';
      }
      const total = st.passed + st.failed + st.skipped;
      await out.put(
        `    <collection total="${total}" passed="${st.passed}" failed="${st.failed}" skipped="${st.skipped}" name="Test collection for ${type}" time="${seconds(total * 120)}">\n${body}    </collection>\n`,
      );
    }
    await out.put('  </assembly>\n');
  }
  await out.put('</assemblies>\n');
  return n;
};

// ---------------------------------------------------------------------------------------------
// TRX (VSTest): Results first, then TestDefinitions, TestEntries, TestLists, ResultSummary

const TRX_LIST = '8c84fa94-04c1-424b-9868-57a2d4851a1d';
const TRX_TYPE = '13cdc9d9-ddb5-4fa4-a97d-d965ccfc6d4b';

const trx: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  const testId = (i: number): string => uuid(seed, 1, i);
  const execId = (i: number): string => uuid(seed, 2, i);
  const dotnetName = (c: Case): string => `Example.${camel(moduleName(c.module))}.Tests.${className(c)}Tests`;
  const crlf = (s: string): string => text(s).replaceAll('\n', '&#xD;\n');
  const end = BASE_MS + n * 120;
  await out.put(
    `<?xml version="1.0" encoding="utf-8"?>\n<TestRun id="${uuid(seed, 0, 0)}" name="runner@BUILD-AGENT-7 2026-11-01 10:00:00" runUser="BUILD\\runner" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">\n` +
      `  <Times creation="2026-11-01T10:00:00.0000000+00:00" queuing="2026-11-01T10:00:00.0000000+00:00" start="2026-11-01T10:00:00.0000000+00:00" finish="${iso(end)}" />\n` +
      `  <TestSettings name="default" id="${uuid(seed, 0, 1)}">\n    <Deployment runDeploymentRoot="runner_BUILD-AGENT-7_2026-11-01_10_00_00" />\n  </TestSettings>\n  <Results>\n`,
  );
  for (let i = 0; i < n; i++) {
    const c = caseAt(seed, i);
    const outcome = c.status === 'passed' ? 'Passed' : c.status === 'skipped' ? 'NotExecuted' : 'Failed';
    let s = `    <UnitTestResult executionId="${execId(i)}" testId="${testId(i)}" testName="${attr(`${dotnetName(c)}.${c.method}(input: ${JSON.stringify(c.expected)})`)}" computerName="BUILD-AGENT-7" duration="${timeSpan(c.durationMs)}" startTime="${iso(c.startMs)}" endTime="${iso(c.startMs + c.durationMs)}" testType="${TRX_TYPE}" outcome="${outcome}" testListId="${TRX_LIST}" relativeResultsDirectory="${execId(i)}"`;
    if (c.status === 'passed' && !c.stdout) s += ' />\n';
    else {
      s += '>\n      <Output>\n';
      if (c.stdout) s += `        <StdOut>${crlf(c.stdout)}</StdOut>\n`;
      if (c.status === 'skipped') s += `        <StdOut>${crlf(c.skipReason!)}</StdOut>\n`;
      if (c.status === 'failed') {
        const message = c.error
          ? `System.InvalidOperationException : ${c.message!}`
          : `Assert.Equal() Failure\nExpected: ${JSON.stringify(c.expected)}\nActual:   ${JSON.stringify(c.actual)}`;
        s += `        <ErrorInfo>\n          <Message>${crlf(message)}</Message>\n          <StackTrace>${crlf(dotnetStack(c))}</StackTrace>\n        </ErrorInfo>\n`;
      }
      s += '      </Output>\n    </UnitTestResult>\n';
    }
    await out.put(s);
  }
  await out.put('  </Results>\n  <TestDefinitions>\n');
  for (let i = 0; i < n; i++) {
    const c = caseAt(seed, i);
    const storage = `/builds/app/example.${moduleName(c.module)}.tests/bin/release/net8.0/example.${moduleName(c.module)}.tests.dll`;
    await out.put(
      `    <UnitTest name="${attr(`${dotnetName(c)}.${c.method}(input: ${JSON.stringify(c.expected)})`)}" storage="${storage}" id="${testId(i)}">\n      <Execution id="${execId(i)}" />\n      <TestMethod codeBase="${storage}" adapterTypeName="executor://xunit/VsTestRunner2/netcoreapp" className="${dotnetName(c)}" name="${c.method}" />\n    </UnitTest>\n`,
    );
  }
  await out.put('  </TestDefinitions>\n  <TestEntries>\n');
  for (let i = 0; i < n; i++)
    await out.put(`    <TestEntry testId="${testId(i)}" executionId="${execId(i)}" testListId="${TRX_LIST}" />\n`);
  await out.put(
    `  </TestEntries>\n  <TestLists>\n    <TestList name="Results Not in a List" id="${TRX_LIST}" />\n    <TestList name="All Loaded Results" id="19431567-8539-422a-85d7-44ee4e166bda" />\n  </TestLists>\n` +
      `  <ResultSummary outcome="${all.failed > 0 ? 'Failed' : 'Completed'}">\n    <Counters total="${n}" executed="${n - all.skipped}" passed="${all.passed}" failed="${all.failed}" error="0" timeout="0" aborted="0" inconclusive="0" passedButRunAborted="0" notRunnable="0" notExecuted="${all.skipped}" disconnected="0" warning="0" completed="0" inProgress="0" pending="0" />\n` +
      `    <Output>\n      <StdOut>[xUnit.net 00:00:00.00] xUnit.net VSTest Adapter v2.8.2 (64-bit .NET 8.0.10)&#xD;\n[xUnit.net 00:00:00.27]   Discovering: Example.Tests (größe ✓)&#xD;\n</StdOut>\n    </Output>\n  </ResultSummary>\n</TestRun>\n`,
  );
  return n;
};

// ---------------------------------------------------------------------------------------------
// TestNG testng-results.xml: suite → test (module) → class (suite) → test-method

const testng: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  const instance = (s: number): string => `${(mix(seed, s) & 0xfffffff).toString(16)}`;
  await out.put(
    `<?xml version="1.0" encoding="UTF-8"?>\n<testng-results ignored="0" total="${n}" passed="${all.passed}" failed="${all.failed}" skipped="${all.skipped}">\n  <reporter-output>\n    <line>\n      ${cdata('Suite started on runner-7f9c (größe ✓)')}\n    </line>\n  </reporter-output>\n` +
      `  <suite started-at="2026-11-01T10:00:00 UTC" name="Example suite &amp; friends" finished-at="${iso(BASE_MS + n * 120).slice(0, 19)} UTC" duration-ms="${n * 120}">\n    <groups>\n` +
      `      <group name="unit">\n        <method signature="com.example.billing.BillingService0Test.setUp()" name="setUp" class="com.example.billing.BillingService0Test"/>\n      </group>\n    </groups>\n`,
  );
  for (let m = 0; m * SUITES_PER_MODULE * TESTS_PER_SUITE < n; m++) {
    const from = m * SUITES_PER_MODULE * TESTS_PER_SUITE;
    const to = Math.min(n, from + SUITES_PER_MODULE * TESTS_PER_SUITE);
    await out.put(
      `    <test started-at="${iso(BASE_MS + from * 120).slice(0, 19)} UTC" name="${moduleName(m)} tests" finished-at="${iso(BASE_MS + to * 120).slice(0, 19)} UTC" duration-ms="${(to - from) * 120}">\n`,
    );
    for (let s = from / TESTS_PER_SUITE; s * TESTS_PER_SUITE < to; s++) {
      const cls = `com.example.${moduleName(m)}.${camel(moduleName(m))}Service${s}Test`;
      const t0 = iso(BASE_MS + s * TESTS_PER_SUITE * 120).slice(0, 19);
      let body = `      <class name="${cls}">\n        <test-method is-config="true" signature="setUp()[pri:0, instance:${cls}@${instance(s)}]" started-at="${t0} UTC" name="setUp" finished-at="${t0} UTC" duration-ms="2" status="PASS">\n        </test-method>\n`;
      for (let i = s * TESTS_PER_SUITE; i < Math.min(to, (s + 1) * TESTS_PER_SUITE); i++) {
        const c = caseAt(seed, i);
        const status = c.status === 'passed' ? 'PASS' : c.status === 'failed' ? 'FAIL' : 'SKIP';
        const start = iso(c.startMs).slice(0, 19);
        const dataDriven = c.i % 4 === 0;
        body += `        <test-method signature="${c.method}(${dataDriven ? 'java.lang.String' : ''})[pri:0, instance:${cls}@${instance(s)}]" started-at="${start} UTC" name="${c.method}" description="${attr(c.title)}"${dataDriven ? ' data-provider="inputs"' : ''} finished-at="${start} UTC" duration-ms="${Math.round(c.durationMs)}" status="${status}">\n`;
        if (dataDriven)
          body += `          <params>\n            <param index="0">\n              <value>\n                ${cdata(c.expected)}\n              </value>\n            </param>\n          </params>\n`;
        if (c.status === 'failed') {
          const exception = c.error ? 'java.lang.IllegalStateException' : 'java.lang.AssertionError';
          body += `          <exception class="${exception}">\n            <message>\n              ${cdata(c.message!)}\n            </message>\n            <full-stacktrace>\n              ${cdata(javaStack(c, exception))}\n            </full-stacktrace>\n          </exception>\n`;
        }
        if (c.status === 'skipped')
          body += `          <exception class="org.testng.SkipException">\n            <message>\n              ${cdata(c.skipReason!)}\n            </message>\n          </exception>\n`;
        if (c.stdout)
          body += `          <reporter-output>\n${c.stdout
            .split('\n')
            .map((l) => `            <line>\n              ${cdata(l)}\n            </line>\n`)
            .join('')}          </reporter-output>\n`;
        body += '        </test-method>\n';
      }
      await out.put(`${body}      </class>\n`);
    }
    await out.put('    </test>\n');
  }
  await out.put('  </suite>\n</testng-results>\n');
  return n;
};

// ---------------------------------------------------------------------------------------------
// Robot Framework 7 output.xml: one top-level suite → module directories → .robot files → tests

const robot: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  const t = (ms: number): string => iso(ms).replace('Z', '000');
  const kw = (
    name: string,
    owner: string,
    args: string[],
    st: string,
    start: number,
    elapsed: number,
    msgs: { level: string; text: string }[],
    statusText = '',
  ): string =>
    `<kw name="${attr(name)}" owner="${owner}">\n${msgs.map((m) => `<msg time="${t(start)}" level="${m.level}">${text(m.text)}</msg>\n`).join('')}${args.map((a) => `<arg>${text(a)}</arg>\n`).join('')}<status status="${st}" start="${t(start)}" elapsed="${(elapsed / 1000).toFixed(6)}"${statusText ? `>${text(statusText)}</status>` : '/>'}\n</kw>\n`;
  await out.put(
    `<?xml version="1.0" encoding="UTF-8"?>\n<robot generator="Robot 7.1.1 (Python 3.12.3 on linux)" generated="${t(BASE_MS)}" rpa="false" schemaversion="5">\n<suite id="s1" name="Acceptance" source="/builds/app/tests">\n`,
  );
  for (let m = 0; m * SUITES_PER_MODULE * TESTS_PER_SUITE < n; m++) {
    const from = m * SUITES_PER_MODULE * TESTS_PER_SUITE;
    const to = Math.min(n, from + SUITES_PER_MODULE * TESTS_PER_SUITE);
    const mt = tally(seed, from, to);
    await out.put(
      `<suite id="s1-s${m + 1}" name="${camel(moduleName(m))}" source="/builds/app/tests/${moduleName(m)}">\n`,
    );
    for (let s = from / TESTS_PER_SUITE; s * TESTS_PER_SUITE < to; s++) {
      const sid = `s1-s${m + 1}-s${s - from / TESTS_PER_SUITE + 1}`;
      const s0 = BASE_MS + s * TESTS_PER_SUITE * 120;
      let body = `<suite id="${sid}" name="Service ${s} Größe" source="/builds/app/tests/${moduleName(m)}/service_${s}.robot">\n`;
      body += `<kw name="Connect To Database" owner="DatabaseLibrary" type="SETUP">\n<msg time="${t(s0)}" level="INFO">Connecting using : psycopg2.connect(database=shop_${s}, user=robot, host=db &amp; replica)</msg>\n<arg>psycopg2</arg>\n<arg>shop_${s}</arg>\n<status status="PASS" start="${t(s0)}" elapsed="0.012345"/>\n</kw>\n`;
      const st = { passed: 0, failed: 0, skipped: 0 };
      for (let i = s * TESTS_PER_SUITE; i < Math.min(to, (s + 1) * TESTS_PER_SUITE); i++) {
        const c = caseAt(seed, i);
        st[c.status]++;
        body += `<test id="${sid}-t${c.j + 1}" name="${attr(c.title)}" line="${c.line}">\n`;
        body += kw('Log', 'BuiltIn', [`Checking ${c.expected}`], 'PASS', c.startMs, 0.2, [
          { level: 'INFO', text: c.stdout ?? `Checking ${c.expected}` },
        ]);
        body += kw('Set Variable', 'BuiltIn', ['${response}', c.actual], 'PASS', c.startMs + 1, 0.1, [
          { level: 'INFO', text: `\${response} = ${c.actual}` },
        ]);
        if (c.status === 'failed') {
          const trace = `Traceback (most recent call last):\n  File "/builds/app/.venv/lib/python3.12/site-packages/robot/libraries/BuiltIn.py", line 693, in should_be_equal\n    self._should_be_equal(first, second, msg, values, formatter)\n  File "/builds/app/resources/${moduleName(c.module)}.py", line ${c.line}, in check_${c.suite}\n    raise AssertionError(msg)`;
          body += kw(
            'Should Be Equal',
            'BuiltIn',
            ['${response}', c.expected],
            'FAIL',
            c.startMs + 2,
            c.durationMs,
            [
              { level: 'FAIL', text: c.message! },
              { level: 'DEBUG', text: trace },
            ],
            c.message!,
          );
          body += kw('Capture Page Screenshot', 'SeleniumLibrary', [], 'NOT RUN', c.startMs + 3, 0, []);
          body += `<tag>regression</tag>\n<tag>${moduleName(c.module)}</tag>\n<status status="FAIL" start="${t(c.startMs)}" elapsed="${(c.durationMs / 1000).toFixed(6)}">${text(c.message!)}</status>\n</test>\n`;
        } else if (c.status === 'skipped') {
          body += kw(
            'Skip',
            'BuiltIn',
            [c.skipReason!],
            'SKIP',
            c.startMs + 2,
            0.1,
            [{ level: 'SKIP', text: c.skipReason! }],
            c.skipReason!,
          );
          body += `<tag>${moduleName(c.module)}</tag>\n<status status="SKIP" start="${t(c.startMs)}" elapsed="0.000400">${text(c.skipReason!)}</status>\n</test>\n`;
        } else {
          body += kw('Should Be Equal', 'BuiltIn', ['${response}', c.actual], 'PASS', c.startMs + 2, c.durationMs, []);
          body += `<tag>smoke</tag>\n<tag>${moduleName(c.module)}</tag>\n<status status="PASS" start="${t(c.startMs)}" elapsed="${(c.durationMs / 1000).toFixed(6)}"/>\n</test>\n`;
        }
      }
      body += `<status status="${st.failed > 0 ? 'FAIL' : 'PASS'}" start="${t(s0)}" elapsed="${((st.passed + st.failed + st.skipped) * 0.12).toFixed(6)}"/>\n</suite>\n`;
      await out.put(body);
    }
    await out.put(
      `<status status="${mt.failed > 0 ? 'FAIL' : 'PASS'}" start="${t(BASE_MS + from * 120)}" elapsed="${((to - from) * 0.12).toFixed(6)}"/>\n</suite>\n`,
    );
  }
  await out.put(
    `<status status="${all.failed > 0 ? 'FAIL' : 'PASS'}" start="${t(BASE_MS)}" elapsed="${(n * 0.12).toFixed(6)}"/>\n</suite>\n<statistics>\n<total>\n<stat pass="${all.passed}" fail="${all.failed}" skip="${all.skipped}">All Tests</stat>\n</total>\n<tag>\n</tag>\n<suite>\n</suite>\n</statistics>\n<errors>\n</errors>\n</robot>\n`,
  );
  return n;
};

// ---------------------------------------------------------------------------------------------
// Allure 2: ONE `*-result.json` whose `steps` array is made as long as the size asks. Allure writes
// one file per test, and concatenating result files is not a valid file, so "N MB of Allure" is one
// test with a very long step list: the file counts 1 test (every step is a non-counted container).

const allure: Writer = async (out, n, seed) => {
  const stepOf = (i: number, depth: number): Record<string, unknown> => {
    const c = caseAt(seed + depth * 101, i);
    const status = c.status === 'failed' ? (c.error ? 'broken' : 'failed') : c.status;
    const step: Record<string, unknown> = { name: `${c.title} — Schritt ${i}.${depth}`, status, stage: 'finished' };
    if (c.status === 'failed')
      step['statusDetails'] = {
        known: false,
        muted: false,
        flaky: false,
        message: c.message,
        trace: javaStack(c, c.error ? 'java.lang.IllegalStateException' : 'org.opentest4j.AssertionFailedError'),
      };
    if (c.i % 5 === 0) step['parameters'] = [{ name: 'input', value: c.expected }];
    if (c.stdout)
      step['attachments'] = [
        {
          name: 'response <body>',
          source: `${uuid(seed, 9, i * 4 + depth)}-attachment.json`,
          type: 'application/json',
        },
      ];
    if (depth === 0 && c.i % 3 === 0) step['steps'] = [stepOf(i, 1), stepOf(i, 2)];
    step['start'] = c.startMs;
    step['stop'] = Math.round(c.startMs + c.durationMs);
    return step;
  };
  const failed = tally(seed, 0, n).failed > 0;
  const head = {
    uuid: uuid(seed, 0, 0),
    historyId: uuid(seed, 0, 1).replaceAll('-', ''),
    testCaseId: uuid(seed, 0, 2).replaceAll('-', ''),
    fullName: 'com.example.checkout.LongJourneyTest.walksTheWholeShop',
    labels: [
      { name: 'host', value: 'runner-7f9c' },
      { name: 'thread', value: '4752@runner-7f9c.main(1)' },
      { name: 'framework', value: 'junit-platform' },
      { name: 'language', value: 'java' },
      { name: 'parentSuite', value: 'Acceptance' },
      { name: 'suite', value: 'Checkout — Größe & <Umfang>' },
      { name: 'testClass', value: 'com.example.checkout.LongJourneyTest' },
      { name: 'testMethod', value: 'walksTheWholeShop' },
    ],
    links: [{ name: 'SHOP-4711', url: 'https://issues.example.com/browse/SHOP-4711?x=1&y="2"', type: 'issue' }],
    name: 'walks the whole shop: ключ, エラー & "quotes"',
    status: failed ? 'failed' : 'passed',
    statusDetails: failed
      ? {
          known: false,
          muted: false,
          flaky: false,
          message: 'one or more steps failed',
          trace:
            'org.opentest4j.AssertionFailedError: one or more steps failed\n\tat com.example.checkout.LongJourneyTest.walksTheWholeShop(LongJourneyTest.java:42)',
        }
      : { known: false, muted: false, flaky: false },
    stage: 'finished',
    description: 'A journey through every page of the shop.\nZeile 2: ü ö ä ß',
    start: BASE_MS,
    stop: BASE_MS + n * 120,
  };
  // allure-java pretty-prints with Jackson; two-space JSON.stringify is the same shape.
  const opening = JSON.stringify(head, null, 2);
  await out.put(`${opening.slice(0, -2)},\n  "steps": [`);
  for (let i = 0; i < n; i++) await out.put(`${i === 0 ? '' : ','} ${pretty(stepOf(i, 0), 1)}`);
  await out.put(' ],\n  "attachments": [],\n  "parameters": []\n}\n');
  return 1;
};

// ---------------------------------------------------------------------------------------------
// Cucumber JSON (cucumber-jvm): an array of features (suites), each with scenarios; every third
// feature has a Background, written again before each of its scenarios as Cucumber does.

const GHERKIN = [
  ['Given ', 'an empty basket for "Jürgen"'],
  ['And ', 'the catalogue lists <größe> & "ключ" items'],
  ['When ', 'I add 2 "äpfel" to the basket'],
  ['And ', 'I apply the voucher "50%-OFF"'],
  ['Then ', 'the total is 12,50 €'],
  ['And ', 'the receipt reads "Danke schön ✓"'],
] as const;

const cucumber: Writer = async (out, n, seed) => {
  await out.put('[');
  for (let s = 0; s * TESTS_PER_SUITE < n; s++) {
    const module = Math.floor(s / SUITES_PER_MODULE);
    const uri = `classpath:features/${moduleName(module)}/service_${s}.feature`;
    const featureId = `service-${s}-größe`;
    const feature = {
      line: 1,
      elements: '@@ELEMENTS@@',
      name: `Service ${s}: Größe & "Umfang"`,
      description: '  As a shopper\n  I want <accurate> totals',
      id: featureId,
      keyword: 'Feature',
      uri,
      tags: [{ name: `@${moduleName(module)}`, type: 'Tag', location: { line: 1, column: 1 } }],
    };
    const [before, after] = pretty(feature, 1).split('"@@ELEMENTS@@"');
    await out.put(`${s === 0 ? '' : ','}\n  ${before!}[`);
    const background = s % 3 === 0;
    let first = true;
    for (let i = s * TESTS_PER_SUITE; i < Math.min(n, (s + 1) * TESTS_PER_SUITE); i++) {
      const c = caseAt(seed, i);
      const stepCount = 3 + (c.i % 4);
      const failAt = c.status === 'failed' ? 1 + Math.floor(c.r() * (stepCount - 1)) : -1;
      const step = (k: number, line: number): Record<string, unknown> => {
        const [keyword, name] = GHERKIN[k % GHERKIN.length]!;
        const st =
          c.status === 'skipped'
            ? 'skipped'
            : k < failAt || failAt < 0
              ? 'passed'
              : k === failAt
                ? 'failed'
                : 'skipped';
        const result: Record<string, unknown> = {
          duration: st === 'skipped' ? 0 : Math.round((c.durationMs / stepCount) * 1e6),
          status: st,
        };
        if (st === 'failed')
          result['error_message'] = javaStack(
            c,
            c.error ? 'java.lang.IllegalStateException' : 'org.opentest4j.AssertionFailedError',
          );
        const json: Record<string, unknown> = {
          result,
          line,
          name: `${name} (#${c.i})`,
          match: { location: `com.example.steps.${camel(moduleName(c.module))}Steps.step${k}(java.lang.String)` },
          keyword,
        };
        if (k === 0 && c.stdout) json['output'] = c.stdout.split('\n');
        return json;
      };
      const t0 = 3 + c.j * 10;
      if (background) {
        const bg = {
          line: 3,
          name: 'Angemeldet',
          description: '',
          type: 'background',
          keyword: 'Background',
          steps: [step(0, 4)],
        };
        await out.put(`${first ? '' : ','}\n      ${pretty(bg, 3)}`);
        first = false;
      }
      const scenario = {
        start_timestamp: iso(c.startMs),
        before: [
          {
            result: { duration: 1_234_567, status: 'passed' },
            match: { location: 'com.example.steps.Hooks.openBrowser()' },
          },
        ],
        line: t0,
        name: c.title,
        description: '',
        id: `${featureId};${c.method.toLowerCase()}`,
        after: [
          {
            result: { duration: 345_678, status: 'passed' },
            match: { location: 'com.example.steps.Hooks.closeBrowser(io.cucumber.java.Scenario)' },
          },
        ],
        type: 'scenario',
        keyword: 'Scenario',
        steps: Array.from({ length: stepCount }, (_, k) => step(k + (background ? 1 : 0), t0 + 1 + k)),
        tags: [{ name: `@${moduleName(c.module)}` }, ...(c.status === 'skipped' ? [{ name: '@wip' }] : [])],
      };
      await out.put(`${first ? '' : ','}\n      ${pretty(scenario, 3)}`);
      first = false;
    }
    await out.put(`\n    ]${after!}`);
  }
  await out.put('\n]\n');
  return n;
};

// ---------------------------------------------------------------------------------------------
// Cucumber Messages NDJSON, in cucumber-js order: meta; per feature its source, gherkinDocument
// and pickles; step definitions and hooks; testRunStarted; every testCase; then each test case's
// execution; testRunFinished. Ids are recomputed from (seed, kind, index), never remembered.

const cucumberMessages: Writer = async (out, n, seed) => {
  const line = (key: string, value: unknown): string => `${JSON.stringify({ [key]: value })}\n`;
  // Protobuf Timestamp/Duration: whole seconds plus nanos below one second.
  const stamp = (ms: number): { seconds: number; nanos: number } => ({
    seconds: Math.floor(ms / 1000),
    nanos: Math.floor((ms % 1000) * 1e6),
  });
  const dur = stamp;
  const stepsOf = (c: Case): number => 3 + (c.i % 4);
  // Id kinds: 10 scenario AST, 11 AST step, 12 pickle, 13 pickle step, 14 testCase, 15 test step, 16 testCaseStarted, 17 hook step.
  const id = (kind: number, i: number, k = 0): string => uuid(seed, kind, i * 8 + k);
  const stepText = (c: Case, k: number): [string, string] => {
    const [keyword, name] = GHERKIN[k % GHERKIN.length]!;
    return [keyword, `${name} (#${c.i})`];
  };
  const hookId = uuid(seed, 20, 0);
  const runId = uuid(seed, 21, 0);
  const defIds = GHERKIN.map((_, k) => uuid(seed, 22, k));
  await out.put(
    line('meta', {
      protocolVersion: '27.0.0',
      implementation: { version: '11.0.1', name: 'cucumber-js' },
      cpu: { name: 'x64' },
      os: { name: 'linux', version: '6.8.0' },
      runtime: { name: 'node.js', version: '22.11.0' },
    }),
  );
  for (let s = 0; s * TESTS_PER_SUITE < n; s++) {
    const uri = `features/${moduleName(Math.floor(s / SUITES_PER_MODULE))}/service_${s}.feature`;
    const from = s * TESTS_PER_SUITE;
    const to = Math.min(n, from + TESTS_PER_SUITE);
    const cases: Case[] = [];
    for (let i = from; i < to; i++) cases.push(caseAt(seed, i));
    let source = `@service${s}\nFeature: Service ${s} — Größe & "Umfang"\n  As a shopper I want <accurate> totals\n`;
    let lineNo = 4;
    const children: unknown[] = [];
    const lines = new Map<number, number>();
    for (const c of cases) {
      source += `\n  Scenario: ${c.title}\n`;
      lines.set(c.i, ++lineNo);
      const steps: unknown[] = [];
      for (let k = 0; k < stepsOf(c); k++) {
        const [keyword, t] = stepText(c, k);
        source += `    ${keyword}${t}\n`;
        steps.push({
          id: id(11, c.i, k),
          location: { line: ++lineNo, column: 5 },
          keyword,
          keywordType: k === 0 ? 'Context' : k < stepsOf(c) - 1 ? 'Action' : 'Outcome',
          text: t,
        });
      }
      lineNo++;
      children.push({
        scenario: {
          id: id(10, c.i),
          tags: [],
          location: { line: lines.get(c.i), column: 3 },
          keyword: 'Scenario',
          name: c.title,
          description: '',
          steps,
          examples: [],
        },
      });
    }
    await out.put(line('source', { data: source, uri, mediaType: 'text/x.cucumber.gherkin+plain' }));
    await out.put(
      line('gherkinDocument', {
        uri,
        feature: {
          tags: [{ location: { line: 1, column: 1 }, name: `@service${s}`, id: uuid(seed, 23, s) }],
          location: { line: 2, column: 1 },
          language: 'en',
          keyword: 'Feature',
          name: `Service ${s} — Größe & "Umfang"`,
          description: '  As a shopper I want <accurate> totals',
          children,
        },
        comments: [],
      }),
    );
    for (const c of cases) {
      const steps = Array.from({ length: stepsOf(c) }, (_, k) => ({
        id: id(13, c.i, k),
        text: stepText(c, k)[1],
        type: k === 0 ? 'Context' : 'Action',
        astNodeIds: [id(11, c.i, k)],
      }));
      await out.put(
        line('pickle', {
          id: id(12, c.i),
          uri,
          location: { line: lines.get(c.i), column: 3 },
          astNodeIds: [id(10, c.i)],
          tags: [{ name: `@service${s}`, astNodeId: uuid(seed, 23, s) }],
          name: c.title,
          language: 'en',
          steps,
        }),
      );
    }
  }
  for (let k = 0; k < GHERKIN.length; k++) {
    await out.put(
      line('stepDefinition', {
        id: defIds[k],
        pattern: { source: GHERKIN[k]![1].replace(/"[^"]*"/g, '{string}'), type: 'CUCUMBER_EXPRESSION' },
        sourceReference: { uri: 'features/step_definitions/steps.js', location: { line: 10 + k * 5 } },
      }),
    );
  }
  await out.put(
    line('hook', {
      id: hookId,
      type: 'BEFORE_TEST_CASE',
      sourceReference: { uri: 'features/support/hooks.js', location: { line: 7 } },
    }),
  );
  await out.put(line('testRunStarted', { id: runId, timestamp: stamp(BASE_MS) }));
  for (let i = 0; i < n; i++) {
    const c = caseAt(seed, i);
    const testSteps: unknown[] = [{ id: id(17, i), hookId }];
    for (let k = 0; k < stepsOf(c); k++)
      testSteps.push({
        id: id(15, i, k),
        pickleStepId: id(13, i, k),
        stepDefinitionIds: [defIds[k % defIds.length]],
        stepMatchArgumentsLists: [{ stepMatchArguments: [] }],
      });
    await out.put(line('testCase', { testRunStartedId: runId, pickleId: id(12, i), id: id(14, i), testSteps }));
  }
  for (let i = 0; i < n; i++) {
    const c = caseAt(seed, i);
    const started = id(16, i);
    const count = stepsOf(c);
    const failAt = c.status === 'failed' ? 1 + Math.floor(c.r() * (count - 1)) : -1;
    let t = c.startMs;
    let s = line('testCaseStarted', { attempt: 0, testCaseId: id(14, i), id: started, timestamp: stamp(t) });
    const stepRun = (stepId: string, result: Record<string, unknown>): void => {
      s += line('testStepStarted', { testCaseStartedId: started, testStepId: stepId, timestamp: stamp(t) });
      t += 1;
      s += line('testStepFinished', {
        testCaseStartedId: started,
        testStepId: stepId,
        testStepResult: result,
        timestamp: stamp(t),
      });
    };
    stepRun(id(17, i), { duration: dur(0.4), status: c.status === 'skipped' ? 'SKIPPED' : 'PASSED' });
    for (let k = 0; k < count; k++) {
      const status =
        c.status === 'skipped' ? 'SKIPPED' : failAt < 0 || k < failAt ? 'PASSED' : k === failAt ? 'FAILED' : 'SKIPPED';
      const result: Record<string, unknown> = {
        duration: dur(status === 'SKIPPED' ? 0 : c.durationMs / count),
        status,
      };
      if (status === 'FAILED') {
        const stack = jsStack(c);
        result['message'] = stack;
        result['exception'] = { type: c.error ? 'Error' : 'AssertionError', message: c.message, stackTrace: stack };
      }
      stepRun(id(15, i, k), result);
      if (k === 0 && c.stdout)
        s += line('attachment', {
          testCaseStartedId: started,
          testStepId: id(15, i, k),
          body: c.stdout,
          mediaType: 'text/x.cucumber.log+plain',
          contentEncoding: 'IDENTITY',
        });
    }
    s += line('testCaseFinished', { testCaseStartedId: started, timestamp: stamp(t), willBeRetried: false });
    await out.put(s);
  }
  await out.put(
    line('testRunFinished', {
      testRunStartedId: runId,
      timestamp: stamp(BASE_MS + n * 120),
      success: tally(seed, 0, n).failed === 0,
    }),
  );
  return n;
};

// ---------------------------------------------------------------------------------------------
// RSpec `--format json`: one line, examples in file order, summary after them

const rspec: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  await out.put(`{"version":"3.13.2","seed":${mix(seed, 0) % 65536},"examples":[`);
  for (let i = 0; i < n; i++) {
    const c = caseAt(seed, i);
    const file = `./spec/${moduleName(c.module)}/service_${c.suite}_spec.rb`;
    const e: Record<string, unknown> = {
      id: `${file}[1:${1 + Math.floor(c.j / 10)}:${1 + (c.j % 10)}]`,
      description: c.title,
      full_description: `${className(c)} when the basket is not empty ${c.title}`,
      status: c.status === 'skipped' ? 'pending' : c.status,
      file_path: file,
      line_number: c.line,
      run_time: c.durationMs / 1000,
      pending_message: c.skipReason,
    };
    if (c.status === 'failed') {
      e['exception'] = {
        class: c.error ? 'ActiveRecord::ConnectionNotEstablished' : 'RSpec::Expectations::ExpectationNotMetError',
        message: c.error
          ? c.message
          : `\nexpected: ${JSON.stringify(c.expected)}\n     got: ${JSON.stringify(c.actual)}\n\n(compared using ==)\n`,
        backtrace: rubyBacktrace(c),
      };
    }
    await out.put(`${i === 0 ? '' : ','}${JSON.stringify(e)}`);
  }
  await out.put(
    `],"summary":{"duration":${(n * 0.12).toFixed(6)},"example_count":${n},"failure_count":${all.failed},"pending_count":${all.skipped},"errors_outside_of_examples_count":0},"summary_line":"${n} examples, ${all.failed} failures, ${all.skipped} pending"}\n`,
  );
  return n;
};

// ---------------------------------------------------------------------------------------------
// Dart `--reporter json`: start; per test file a suite, its hidden loading test, its root group
// and one named group; each test's testStart, prints, errors and testDone; done.

const dart: Writer = async (out, n, seed) => {
  const files = Math.ceil(n / TESTS_PER_SUITE);
  const ev = (e: Record<string, unknown>): string => `${JSON.stringify(e)}\n`;
  // Ids are numbered per file from a fixed base so any test's id is known without a counter.
  const ID_STRIDE = TESTS_PER_SUITE + 8;
  await out.put(ev({ protocolVersion: '0.1.1', runnerVersion: '1.25.8', pid: 4752, type: 'start', time: 0 }));
  await out.put(ev({ count: files, type: 'allSuites', time: 3 }));
  for (let s = 0; s < files; s++) {
    const base = s * ID_STRIDE;
    const path = `test/${moduleName(Math.floor(s / SUITES_PER_MODULE))}/service_${s}_test.dart`;
    const url = `file:///builds/app/${path}`;
    let time = 10 + s * TESTS_PER_SUITE * 120;
    const group = `Service ${s} — Größe`;
    let block = ev({ suite: { id: base, platform: 'vm', path }, type: 'suite', time });
    block += ev({
      test: {
        id: base + 1,
        name: `loading ${path}`,
        suiteID: base,
        groupIDs: [],
        metadata: { skip: false, skipReason: null },
        line: null,
        column: null,
        url: null,
      },
      type: 'testStart',
      time,
    });
    block += ev({
      testID: base + 1,
      result: 'success',
      skipped: false,
      hidden: true,
      type: 'testDone',
      time: (time += 40),
    });
    const to = Math.min(n, (s + 1) * TESTS_PER_SUITE);
    block += ev({
      group: {
        id: base + 2,
        suiteID: base,
        parentID: null,
        name: null,
        metadata: { skip: false, skipReason: null },
        testCount: to - s * TESTS_PER_SUITE,
        line: null,
        column: null,
        url: null,
      },
      type: 'group',
      time,
    });
    block += ev({
      group: {
        id: base + 3,
        suiteID: base,
        parentID: base + 2,
        name: group,
        metadata: { skip: false, skipReason: null },
        testCount: to - s * TESTS_PER_SUITE,
        line: 8,
        column: 3,
        url,
      },
      type: 'group',
      time,
    });
    for (let i = s * TESTS_PER_SUITE; i < to; i++) {
      const c = caseAt(seed, i);
      const tid = base + 8 + c.j;
      block += ev({
        test: {
          id: tid,
          name: `${group} ${c.title}`,
          suiteID: base,
          groupIDs: [base + 2, base + 3],
          metadata: { skip: c.status === 'skipped', skipReason: c.skipReason },
          line: c.line,
          column: 5,
          url,
        },
        type: 'testStart',
        time,
      });
      if (c.stdout)
        for (const l of c.stdout.split('\n'))
          block += ev({ testID: tid, messageType: 'print', message: l, type: 'print', time: time + 1 });
      if (c.status === 'skipped')
        block += ev({
          testID: tid,
          messageType: 'skip',
          message: `Skip: ${c.skipReason!}`,
          type: 'print',
          time: time + 1,
        });
      if (c.status === 'failed') {
        const error = c.error
          ? `Exception: ${c.message!}`
          : `Expected: '${c.expected}'\n  Actual: '${c.actual}'\n   Which: is different.\n`;
        const stack = [
          `package:matcher                                   expect`,
          `test/${moduleName(c.module)}/service_${c.suite}_test.dart ${c.line}:7  main.<fn>.<fn>`,
          ...Array.from(
            { length: c.frames },
            (_, k) => `package:stack_trace                               Chain.capture.<fn> (frame ${k})`,
          ),
        ].join('\n');
        block += ev({
          testID: tid,
          error,
          stackTrace: `${stack}\n`,
          isFailure: !c.error,
          type: 'error',
          time: time + 2,
        });
      }
      time += Math.max(1, Math.round(c.durationMs));
      block += ev({
        testID: tid,
        result: c.status === 'failed' ? (c.error ? 'error' : 'failure') : 'success',
        skipped: c.status === 'skipped',
        hidden: false,
        type: 'testDone',
        time,
      });
    }
    await out.put(block);
  }
  await out.put(ev({ success: tally(seed, 0, n).failed === 0, type: 'done', time: 10 + n * 120 }));
  return n;
};

// ---------------------------------------------------------------------------------------------
// Mocha `--reporter json`: stats, then tests, pending, failures, passes — the same entries, each
// section a filter over the test indexes (pretty-printed with two spaces, as the reporter does).

const mocha: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  const entry = (c: Case): Record<string, unknown> => {
    const file = `/builds/app/test/${moduleName(c.module)}/service${c.suite}.test.js`;
    const e: Record<string, unknown> = { title: c.title, fullTitle: `${className(c)} when logged in ${c.title}`, file };
    if (c.status !== 'skipped') e['duration'] = Math.round(c.durationMs);
    e['currentRetry'] = 0;
    if (c.status === 'passed') e['speed'] = c.durationMs > 75 ? 'slow' : 'fast';
    e['err'] =
      c.status !== 'failed'
        ? {}
        : c.error
          ? { stack: jsStack(c, 'Error'), message: c.message }
          : {
              stack: jsStack(c),
              message: `Expected values to be strictly equal:\n\n'${c.actual}' !== '${c.expected}'\n`,
              generatedMessage: true,
              name: 'AssertionError',
              code: 'ERR_ASSERTION',
              actual: c.actual,
              expected: c.expected,
              operator: 'strictEqual',
            };
    return e;
  };
  const stats = {
    suites: Math.ceil(n / TESTS_PER_SUITE),
    tests: n,
    passes: all.passed,
    pending: all.skipped,
    failures: all.failed,
    start: iso(BASE_MS),
    end: iso(BASE_MS + n * 120),
    duration: n * 120,
  };
  await out.put(`{\n  "stats": ${pretty(stats, 1)}`);
  const section = async (name: string, keep: (o: Outcome) => boolean): Promise<void> => {
    await out.put(`,\n  "${name}": [`);
    let first = true;
    for (let i = 0; i < n; i++) {
      if (!keep(outcomeAt(seed, i))) continue;
      await out.put(`${first ? '' : ','}\n    ${pretty(entry(caseAt(seed, i)), 2)}`);
      first = false;
    }
    await out.put(first ? ']' : '\n  ]');
  };
  await section('tests', () => true);
  await section('pending', (o) => o.status === 'skipped');
  await section('failures', (o) => o.status === 'failed');
  await section('passes', (o) => o.status === 'passed');
  await out.put('\n}\n');
  return n;
};

// ---------------------------------------------------------------------------------------------
// mochawesome: stats; results[] = one spec file each (a module), its root suite holding describe
// suites of 40 tests; meta. Pretty-printed with two spaces, as mochawesome writes it.

const mochawesome: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  const stats = {
    suites: Math.ceil(n / TESTS_PER_SUITE),
    tests: n,
    passes: all.passed,
    pending: all.skipped,
    failures: all.failed,
    start: iso(BASE_MS),
    end: iso(BASE_MS + n * 120),
    duration: n * 120,
    testsRegistered: n,
    passPercent: Math.round((all.passed / n) * 10000) / 100,
    pendingPercent: Math.round((all.skipped / n) * 10000) / 100,
    other: 0,
    hasOther: false,
    skipped: 0,
    hasSkipped: false,
  };
  await out.put(`{\n  "stats": ${pretty(stats, 1)},\n  "results": [`);
  for (let m = 0; m * SUITES_PER_MODULE * TESTS_PER_SUITE < n; m++) {
    const from = m * SUITES_PER_MODULE * TESTS_PER_SUITE;
    const to = Math.min(n, from + SUITES_PER_MODULE * TESTS_PER_SUITE);
    const file = `cypress/e2e/${moduleName(m)}.cy.js`;
    const rootUuid = uuid(seed, 30, m);
    const root = {
      uuid: rootUuid,
      title: '',
      fullFile: `/builds/app/${file}`,
      file,
      beforeHooks: [],
      afterHooks: [],
      tests: [],
      suites: '@@SUITES@@',
      passes: [],
      failures: [],
      pending: [],
      skipped: [],
      duration: 0,
      root: true,
      rootEmpty: true,
      _timeout: 2000,
    };
    const [rootBefore, rootAfter] = pretty(root, 2).split('"@@SUITES@@"');
    await out.put(`${m === 0 ? '' : ','}\n    ${rootBefore!}[`);
    for (let s = from / TESTS_PER_SUITE; s * TESTS_PER_SUITE < to; s++) {
      const suiteUuid = uuid(seed, 31, s);
      const title = `Service ${s} — Größe & "Umfang"`;
      const ids: Record<Status, string[]> = { passed: [], failed: [], skipped: [] };
      const tests: Record<string, unknown>[] = [];
      for (let i = s * TESTS_PER_SUITE; i < Math.min(to, (s + 1) * TESTS_PER_SUITE); i++) {
        const c = caseAt(seed, i);
        const id = uuid(seed, 32, i);
        ids[c.status].push(id);
        tests.push({
          title: c.title,
          fullTitle: `${title} ${c.title}`,
          timedOut: false,
          duration: c.status === 'skipped' ? 0 : Math.round(c.durationMs),
          state: c.status === 'skipped' ? null : c.status,
          speed: c.status === 'passed' ? (c.durationMs > 75 ? 'slow' : 'fast') : null,
          pass: c.status === 'passed',
          fail: c.status === 'failed',
          pending: c.status === 'skipped',
          context:
            c.status === 'failed'
              ? JSON.stringify(`screenshots/${moduleName(c.module)}.cy.js/${title} -- ${c.title} (failed).png`)
              : c.stdout
                ? JSON.stringify({ title: 'console', value: c.stdout })
                : null,
          code: `cy.visit('/basket?lang=de&size=${c.i}')\ncy.get('[data-test="total"]').should('have.text', ${JSON.stringify(c.expected)})`,
          err:
            c.status === 'failed'
              ? {
                  message: `AssertionError: ${c.message!}`,
                  estack: jsStack(c),
                  diff: `- ${c.actual}\n+ ${c.expected}\n`,
                }
              : {},
          uuid: id,
          parentUUID: suiteUuid,
          isHook: false,
          skipped: false,
        });
      }
      const suite = {
        uuid: suiteUuid,
        title,
        fullFile: '',
        file: '',
        beforeHooks: [
          {
            title: '"before each" hook',
            fullTitle: `${title} "before each" hook`,
            timedOut: false,
            duration: 3,
            state: null,
            speed: null,
            pass: false,
            fail: false,
            pending: false,
            context: null,
            code: "cy.login('jürgen', 'geheim')",
            err: {},
            uuid: uuid(seed, 33, s),
            parentUUID: suiteUuid,
            isHook: true,
            skipped: false,
          },
        ],
        afterHooks: [],
        tests,
        suites: [],
        passes: ids.passed,
        failures: ids.failed,
        pending: ids.skipped,
        skipped: [],
        duration: tests.length * 120,
        root: false,
        rootEmpty: false,
        _timeout: 2000,
      };
      await out.put(`${s === from / TESTS_PER_SUITE ? '' : ','}\n        ${pretty(suite, 4)}`);
    }
    await out.put(`\n      ]${rootAfter!}`);
  }
  const meta = {
    mocha: { version: '10.7.3' },
    mochawesome: {
      options: {
        quiet: false,
        reportFilename: 'mochawesome',
        saveHtml: true,
        saveJson: true,
        consoleReporter: 'spec',
        useInlineDiffs: false,
        code: true,
      },
      version: '7.1.3',
    },
    marge: { options: { reportDir: 'cypress/results', overwrite: false, html: false, json: true }, version: '6.2.0' },
  };
  await out.put(`\n  ],\n  "meta": ${pretty(meta, 1)}\n}\n`);
  return n;
};

// ---------------------------------------------------------------------------------------------
// Jest `--json`: one line; counters first; testResults[] of about 1000 assertionResults per file.

const JEST_FILE_TESTS = 1000;

const jest: Writer = async (out, n, seed) => {
  const files = Math.ceil(n / JEST_FILE_TESTS);
  const all = tally(seed, 0, n);
  let failedFiles = 0;
  for (let f = 0; f < files; f++)
    if (tally(seed, f * JEST_FILE_TESTS, Math.min(n, (f + 1) * JEST_FILE_TESTS)).failed > 0) failedFiles++;
  const ansi = (code: number, s: string): string => `\u001b[${code}m${s}\u001b[39m`;
  await out.put(
    `{"numFailedTestSuites":${failedFiles},"numFailedTests":${all.failed},"numPassedTestSuites":${files - failedFiles},"numPassedTests":${all.passed},"numPendingTestSuites":0,"numPendingTests":${all.skipped},"numRuntimeErrorTestSuites":0,"numTodoTests":0,"numTotalTestSuites":${files},"numTotalTests":${n},"openHandles":[],"snapshot":{"added":0,"didUpdate":false,"failure":false,"filesAdded":0,"filesRemoved":0,"filesRemovedList":[],"filesUnmatched":0,"filesUpdated":0,"matched":0,"total":0,"unchecked":0,"uncheckedKeysByFile":[],"unmatched":0,"updated":0},"startTime":${BASE_MS},"success":${all.failed === 0},"testResults":[`,
  );
  for (let f = 0; f < files; f++) {
    const from = f * JEST_FILE_TESTS;
    const to = Math.min(n, from + JEST_FILE_TESTS);
    const messages: string[] = [];
    await out.put(`${f === 0 ? '' : ','}{"assertionResults":[`);
    for (let i = from; i < to; i++) {
      const c = caseAt(seed, i);
      const ancestors = [`${camel(moduleName(c.module))} module`, `Service ${c.suite} — Größe`];
      let failureMessages: string[] = [];
      if (c.status === 'failed') {
        const head = c.error
          ? `Error: ${c.message!}`
          : `Error: ${ansi(2, 'expect(')}${ansi(31, 'received')}${ansi(2, ').')}toBe${ansi(2, '(')}${ansi(32, 'expected')}${ansi(2, ')')} // Object.is equality\n\nExpected: ${ansi(32, JSON.stringify(c.expected))}\nReceived: ${ansi(31, JSON.stringify(c.actual))}`;
        failureMessages = [`${head}\n${jsStack(c).split('\n').slice(1).join('\n')}`];
        messages.push(
          `  ● ${ancestors.join(' › ')} › ${c.title}\n\n    ${failureMessages[0]!.replaceAll('\n', '\n    ')}`,
        );
      }
      const a = {
        ancestorTitles: ancestors,
        duration: c.status === 'skipped' ? null : Math.round(c.durationMs),
        failureDetails: failureMessages.map(() => ({
          matcherResult: { actual: c.actual, expected: c.expected, message: c.message, name: 'toBe', pass: false },
        })),
        failureMessages,
        fullName: `${ancestors.join(' ')} ${c.title}`,
        invocations: 1,
        location: null,
        numPassingAsserts: c.status === 'passed' ? 1 : 0,
        retryReasons: [],
        status: c.status === 'skipped' ? 'pending' : c.status,
        title: c.title,
      };
      await out.put(`${i === from ? '' : ','}${JSON.stringify(a)}`);
    }
    const file = `/builds/app/src/${moduleName(Math.floor(from / (SUITES_PER_MODULE * TESTS_PER_SUITE)))}/service${f}.test.ts`;
    await out.put(
      `],"endTime":${BASE_MS + to * 120},"message":${JSON.stringify(messages.join('\n\n'))},"name":${JSON.stringify(file)},"startTime":${BASE_MS + from * 120},"status":"${messages.length > 0 ? 'failed' : 'passed'}","summary":""}`,
    );
  }
  await out.put('],"wasInterrupted":false}\n');
  return n;
};

// ---------------------------------------------------------------------------------------------
// Playwright JSON: config; suites = spec files (one per 40 specs) → describe → specs, each spec
// run in two projects (two counted tests); failed tests retried once. Units are specs.

const PROJECTS = ['chromium', 'firefox'];

const playwright: Writer = async (out, n, seed) => {
  const config = {
    configFile: '/builds/app/playwright.config.ts',
    rootDir: '/builds/app/tests',
    forbidOnly: true,
    fullyParallel: true,
    globalSetup: null,
    globalTeardown: null,
    globalTimeout: 0,
    grep: {},
    grepInvert: null,
    maxFailures: 0,
    metadata: { actualWorkers: 2 },
    preserveOutput: 'always',
    reporter: [['json', { outputFile: 'results.json' }]],
    reportSlowTests: { max: 5, threshold: 15000 },
    quiet: false,
    projects: PROJECTS.map((p) => ({
      outputDir: '/builds/app/test-results',
      repeatEach: 1,
      retries: 1,
      metadata: {},
      id: p,
      name: p,
      testDir: '/builds/app/tests',
      testIgnore: [],
      testMatch: ['**/*.@(spec|test).?(c|m)[jt]s?(x)'],
      timeout: 30000,
    })),
    shard: null,
    updateSnapshots: 'missing',
    version: '1.48.2',
    workers: 2,
    webServer: null,
  };
  let expected = 0;
  let unexpected = 0;
  let skipped = 0;
  await out.put(`{\n  "config": ${pretty(config, 1)},\n  "suites": [`);
  for (let s = 0; s * TESTS_PER_SUITE < n; s++) {
    const file = `${moduleName(Math.floor(s / SUITES_PER_MODULE))}/service-${s}.spec.ts`;
    const describe = { title: `Service ${s} — Größe & "Umfang"`, file, line: 5, column: 6, specs: '@@SPECS@@' };
    const [before, after] = pretty(describe, 4).split('"@@SPECS@@"');
    await out.put(
      `${s === 0 ? '' : ','}\n    {\n      "title": ${JSON.stringify(file)},\n      "file": ${JSON.stringify(file)},\n      "column": 0,\n      "line": 0,\n      "specs": [],\n      "suites": [\n        ${before!}[`,
    );
    for (let i = s * TESTS_PER_SUITE; i < Math.min(n, (s + 1) * TESTS_PER_SUITE); i++) {
      const c = caseAt(seed, i);
      const tests = PROJECTS.map((project, p) => {
        const error =
          c.status === 'failed'
            ? {
                message: `Error: ${c.message!}`,
                stack: jsStack(c, 'Error'),
                location: { file: `/builds/app/tests/${file}`, column: 27, line: c.line },
                snippet: `  ${c.line} |     await expect(page.getByTestId('total')).toHaveText(${JSON.stringify(c.expected)});\n      |                           ^`,
              }
            : null;
        const result = (retry: number, status: string): Record<string, unknown> => ({
          workerIndex: p,
          parallelIndex: p,
          status,
          duration: Math.round(c.durationMs),
          ...(error && status === 'failed' ? { error } : {}),
          errors: error && status === 'failed' ? [{ location: error.location, message: error.message }] : [],
          stdout: c.stdout && retry === 0 ? c.stdout.split('\n').map((l) => ({ text: `${l}\n` })) : [],
          stderr: [],
          retry,
          startTime: iso(c.startMs + retry * 1000 + p * 7),
          annotations: [],
          attachments:
            status === 'failed'
              ? [
                  {
                    name: 'screenshot',
                    contentType: 'image/png',
                    path: `/builds/app/test-results/${file.replace(/[/.]/g, '-')}-${c.method}-${project}${retry ? `-retry${retry}` : ''}/test-failed-1.png`,
                  },
                ]
              : [],
        });
        let results: Record<string, unknown>[];
        let status: string;
        if (c.status === 'skipped') {
          results = [result(0, 'skipped')];
          status = 'skipped';
          skipped++;
        } else if (c.status === 'failed') {
          results = [result(0, 'failed'), result(1, 'failed')];
          status = 'unexpected';
          unexpected++;
        } else {
          results = [result(0, 'passed')];
          status = 'expected';
          expected++;
        }
        return {
          timeout: 30000,
          annotations: c.status === 'skipped' ? [{ type: 'skip', description: c.skipReason }] : [],
          expectedStatus: c.status === 'skipped' ? 'skipped' : 'passed',
          projectId: project,
          projectName: project,
          results,
          status,
        };
      });
      const spec = {
        title: c.title,
        ok: c.status !== 'failed',
        tags: c.i % 5 === 0 ? ['@smoke'] : [],
        tests,
        id: uuid(seed, 40, i).replaceAll('-', '').slice(0, 20),
        file,
        line: c.line,
        column: 7,
      };
      await out.put(`${c.j === 0 ? '' : ','}\n          ${pretty(spec, 5)}`);
    }
    await out.put(`\n        ]${after!}\n      ]\n    }`);
  }
  await out.put(
    `\n  ],\n  "errors": [],\n  "stats": ${pretty({ startTime: iso(BASE_MS), duration: n * 120, expected, skipped, unexpected, flaky: 0 }, 1)}\n}\n`,
  );
  return n * PROJECTS.length;
};

// ---------------------------------------------------------------------------------------------
// CTRF: reportFormat first, summary before tests, one flat tests[] with suite paths.

const ctrf: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  const summary = {
    tests: n,
    passed: all.passed,
    failed: all.failed,
    pending: 0,
    skipped: all.skipped,
    other: 0,
    start: BASE_MS,
    stop: BASE_MS + n * 120,
  };
  await out.put(
    `{\n  "reportFormat": "CTRF",\n  "specVersion": "0.0.0",\n  "reportId": "${uuid(seed, 50, 0)}",\n  "timestamp": "${iso(BASE_MS)}",\n  "generatedBy": "jest-ctrf-json-reporter",\n  "results": {\n    "tool": {\n      "name": "jest",\n      "version": "29.7.0"\n    },\n    "summary": ${pretty(summary, 2)},\n    "tests": [`,
  );
  for (let i = 0; i < n; i++) {
    const c = caseAt(seed, i);
    const t: Record<string, unknown> = {
      name: c.title,
      status: c.status,
      duration: Math.round(c.durationMs),
      start: c.startMs,
      stop: Math.round(c.startMs + c.durationMs),
      rawStatus: c.status === 'skipped' ? 'pending' : c.status,
      tags: c.i % 5 === 0 ? ['@smoke'] : [],
      type: 'unit',
      filePath: `src/${moduleName(c.module)}/service${c.suite}.test.ts`,
      retries: 0,
      flaky: false,
      suite: [`${camel(moduleName(c.module))} module`, `Service ${c.suite} — Größe`],
      line: c.line,
      threadId: String(c.i % 2),
    };
    if (c.status === 'failed') {
      t['message'] = `\u001b[31m${c.message!}\u001b[39m`;
      t['trace'] = jsStack(c);
    }
    if (c.status === 'skipped') t['message'] = c.skipReason;
    if (c.stdout) t['stdout'] = c.stdout.split('\n');
    await out.put(`${i === 0 ? '' : ','}\n      ${pretty(t, 3)}`);
  }
  await out.put(
    `\n    ],\n    "environment": {\n      "appName": "shop – größe",\n      "buildName": "main",\n      "buildNumber": "4711",\n      "osPlatform": "linux"\n    }\n  }\n}\n`,
  );
  return n;
};

// ---------------------------------------------------------------------------------------------
// Go test2json: a package per 5 suites; every 10th test has table-driven subtests (each subtest
// is a counted test too); testify-style failure output; package trailers.

const golang: Writer = async (out, n, seed) => {
  let tests = 0;
  const perPackage = 5 * TESTS_PER_SUITE;
  const ev = (ms: number, action: string, pkg: string, test?: string, extra?: Record<string, unknown>): string =>
    `${JSON.stringify({ Time: `${iso(ms).slice(0, -1)}${String(Math.floor(ms * 1000) % 1000).padStart(3, '0')}Z`, Action: action, Package: pkg, ...(test === undefined ? {} : { Test: test }), ...extra })}\n`;
  for (let p = 0; p * perPackage < n; p++) {
    const pkg = `example.com/shop/internal/${moduleName(Math.floor(p / 2))}/v${p}`;
    const from = p * perPackage;
    const to = Math.min(n, from + perPackage);
    let failed = false;
    let t = BASE_MS + from * 120;
    await out.put(ev(t, 'start', pkg));
    for (let i = from; i < to; i++) {
      const c = caseAt(seed, i);
      const name = `Test${className(c)}_${c.method.replace(/[^A-Za-z0-9]/g, '')}`;
      const file = `service${c.suite}_test.go`;
      let s = ev(t, 'run', pkg, name) + ev(t, 'output', pkg, name, { Output: `=== RUN   ${name}\n` });
      tests++;
      const subtests = c.i % 10 === 0 && c.status !== 'skipped' ? 2 + (c.i % 3) : 0;
      const subFailAt = c.status === 'failed' && subtests > 0 ? c.i % subtests : -1;
      if (c.stdout)
        for (const l of c.stdout.split('\n'))
          s += ev(t, 'output', pkg, name, { Output: `    ${file}:${c.line}: ${l}\n` });
      for (let k = 0; k < subtests; k++) {
        const sub = `${name}/${['leeres_Größe', 'ключ_&_значение', 'with_<html>_input', 'quote_"x"'][k]!}`;
        s += ev(t, 'run', pkg, sub) + ev(t, 'output', pkg, sub, { Output: `=== RUN   ${sub}\n` });
        tests++;
        const ok = k !== subFailAt;
        if (!ok)
          s += ev(t, 'output', pkg, sub, {
            Output: `    ${file}:${c.line + k}: got ${JSON.stringify(c.actual)}, want ${JSON.stringify(c.expected)}\n`,
          });
        s +=
          ev(t, 'output', pkg, sub, { Output: `    --- ${ok ? 'PASS' : 'FAIL'}: ${sub} (0.00s)\n` }) +
          ev(t, ok ? 'pass' : 'fail', pkg, sub, { Elapsed: 0 });
      }
      if (c.status === 'failed' && subtests === 0) {
        const trace = [
          `    ${file}:${c.line}: `,
          `        \tError Trace:\t/builds/shop/internal/${moduleName(c.module)}/${file}:${c.line}`,
          `        \tError:      \tNot equal: `,
          `        \t            \texpected: ${JSON.stringify(c.expected)}`,
          `        \t            \tactual  : ${JSON.stringify(c.actual)}`,
          `        \tTest:       \t${name}`,
          `        \tMessages:   \t${c.message!}`,
        ];
        for (let k = 0; k < c.frames - 4; k++)
          trace.push(
            `        \t            \tgoroutine ${k + 7} [running]: testing.tRunner(0xc000${(k * 4096).toString(16)})`,
          );
        s += ev(t, 'output', pkg, name, { Output: `${trace.join('\n')}\n` });
      }
      if (c.status === 'skipped')
        s += ev(t, 'output', pkg, name, { Output: `    ${file}:${c.line}: ${c.skipReason!}\n` });
      t += c.durationMs;
      const verb = c.status === 'passed' ? 'PASS' : c.status === 'failed' ? 'FAIL' : 'SKIP';
      s += ev(t, 'output', pkg, name, { Output: `--- ${verb}: ${name} (${seconds(c.durationMs, 2)}s)\n` });
      s += ev(t, c.status === 'passed' ? 'pass' : c.status === 'failed' ? 'fail' : 'skip', pkg, name, {
        Elapsed: Math.round(c.durationMs) / 1000,
      });
      if (c.status === 'failed') failed = true;
      await out.put(s);
    }
    const elapsed = (t - (BASE_MS + from * 120)) / 1000;
    await out.put(
      failed
        ? ev(t, 'output', pkg, undefined, { Output: 'FAIL\n' }) +
            ev(t, 'output', pkg, undefined, { Output: `FAIL\t${pkg}\t${elapsed.toFixed(3)}s\n` }) +
            ev(t, 'fail', pkg, undefined, { Elapsed: Math.round(elapsed * 1000) / 1000 })
        : ev(t, 'output', pkg, undefined, { Output: 'PASS\n' }) +
            ev(t, 'output', pkg, undefined, { Output: `ok  \t${pkg}\t${elapsed.toFixed(3)}s\n` }) +
            ev(t, 'pass', pkg, undefined, { Elapsed: Math.round(elapsed * 1000) / 1000 }),
    );
  }
  return tests;
};

// ---------------------------------------------------------------------------------------------
// TAP 14 as node:test writes it: `# Subtest:` headers, YAML diagnostics on every point (failures
// with error, expected/actual and a block-scalar stack), some subtests as indented points,
// console output as comments, the plan at the end.

const tap: Writer = async (out, n, seed) => {
  // Block scalars keep their text; single-quoted YAML doubles its quotes.
  const q = (s: string): string => `'${s.replaceAll("'", "''").replaceAll('\n', ' ')}'`;
  // A `#` in a title would start a directive: TAP escapes it.
  const title = (s: string): string => s.replaceAll('\\', '\\\\').replaceAll('#', '\\#');
  await out.put('TAP version 14\n');
  for (let i = 0; i < n; i++) {
    const c = caseAt(seed, i);
    const location = `file:///builds/app/test/${moduleName(c.module)}/service${c.suite}.test.mjs:${c.line}:3`;
    let s = `# Subtest: ${title(c.title)}\n`;
    if (c.i % 10 === 0 && c.status === 'passed') {
      for (let k = 0; k < 2; k++)
        s += `    # Subtest: case ${k} — größe\n    ok ${k + 1} - case ${k} — größe\n      ---\n      duration_ms: 0.${100 + k}\n      ...\n`;
      s += '    1..2\n';
    }
    if (c.stdout)
      s += `${c.stdout
        .split('\n')
        .map((l) => `# ${l}`)
        .join('\n')}\n`;
    if (c.status === 'skipped')
      s += `ok ${i + 1} - ${title(c.title)} # SKIP ${c.skipReason!}\n  ---\n  duration_ms: 0.012\n  location: ${q(location)}\n  ...\n`;
    else if (c.status === 'passed')
      s += `ok ${i + 1} - ${title(c.title)}\n  ---\n  duration_ms: ${c.durationMs}\n  location: ${q(location)}\n  ...\n`;
    else {
      const stack = jsStack(c)
        .split('\n')
        .slice(1)
        .map((l) => `    ${l.trim().replace(/^at /, '')}`)
        .join('\n');
      s += `not ok ${i + 1} - ${title(c.title)}\n  ---\n  duration_ms: ${c.durationMs}\n  location: ${q(location)}\n  failureType: 'testCodeFailure'\n`;
      s += c.error
        ? `  error: ${q(c.message!)}\n  code: 'ERR_TEST_FAILURE'\n  name: 'Error'\n`
        : `  error: |-\n    Expected values to be strictly equal:\n\n    '${c.actual}' !== '${c.expected}'\n  code: 'ERR_ASSERTION'\n  name: 'AssertionError'\n  expected: ${q(c.expected)}\n  actual: ${q(c.actual)}\n  operator: 'strictEqual'\n`;
      s += `  stack: |-\n${stack}\n  ...\n`;
    }
    await out.put(s);
  }
  const all = tally(seed, 0, n);
  await out.put(
    `1..${n}\n# tests ${n}\n# suites 0\n# pass ${all.passed}\n# fail ${all.failed}\n# cancelled 0\n# skipped ${all.skipped}\n# todo 0\n# duration_ms ${n * 120}\n`,
  );
  return n;
};

// ---------------------------------------------------------------------------------------------

export const formats: Record<string, FormatGenerator> = {
  allure: sized(`${uuid(1, 99, 0)}-result.json`, allure),
  ctrf: sized('ctrf-report.json', ctrf),
  cucumber: sized('cucumber.json', cucumber),
  'cucumber-messages': sized('cucumber-messages.ndjson', cucumberMessages),
  dart: sized('dart-test-results.json', dart),
  golang: sized('go-test.json', golang),
  jest: sized('jest-results.json', jest),
  // bench/generate.ts is the JUnit generator the RSS bench already uses; its numbers stay comparable.
  junit: { fileName: 'TEST-com.example.Suite.xml', generate: (path, bytes, seed) => junitFile(path, bytes, seed) },
  mocha: sized('mocha-results.json', mocha),
  mochawesome: sized('mochawesome.json', mochawesome),
  nunit: sized('TestResult.xml', nunit),
  playwright: sized('playwright-results.json', playwright),
  robot: sized('output.xml', robot),
  rspec: sized('rspec.json', rspec),
  tap: sized('results.tap', tap),
  testng: sized('testng-results.xml', testng),
  trx: sized('results.trx', trx),
  xunit: sized('xunit-results.xml', xunit),
};
