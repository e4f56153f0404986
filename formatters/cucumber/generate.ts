/**
 * The bench generator of this format (bench/formatters.ts runs it): Cucumber JSON (cucumber-jvm):
 * an array of features (suites), each with scenarios; every third feature has a Background, written
 * again before each of its scenarios as Cucumber does.
 */
import { camel, caseAt, GHERKIN, iso, javaStack, moduleName, pretty, sized } from '../../bench/cases.js';
import { SUITES_PER_MODULE, TESTS_PER_SUITE } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

const cucumber: Writer = async (out, n, seed) => {
  await out.put('[');
  for (let s = 0; s * TESTS_PER_SUITE < n; s++) {
    const module = Math.floor(s / SUITES_PER_MODULE);
    const uri = `classpath:features/${moduleName(module)}/service_${s}.feature`;
    const featureId = `service-${s}-größe`;
    const feature = {
      line: 1,
      elements: '@@ELEMENTS@@',
      name: `Service ${s}: Größe & "Umfang"`,
      description: '  As a shopper\n  I want <accurate> totals',
      id: featureId,
      keyword: 'Feature',
      uri,
      tags: [{ name: `@${moduleName(module)}`, type: 'Tag', location: { line: 1, column: 1 } }],
    };
    const [before, after] = pretty(feature, 1).split('"@@ELEMENTS@@"');
    await out.put(`${s === 0 ? '' : ','}\n  ${before!}[`);
    const background = s % 3 === 0;
    let first = true;
    for (let i = s * TESTS_PER_SUITE; i < Math.min(n, (s + 1) * TESTS_PER_SUITE); i++) {
      const c = caseAt(seed, i);
      const stepCount = 3 + (c.i % 4);
      const failAt = c.status === 'failed' ? 1 + Math.floor(c.r() * (stepCount - 1)) : -1;
      const step = (k: number, line: number): Record<string, unknown> => {
        const [keyword, name] = GHERKIN[k % GHERKIN.length]!;
        const st =
          c.status === 'skipped'
            ? 'skipped'
            : k < failAt || failAt < 0
              ? 'passed'
              : k === failAt
                ? 'failed'
                : 'skipped';
        const result: Record<string, unknown> = {
          duration: st === 'skipped' ? 0 : Math.round((c.durationMs / stepCount) * 1e6),
          status: st,
        };
        if (st === 'failed')
          result['error_message'] = javaStack(
            c,
            c.error ? 'java.lang.IllegalStateException' : 'org.opentest4j.AssertionFailedError',
          );
        const json: Record<string, unknown> = {
          result,
          line,
          name: `${name} (#${c.i})`,
          match: { location: `com.example.steps.${camel(moduleName(c.module))}Steps.step${k}(java.lang.String)` },
          keyword,
        };
        if (k === 0 && c.stdout) json['output'] = c.stdout.split('\n');
        return json;
      };
      const t0 = 3 + c.j * 10;
      if (background) {
        const bg = {
          line: 3,
          name: 'Angemeldet',
          description: '',
          type: 'background',
          keyword: 'Background',
          steps: [step(0, 4)],
        };
        await out.put(`${first ? '' : ','}\n      ${pretty(bg, 3)}`);
        first = false;
      }
      const scenario = {
        start_timestamp: iso(c.startMs),
        before: [
          {
            result: { duration: 1_234_567, status: 'passed' },
            match: { location: 'com.example.steps.Hooks.openBrowser()' },
          },
        ],
        line: t0,
        name: c.title,
        description: '',
        id: `${featureId};${c.method.toLowerCase()}`,
        after: [
          {
            result: { duration: 345_678, status: 'passed' },
            match: { location: 'com.example.steps.Hooks.closeBrowser(io.cucumber.java.Scenario)' },
          },
        ],
        type: 'scenario',
        keyword: 'Scenario',
        steps: Array.from({ length: stepCount }, (_, k) => step(k + (background ? 1 : 0), t0 + 1 + k)),
        tags: [{ name: `@${moduleName(c.module)}` }, ...(c.status === 'skipped' ? [{ name: '@wip' }] : [])],
      };
      await out.put(`${first ? '' : ','}\n      ${pretty(scenario, 3)}`);
      first = false;
    }
    await out.put(`\n    ]${after!}`);
  }
  await out.put('\n]\n');
  return n;
};

export const generator: FormatGenerator = sized('cucumber.json', cucumber);
