/**
 * The bench generator of this format (bench/formatters.ts runs it): TestNG testng-results.xml:
 * suite → test (module) → class (suite) → test-method
 */
import { attr, BASE_MS, camel, caseAt, cdata, iso, javaStack, mix, moduleName, sized } from '../../bench/cases.js';
import { SUITES_PER_MODULE, tally, TESTS_PER_SUITE } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

const testng: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  const instance = (s: number): string => `${(mix(seed, s) & 0xfffffff).toString(16)}`;
  await out.put(
    `<?xml version="1.0" encoding="UTF-8"?>\n<testng-results ignored="0" total="${n}" passed="${all.passed}" ` +
      `failed="${all.failed}" skipped="${all.skipped}">\n  <reporter-output>\n    <line>\n      ` +
      `${cdata('Suite started on runner-7f9c (größe ✓)')}\n    </line>\n  </reporter-output>\n` +
      `  <suite started-at="2026-11-01T10:00:00 UTC" name="Example suite &amp; friends" ` +
      `finished-at="${iso(BASE_MS + n * 120).slice(0, 19)} UTC" duration-ms="${n * 120}">\n    <groups>\n` +
      `      <group name="unit">\n        <method signature="com.example.billing.BillingService0Test.setUp()" ` +
      `name="setUp" class="com.example.billing.BillingService0Test"/>\n      </group>\n    </groups>\n`,
  );
  for (let m = 0; m * SUITES_PER_MODULE * TESTS_PER_SUITE < n; m++) {
    const from = m * SUITES_PER_MODULE * TESTS_PER_SUITE;
    const to = Math.min(n, from + SUITES_PER_MODULE * TESTS_PER_SUITE);
    await out.put(
      `    <test started-at="${iso(BASE_MS + from * 120).slice(0, 19)} UTC" name="${moduleName(m)} tests" ` +
        `finished-at="${iso(BASE_MS + to * 120).slice(0, 19)} UTC" duration-ms="${(to - from) * 120}">\n`,
    );
    for (let s = from / TESTS_PER_SUITE; s * TESTS_PER_SUITE < to; s++) {
      const cls = `com.example.${moduleName(m)}.${camel(moduleName(m))}Service${s}Test`;
      const t0 = iso(BASE_MS + s * TESTS_PER_SUITE * 120).slice(0, 19);
      let body =
        `      <class name="${cls}">\n        <test-method is-config="true" signature="setUp()[pri:0, ` +
        `instance:${cls}@${instance(s)}]" started-at="${t0} UTC" name="setUp" finished-at="${t0} UTC" ` +
        `duration-ms="2" status="PASS">\n        </test-method>\n`;
      for (let i = s * TESTS_PER_SUITE; i < Math.min(to, (s + 1) * TESTS_PER_SUITE); i++) {
        const c = caseAt(seed, i);
        const status = c.status === 'passed' ? 'PASS' : c.status === 'failed' ? 'FAIL' : 'SKIP';
        const start = iso(c.startMs).slice(0, 19);
        const dataDriven = c.i % 4 === 0;
        body +=
          `        <test-method signature="${c.method}(${dataDriven ? 'java.lang.String' : ''})[pri:0, ` +
          `instance:${cls}@${instance(s)}]" started-at="${start} UTC" name="${c.method}" ` +
          `description="${attr(c.title)}"${dataDriven ? ' data-provider="inputs"' : ''} finished-at="${start} ` +
          `UTC" duration-ms="${Math.round(c.durationMs)}" status="${status}">\n`;
        if (dataDriven)
          body +=
            `          <params>\n            <param index="0">\n              <value>\n                ` +
            `${cdata(c.expected)}\n              </value>\n            </param>\n          </params>\n`;
        if (c.status === 'failed') {
          const exception = c.error ? 'java.lang.IllegalStateException' : 'java.lang.AssertionError';
          body +=
            `          <exception class="${exception}">\n            <message>\n              ` +
            `${cdata(c.message!)}\n            </message>\n            <full-stacktrace>\n              ` +
            `${cdata(javaStack(c, exception))}\n            </full-stacktrace>\n          </exception>\n`;
        }
        if (c.status === 'skipped')
          body +=
            `          <exception class="org.testng.SkipException">\n            <message>\n              ` +
            `${cdata(c.skipReason!)}\n            </message>\n          </exception>\n`;
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

export const generator: FormatGenerator = sized('testng-results.xml', testng);
