/**
 * The bench generator of this format (bench/formatters.ts runs it): Jest `--json`: one line;
 * counters first; testResults[] of about 1000 assertionResults per file.
 */
import { BASE_MS, camel, caseAt, jsStack, moduleName, sized, SUITES_PER_MODULE, tally } from '../../bench/cases.js';
import { TESTS_PER_SUITE } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

const JEST_FILE_TESTS = 1000;

const jest: Writer = async (out, n, seed) => {
  const files = Math.ceil(n / JEST_FILE_TESTS);
  const all = tally(seed, 0, n);
  let failedFiles = 0;
  for (let f = 0; f < files; f++)
    if (tally(seed, f * JEST_FILE_TESTS, Math.min(n, (f + 1) * JEST_FILE_TESTS)).failed > 0) failedFiles++;
  const ansi = (code: number, s: string): string => `\u001b[${code}m${s}\u001b[39m`;
  await out.put(
    `{"numFailedTestSuites":${failedFiles},"numFailedTests":${all.failed},` +
      `"numPassedTestSuites":${files - failedFiles},"numPassedTests":${all.passed},"numPendingTestSuites":0,` +
      `"numPendingTests":${all.skipped},"numRuntimeErrorTestSuites":0,"numTodoTests":0,` +
      `"numTotalTestSuites":${files},"numTotalTests":${n},"openHandles":[],"snapshot":{"added":0,` +
      `"didUpdate":false,"failure":false,"filesAdded":0,"filesRemoved":0,"filesRemovedList":[],"filesUnmatched":0,` +
      `"filesUpdated":0,"matched":0,"total":0,"unchecked":0,"uncheckedKeysByFile":[],"unmatched":0,"updated":0},` +
      `"startTime":${BASE_MS},"success":${all.failed === 0},"testResults":[`,
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
          : `Error: ${ansi(2, 'expect(')}${ansi(31, 'received')}${ansi(2, ').')}toBe${ansi(2, '(')}` +
            `${ansi(32, 'expected')}${ansi(2, ')')} // Object.is equality\n\nExpected: ` +
            `${ansi(32, JSON.stringify(c.expected))}\nReceived: ${ansi(31, JSON.stringify(c.actual))}`;
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
    const file =
      `/builds/app/src/${moduleName(Math.floor(from / (SUITES_PER_MODULE * TESTS_PER_SUITE)))}/` +
      `service${f}.test.ts`;
    await out.put(
      `],"endTime":${BASE_MS + to * 120},"message":${JSON.stringify(messages.join('\n\n'))},` +
        `"name":${JSON.stringify(file)},"startTime":${BASE_MS + from * 120},` +
        `"status":"${messages.length > 0 ? 'failed' : 'passed'}","summary":""}`,
    );
  }
  await out.put('],"wasInterrupted":false}\n');
  return n;
};

export const generator: FormatGenerator = sized('jest-results.json', jest);
