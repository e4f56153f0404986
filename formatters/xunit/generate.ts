/**
 * The bench generator of this format (bench/formatters.ts runs it): xUnit.net v2: assemblies →
 * assembly (every 50 classes) → collection (suite) → test
 */
import { attr, camel, caseAt, cdata, className, dotnetStack, moduleName, seconds, sized } from '../../bench/cases.js';
import { tally, TESTS_PER_SUITE } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

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
      `  <assembly name="/builds/app/${name}/bin/Release/net8.0/${name}.dll" run-date="2026-11-01" ` +
        `run-time="10:00:00" config-file="/builds/app/${name}/bin/Release/net8.0/${name}.dll.config" ` +
        `test-framework="xUnit.net 2.9.2.0" environment="64-bit .NET 8.0.10 [collection-per-class, parallel (2 ` +
        `threads)]" total="${at.total}" passed="${at.passed}" failed="${at.failed}" skipped="${at.skipped}" ` +
        `time="${seconds(at.total * 120)}" errors="0">\n    <errors />\n`,
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
        body +=
          `      <test name="${attr(`${type}.${c.method}(input: ${JSON.stringify(c.expected)})`)}" ` +
          `type="${type}" method="${c.method}" time="${seconds(c.durationMs, 7)}" result="${result}">\n`;
        body +=
          `        <traits><trait name="Category" value="${c.i % 3 === 0 ? 'Integration' : 'Unit'}" /><trait ` +
          `name="Beschreibung" value="${attr(c.title)}" /></traits>\n`;
        if (c.stdout) body += `        <output>${cdata(`${c.stdout}\n`)}</output>\n`;
        if (c.status === 'failed') {
          const exceptionType = c.error ? 'System.InvalidOperationException' : 'Xunit.Sdk.EqualException';
          const message = c.error
            ? `System.InvalidOperationException : ${c.message!}`
            : `Assert.Equal() Failure: Strings differ\n           ↓ (pos 0)\nExpected: ` +
              `${JSON.stringify(c.expected)}\nActual:   ${JSON.stringify(c.actual)}\n           ↑ (pos 0)`;
          body +=
            `        <failure exception-type="${exceptionType}">\n          <message>${cdata(message)}</` +
            `message>\n          <stack-trace>${cdata(dotnetStack(c))}</stack-trace>\n        </failure>\n`;
        }
        if (c.status === 'skipped') body += `        <reason>${cdata(c.skipReason!)}</reason>\n`;
        body += '      </test>\n';
      }
      const total = st.passed + st.failed + st.skipped;
      await out.put(
        `    <collection total="${total}" passed="${st.passed}" failed="${st.failed}" skipped="${st.skipped}" ` +
          `name="Test collection for ${type}" time="${seconds(total * 120)}">\n${body}    </collection>\n`,
      );
    }
    await out.put('  </assembly>\n');
  }
  await out.put('</assemblies>\n');
  return n;
};

export const generator: FormatGenerator = sized('xunit-results.xml', xunit);
