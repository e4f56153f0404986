/**
 * The bench generator of this format (bench/formatters.ts runs it): Playwright JSON: config; suites
 * = spec files (one per 40 specs) → describe → specs, each spec run in two projects (two counted
 * tests); failed tests retried once. Units are specs.
 */
import { BASE_MS, caseAt, iso, jsStack, moduleName, pretty, sized, SUITES_PER_MODULE } from '../../bench/cases.js';
import { TESTS_PER_SUITE, uuid } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

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
      `${s === 0 ? '' : ','}\n    {\n      "title": ${JSON.stringify(file)},\n      "file": ${JSON.stringify(file)},` +
        `\n      "column": 0,\n      "line": 0,\n      "specs": [],\n      "suites": [\n        ${before!}[`,
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
                snippet:
                  `  ${c.line} |     await expect(page.getByTestId('total')).toHaveText(` +
                  `${JSON.stringify(c.expected)});\n      |                           ^`,
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
                    path:
                      `/builds/app/test-results/${file.replace(/[/.]/g, '-')}-${c.method}-${project}` +
                      `${retry ? `-retry${retry}` : ''}/test-failed-1.png`,
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
    `\n  ],\n  "errors": [],\n  "stats": ` +
      `${pretty({ startTime: iso(BASE_MS), duration: n * 120, expected, skipped, unexpected, flaky: 0 }, 1)}\n}\n`,
  );
  return n * PROJECTS.length;
};

export const generator: FormatGenerator = sized('playwright-results.json', playwright);
