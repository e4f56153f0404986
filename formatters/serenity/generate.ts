/**
 * The bench generator of this format (bench/formatters.ts runs it): one data-driven Serenity
 * outcome (a Cucumber Scenario Outline, as Serenity 3.x writes it): a top-level step per example row
 * with its steps (screenshots, the failing step's exception with Java stack frames), then the
 * story, the `dataTable` with each row's result, and the outcome's own result.
 */
import { BASE_MS, caseAt, GHERKIN, iso, moduleName, pretty, sized } from '../../bench/cases.js';
import type { Case, FormatGenerator, Writer } from '../../bench/cases.js';

const RESULT = { passed: 'SUCCESS', failed: 'FAILURE', skipped: 'IGNORED' } as const;

function exception(c: Case): Record<string, unknown> {
  return {
    errorType: c.error ? 'java.net.ConnectException' : 'org.opentest4j.AssertionFailedError',
    message: c.message,
    stackTrace: Array.from({ length: c.frames }, (_, k) => ({
      declaringClass: `com.example.${moduleName(c.module)}.steps.CheckoutSteps`,
      methodName: `step${k}`,
      fileName: 'CheckoutSteps.java',
      lineNumber: c.line + k,
    })),
  };
}

function row(c: Case): Record<string, unknown> {
  const result = RESULT[c.status];
  const failAt = c.status === 'failed' ? c.i % 3 : -1;
  const children = [0, 1, 2].map((k) => {
    const [keyword, name] = GHERKIN[(c.i + k) % GHERKIN.length]!;
    const st = c.status === 'skipped' || (failAt >= 0 && k > failAt) ? 'SKIPPED' : k === failAt ? result : 'SUCCESS';
    const step: Record<string, unknown> = {
      number: c.i * 4 + k + 2,
      description: `${keyword}${name} (#${c.i})`,
      duration: Math.round(c.durationMs / 3),
      startTime: `${iso(c.startMs + k)}[Europe/Berlin]`,
      screenshots: [{ screenshot: `${(c.i * 3 + k).toString(16).padStart(12, '0')}.png`, timeStamp: c.startMs + k }],
      result: st,
      precondition: false,
      level: 1,
      children: [],
    };
    if (k === failAt) step['exception'] = exception(c);
    return step;
  });
  const values = `{Item=${c.expected}, Größe=${c.j}, Kunde=${c.actual}}`;
  const step: Record<string, unknown> = {
    number: c.i * 4 + 1,
    description: `${c.i + 1}: Checking out ${c.title} (${values})`,
    duration: Math.round(c.durationMs),
    startTime: `${iso(c.startMs)}[Europe/Berlin]`,
    result,
    precondition: false,
    level: 0,
    lineNumber: 20 + c.i,
    children,
  };
  if (c.status === 'failed') step['exception'] = exception(c);
  return step;
}

const serenity: Writer = async (out, n, seed) => {
  await out.put('{\n  "name" : "Checking out",\n  "id" : "checkout;checking-out",\n  "testSteps" : [ ');
  let anyFailed = false;
  for (let i = 0; i < n; i++) {
    const c = caseAt(seed, i);
    if (c.status === 'failed') anyFailed = true;
    await out.put(`${i === 0 ? '' : ', '}${pretty(row(c), 1)}`);
  }
  await out.put(' ],\n  "userStory" : ');
  await out.put(
    pretty(
      { id: 'checkout', storyName: 'Checkout', displayName: 'Checkout', path: 'checkout.feature', type: 'feature' },
      1,
    ),
  );
  await out.put(
    `,\n  "title" : "Checking out",\n  "startTime" : "${iso(BASE_MS)}[Europe/Berlin]",\n  "duration" : ${n * 120},\n` +
      '  "dataTable" : {\n    "headers" : [ "Item", "Größe", "Kunde" ],\n    "rows" : [ ',
  );
  for (let i = 0; i < n; i++) {
    const c = caseAt(seed, i);
    const r = { values: [c.expected, String(c.j), c.actual], lineNumber: 20 + i, result: RESULT[c.status] };
    await out.put(`${i === 0 ? '' : ', '}${JSON.stringify(r)}`);
  }
  const result = anyFailed ? 'FAILURE' : 'SUCCESS';
  await out.put(` ]\n  },\n  "manual" : false,\n  "testSource" : "Cucumber",\n  "result" : "${result}"\n}\n`);
  return n;
};

export const generator: FormatGenerator = sized(
  '6047b8cddcab46a2bfbca6083752d5b55035e3ab0bbc82b6d9e9160b3c32a5b6.json',
  serenity,
);
