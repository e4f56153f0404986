/**
 * The bench generator of this format (bench/formatters.ts runs it): NUnit 3: test-run → Assembly →
 * TestSuite → Namespace (module) → TestFixture (suite) → test-case
 */
import { attr, BASE_MS, camel, caseAt, cdata, className, dotnetStack, iso, mix } from '../../bench/cases.js';
import { moduleName, seconds, sized, SUITES_PER_MODULE, tally, TESTS_PER_SUITE } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

const COMMAND_LINE =
  'nunit3-console.exe Example.Tests.dll --where "cat != Slow && cat != Größe" --result=TestResult.xml';

const nunit: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  const end = BASE_MS + n * 120;
  const counts = (t: ReturnType<typeof tally>): string =>
    `total="${t.total}" passed="${t.passed}" failed="${t.failed}" warnings="0" inconclusive="0" ` +
    `skipped="${t.skipped}" asserts="${t.passed + t.failed}"`;
  const result = (t: ReturnType<typeof tally>): string =>
    t.failed > 0 ? 'result="Failed" site="Child"' : t.passed > 0 ? 'result="Passed"' : 'result="Skipped"';
  const childFailure = '<failure><message><![CDATA[One or more child tests had errors]]></message></failure>';
  await out.put(
    `<?xml version="1.0" encoding="utf-8" standalone="no"?>\n<test-run id="0" runstate="Runnable" ` +
      `testcasecount="${n}" ${result(all)} ${counts(all)} engine-version="3.16.3.0" clr-version="8.0.10" ` +
      `start-time="2026-11-01 10:00:00Z" end-time="${iso(end).replace('T', ' ').replace('.000', '')}" ` +
      `duration="${seconds(end - BASE_MS, 6)}">\n` +
      `  <command-line>${cdata(COMMAND_LINE)}</command-line>\n` +
      `  <test-suite type="Assembly" id="0-1" name="Example.Tests.dll" fullname="/builds/app/Example.Tests/bin/` +
      `Release/net8.0/Example.Tests.dll" runstate="Runnable" testcasecount="${n}" ${result(all)} ` +
      `start-time="2026-11-01T10:00:00.0000000Z" end-time="${iso(end)}" duration="${seconds(end - BASE_MS, 6)}" ` +
      `${counts(all)}>\n` +
      `    <environment framework-version="3.14.0.0" clr-version="8.0.10" os-version="Unix 6.8.0.1017" ` +
      `platform="Unix" cwd="/builds/app" machine-name="runner-7f9c" user="runner" user-domain="runner-7f9c" ` +
      `culture="de-DE" uiculture="de-DE" os-architecture="x64" />\n` +
      `    <settings><setting name="NumberOfTestWorkers" value="2" /><setting name="ImageTargetFrameworkName" ` +
      `value=".NETCoreApp,Version=v8.0" /></settings>\n` +
      `    <properties><property name="_PID" value="4752" /><property name="_APPDOMAIN" ` +
      `value="domain-Example.Tests.dll" /></properties>\n` +
      (all.failed > 0 ? `    ${childFailure}\n` : '') +
      `    <test-suite type="TestSuite" id="0-2" name="Example" fullname="Example" runstate="Runnable" ` +
      `testcasecount="${n}" ${result(all)} ${counts(all)}>\n`,
  );
  for (let m = 0; m * SUITES_PER_MODULE * TESTS_PER_SUITE < n; m++) {
    const from = m * SUITES_PER_MODULE * TESTS_PER_SUITE;
    const to = Math.min(n, from + SUITES_PER_MODULE * TESTS_PER_SUITE);
    const mt = tally(seed, from, to);
    const ns = `Example.${camel(moduleName(m))}`;
    await out.put(
      `      <test-suite type="Namespace" id="0-ns${m}" name="${camel(moduleName(m))}" fullname="${ns}" ` +
        `runstate="Runnable" testcasecount="${mt.total}" ${result(mt)} ${counts(mt)}>` +
        `\n${mt.failed > 0 ? `        ${childFailure}\n` : ''}`,
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
        body +=
          `          <test-case id="0-${1000 + i}" name="${attr(name)}" ` +
          `fullname="${attr(`${fixture}.${name}`)}" methodname="${c.method}" classname="${fixture}" ` +
          `runstate="${c.status === 'skipped' ? 'Ignored' : 'Runnable'}" seed="${mix(seed, i) % 2_000_000_000}" ` +
          `${res} start-time="${iso(c.startMs)}" end-time="${iso(c.startMs + c.durationMs)}" ` +
          `duration="${seconds(c.durationMs, 6)}" asserts="${c.status === 'skipped' ? 0 : 1}">\n`;
        body +=
          `            <properties><property name="Description" value="${attr(c.title)}" />` +
          `${c.status === 'skipped' ? `<property name="_SKIPREASON" value="${attr(c.skipReason!)}" />` : ''}<prope` +
          `rty name="Category" value="${c.i % 3 === 0 ? 'Slow' : 'Unit'}" /></properties>\n`;
        if (c.status === 'failed') {
          const message = c.error
            ? `System.InvalidOperationException : ${c.message!}`
            : `  Expected: ${JSON.stringify(c.expected)}\n  But was:  ${JSON.stringify(c.actual)}\n`;
          body +=
            `            <failure>\n              <message>${cdata(message)}</message>\n              ` +
            `<stack-trace>${cdata(dotnetStack(c))}</stack-trace>\n            </failure>\n`;
          if (!c.error)
            body +=
              `            <assertions><assertion result="Failed"><message>${cdata(message)}</message>` +
              `<stack-trace>${cdata(dotnetStack(c))}</stack-trace></assertion></assertions>\n`;
        }
        if (c.status === 'skipped') body += `            <reason><message>${cdata(c.skipReason!)}</message></reason>\n`;
        if (c.stdout) body += `            <output>${cdata(`${c.stdout}\n`)}</output>\n`;
        body += '          </test-case>\n';
      }
      await out.put(
        `        <test-suite type="TestFixture" id="0-fx${s}" name="${fixture.slice(ns.length + 1)}" ` +
          `fullname="${fixture}" classname="${fixture}" runstate="Runnable" testcasecount="${st.total}" ` +
          `${result(st)} start-time="${iso(BASE_MS + s * TESTS_PER_SUITE * 120)}" ` +
          `duration="${seconds(st.total * 120, 6)}" ${counts(st)}>\n` +
          `${st.failed > 0 ? `          ${childFailure}\n` : ''}${body}        </test-suite>\n`,
      );
    }
    await out.put('      </test-suite>\n');
  }
  await out.put('    </test-suite>\n  </test-suite>\n</test-run>\n');
  return n;
};

export const generator: FormatGenerator = sized('TestResult.xml', nunit);
