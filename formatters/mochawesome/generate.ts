/**
 * The bench generator of this format (bench/formatters.ts runs it): mochawesome: stats; results[] =
 * one spec file each (a module), its root suite holding describe suites of 40 tests; meta.
 * Pretty-printed with two spaces, as mochawesome writes it.
 */
import { mochaStats, caseAt, jsStack, moduleName, pretty, sized, SUITES_PER_MODULE } from '../../bench/cases.js';
import { tally, TESTS_PER_SUITE, uuid } from '../../bench/cases.js';
import type { FormatGenerator, Status, Writer } from '../../bench/cases.js';

const mochawesome: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  const stats = {
    ...mochaStats(n, all),
    testsRegistered: n,
    passPercent: Math.round((all.passed / n) * 10000) / 100,
    pendingPercent: Math.round((all.skipped / n) * 10000) / 100,
    other: 0,
    hasOther: false,
    skipped: 0,
    hasSkipped: false,
  };
  await out.put(`{\n  "stats": ${pretty(stats, 1)},\n  "results": [`);
  for (let m = 0; m * SUITES_PER_MODULE * TESTS_PER_SUITE < n; m++) {
    const from = m * SUITES_PER_MODULE * TESTS_PER_SUITE;
    const to = Math.min(n, from + SUITES_PER_MODULE * TESTS_PER_SUITE);
    const file = `cypress/e2e/${moduleName(m)}.cy.js`;
    const rootUuid = uuid(seed, 30, m);
    const root = {
      uuid: rootUuid,
      title: '',
      fullFile: `/builds/app/${file}`,
      file,
      beforeHooks: [],
      afterHooks: [],
      tests: [],
      suites: '@@SUITES@@',
      passes: [],
      failures: [],
      pending: [],
      skipped: [],
      duration: 0,
      root: true,
      rootEmpty: true,
      _timeout: 2000,
    };
    const [rootBefore, rootAfter] = pretty(root, 2).split('"@@SUITES@@"');
    await out.put(`${m === 0 ? '' : ','}\n    ${rootBefore!}[`);
    for (let s = from / TESTS_PER_SUITE; s * TESTS_PER_SUITE < to; s++) {
      const suiteUuid = uuid(seed, 31, s);
      const title = `Service ${s} — Größe & "Umfang"`;
      const ids: Record<Status, string[]> = { passed: [], failed: [], skipped: [] };
      const tests: Record<string, unknown>[] = [];
      for (let i = s * TESTS_PER_SUITE; i < Math.min(to, (s + 1) * TESTS_PER_SUITE); i++) {
        const c = caseAt(seed, i);
        const id = uuid(seed, 32, i);
        ids[c.status].push(id);
        tests.push({
          title: c.title,
          fullTitle: `${title} ${c.title}`,
          timedOut: false,
          duration: c.status === 'skipped' ? 0 : Math.round(c.durationMs),
          state: c.status === 'skipped' ? null : c.status,
          speed: c.status === 'passed' ? (c.durationMs > 75 ? 'slow' : 'fast') : null,
          pass: c.status === 'passed',
          fail: c.status === 'failed',
          pending: c.status === 'skipped',
          context:
            c.status === 'failed'
              ? JSON.stringify(`screenshots/${moduleName(c.module)}.cy.js/${title} -- ${c.title} (failed).png`)
              : c.stdout
                ? JSON.stringify({ title: 'console', value: c.stdout })
                : null,
          code:
            `cy.visit('/basket?lang=de&size=${c.i}')\ncy.get('[data-test="total"]').should('have.text', ` +
            `${JSON.stringify(c.expected)})`,
          err:
            c.status === 'failed'
              ? {
                  message: `AssertionError: ${c.message!}`,
                  estack: jsStack(c),
                  diff: `- ${c.actual}\n+ ${c.expected}\n`,
                }
              : {},
          uuid: id,
          parentUUID: suiteUuid,
          isHook: false,
          skipped: false,
        });
      }
      const suite = {
        uuid: suiteUuid,
        title,
        fullFile: '',
        file: '',
        beforeHooks: [
          {
            title: '"before each" hook',
            fullTitle: `${title} "before each" hook`,
            timedOut: false,
            duration: 3,
            state: null,
            speed: null,
            pass: false,
            fail: false,
            pending: false,
            context: null,
            code: "cy.login('jürgen', 'geheim')",
            err: {},
            uuid: uuid(seed, 33, s),
            parentUUID: suiteUuid,
            isHook: true,
            skipped: false,
          },
        ],
        afterHooks: [],
        tests,
        suites: [],
        passes: ids.passed,
        failures: ids.failed,
        pending: ids.skipped,
        skipped: [],
        duration: tests.length * 120,
        root: false,
        rootEmpty: false,
        _timeout: 2000,
      };
      await out.put(`${s === from / TESTS_PER_SUITE ? '' : ','}\n        ${pretty(suite, 4)}`);
    }
    await out.put(`\n      ]${rootAfter!}`);
  }
  const meta = {
    mocha: { version: '10.7.3' },
    mochawesome: {
      options: {
        quiet: false,
        reportFilename: 'mochawesome',
        saveHtml: true,
        saveJson: true,
        consoleReporter: 'spec',
        useInlineDiffs: false,
        code: true,
      },
      version: '7.1.3',
    },
    marge: { options: { reportDir: 'cypress/results', overwrite: false, html: false, json: true }, version: '6.2.0' },
  };
  await out.put(`\n  ],\n  "meta": ${pretty(meta, 1)}\n}\n`);
  return n;
};

export const generator: FormatGenerator = sized('mochawesome.json', mochawesome);
