/**
 * The bench generator of this format (bench/formatters.ts runs it): Cucumber Messages NDJSON, in
 * cucumber-js order: meta; per feature its source, gherkinDocument and pickles; step definitions
 * and hooks; testRunStarted; every testCase; then each test case's execution; testRunFinished. Ids
 * are recomputed from (seed, kind, index), never remembered.
 */
import { BASE_MS, caseAt, GHERKIN, jsStack, moduleName, sized, SUITES_PER_MODULE, tally } from '../../bench/cases.js';
import { TESTS_PER_SUITE, uuid } from '../../bench/cases.js';
import type { Case, FormatGenerator, Writer } from '../../bench/cases.js';

const cucumberMessages: Writer = async (out, n, seed) => {
  const line = (key: string, value: unknown): string => `${JSON.stringify({ [key]: value })}\n`;
  // Protobuf Timestamp/Duration: whole seconds plus nanos below one second.
  const stamp = (ms: number): { seconds: number; nanos: number } => ({
    seconds: Math.floor(ms / 1000),
    nanos: Math.floor((ms % 1000) * 1e6),
  });
  const dur = stamp;
  const stepsOf = (c: Case): number => 3 + (c.i % 4);
  // Id kinds: 10 scenario AST, 11 AST step, 12 pickle, 13 pickle step, 14 testCase, 15 test step,
  // 16 testCaseStarted, 17 hook step.
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

export const generator: FormatGenerator = sized('cucumber-messages.ndjson', cucumberMessages);
