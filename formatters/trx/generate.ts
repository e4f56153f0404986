/**
 * The bench generator of this format (bench/formatters.ts runs it): TRX (VSTest): Results first,
 * then TestDefinitions, TestEntries, TestLists, ResultSummary
 */
import { attr, BASE_MS, camel, caseAt, className, dotnetStack, iso, moduleName, sized } from '../../bench/cases.js';
import { tally, text, timeSpan, uuid } from '../../bench/cases.js';
import type { Case, FormatGenerator, Writer } from '../../bench/cases.js';

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
    `<?xml version="1.0" encoding="utf-8"?>\n<TestRun id="${uuid(seed, 0, 0)}" name="runner@BUILD-AGENT-7 ` +
      `2026-11-01 10:00:00" runUser="BUILD\\runner" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/` +
      `2010">\n` +
      `  <Times creation="2026-11-01T10:00:00.0000000+00:00" queuing="2026-11-01T10:00:00.0000000+00:00" ` +
      `start="2026-11-01T10:00:00.0000000+00:00" finish="${iso(end)}" />\n` +
      `  <TestSettings name="default" id="${uuid(seed, 0, 1)}">\n    <Deployment ` +
      `runDeploymentRoot="runner_BUILD-AGENT-7_2026-11-01_10_00_00" />\n  </TestSettings>\n  <Results>\n`,
  );
  for (let i = 0; i < n; i++) {
    const c = caseAt(seed, i);
    const outcome = c.status === 'passed' ? 'Passed' : c.status === 'skipped' ? 'NotExecuted' : 'Failed';
    let s =
      `    <UnitTestResult executionId="${execId(i)}" testId="${testId(i)}" ` +
      `testName="${attr(`${dotnetName(c)}.${c.method}(input: ${JSON.stringify(c.expected)})`)}" ` +
      `computerName="BUILD-AGENT-7" duration="${timeSpan(c.durationMs)}" startTime="${iso(c.startMs)}" ` +
      `endTime="${iso(c.startMs + c.durationMs)}" testType="${TRX_TYPE}" outcome="${outcome}" ` +
      `testListId="${TRX_LIST}" relativeResultsDirectory="${execId(i)}"`;
    if (c.status === 'passed' && !c.stdout) s += ' />\n';
    else {
      s += '>\n      <Output>\n';
      if (c.stdout) s += `        <StdOut>${crlf(c.stdout)}</StdOut>\n`;
      if (c.status === 'skipped') s += `        <StdOut>${crlf(c.skipReason!)}</StdOut>\n`;
      if (c.status === 'failed') {
        const message = c.error
          ? `System.InvalidOperationException : ${c.message!}`
          : `Assert.Equal() Failure\nExpected: ${JSON.stringify(c.expected)}\nActual:   ${JSON.stringify(c.actual)}`;
        s +=
          `        <ErrorInfo>\n          <Message>${crlf(message)}</Message>\n          <StackTrace>` +
          `${crlf(dotnetStack(c))}</StackTrace>\n        </ErrorInfo>\n`;
      }
      s += '      </Output>\n    </UnitTestResult>\n';
    }
    await out.put(s);
  }
  await out.put('  </Results>\n  <TestDefinitions>\n');
  for (let i = 0; i < n; i++) {
    const c = caseAt(seed, i);
    const storage =
      `/builds/app/example.${moduleName(c.module)}.tests/bin/release/net8.0/` +
      `example.${moduleName(c.module)}.tests.dll`;
    await out.put(
      `    <UnitTest name="${attr(`${dotnetName(c)}.${c.method}(input: ${JSON.stringify(c.expected)})`)}" ` +
        `storage="${storage}" id="${testId(i)}">\n      <Execution id="${execId(i)}" />\n      <TestMethod ` +
        `codeBase="${storage}" adapterTypeName="executor://xunit/VsTestRunner2/netcoreapp" ` +
        `className="${dotnetName(c)}" name="${c.method}" />\n    </UnitTest>\n`,
    );
  }
  await out.put('  </TestDefinitions>\n  <TestEntries>\n');
  for (let i = 0; i < n; i++)
    await out.put(`    <TestEntry testId="${testId(i)}" executionId="${execId(i)}" testListId="${TRX_LIST}" />\n`);
  await out.put(
    `  </TestEntries>\n  <TestLists>\n    <TestList name="Results Not in a List" id="${TRX_LIST}" />\n    <TestList ` +
      `name="All Loaded Results" id="19431567-8539-422a-85d7-44ee4e166bda" />\n  </TestLists>\n` +
      `  <ResultSummary outcome="${all.failed > 0 ? 'Failed' : 'Completed'}">\n    <Counters total="${n}" ` +
      `executed="${n - all.skipped}" passed="${all.passed}" failed="${all.failed}" error="0" timeout="0" ` +
      `aborted="0" inconclusive="0" passedButRunAborted="0" notRunnable="0" notExecuted="${all.skipped}" ` +
      `disconnected="0" warning="0" completed="0" inProgress="0" pending="0" />\n` +
      `    <Output>\n      <StdOut>[xUnit.net 00:00:00.00] xUnit.net VSTest Adapter v2.8.2 (64-bit .NET 8.0.10)&#xD;` +
      `\n[xUnit.net 00:00:00.27]   Discovering: Example.Tests (größe ✓)&#xD;\n</StdOut>\n    </Output>\n  </` +
      `ResultSummary>\n</TestRun>\n`,
  );
  return n;
};

export const generator: FormatGenerator = sized('results.trx', trx);
