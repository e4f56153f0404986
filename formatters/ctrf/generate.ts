/**
 * The bench generator of this format (bench/formatters.ts runs it): CTRF: reportFormat first,
 * summary before tests, one flat tests[] with suite paths.
 */
import { BASE_MS, camel, caseAt, iso, jsStack, moduleName, pretty, sized, tally, uuid } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

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
    `{\n  "reportFormat": "CTRF",\n  "specVersion": "0.0.0",\n  "reportId": "${uuid(seed, 50, 0)}",\n  "timestamp": ` +
      `"${iso(BASE_MS)}",\n  "generatedBy": "jest-ctrf-json-reporter",\n  "results": {\n    "tool": {\n      ` +
      `"name": "jest",\n      "version": "29.7.0"\n    },\n    "summary": ${pretty(summary, 2)},\n    "tests": [`,
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
    `\n    ],\n    "environment": {\n      "appName": "shop – größe",\n      "buildName": "main",\n      ` +
      `"buildNumber": "4711",\n      "osPlatform": "linux"\n    }\n  }\n}\n`,
  );
  return n;
};

export const generator: FormatGenerator = sized('ctrf-report.json', ctrf);
