/**
 * The bench generator of this format (bench/formatters.ts runs it): Go test2json: a package per 5
 * suites; every 10th test has table-driven subtests (each subtest is a counted test too);
 * testify-style failure output; package trailers.
 */
import { BASE_MS, caseAt, className, iso, moduleName, seconds, sized, TESTS_PER_SUITE } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

const golang: Writer = async (out, n, seed) => {
  let tests = 0;
  const perPackage = 5 * TESTS_PER_SUITE;
  const ev = (ms: number, action: string, pkg: string, test?: string, extra?: Record<string, unknown>): string =>
    `${JSON.stringify({
      Time: `${iso(ms).slice(0, -1)}${String(Math.floor(ms * 1000) % 1000).padStart(3, '0')}Z`,
      Action: action,
      Package: pkg,
      ...(test === undefined ? {} : { Test: test }),
      ...extra,
    })}\n`;
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

export const generator: FormatGenerator = sized('go-test.json', golang);
