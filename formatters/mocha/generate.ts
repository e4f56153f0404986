/**
 * The bench generator of this format (bench/formatters.ts runs it): Mocha `--reporter json`: stats,
 * then tests, pending, failures, passes — the same entries, each section a filter over the test
 * indexes (pretty-printed with two spaces, as the reporter does).
 */
import { mochaStats, caseAt, className, jsStack, moduleName, outcomeAt, pretty, sized } from '../../bench/cases.js';
import { tally } from '../../bench/cases.js';
import type { Case, FormatGenerator, Outcome, Writer } from '../../bench/cases.js';

const mocha: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  const entry = (c: Case): Record<string, unknown> => {
    const file = `/builds/app/test/${moduleName(c.module)}/service${c.suite}.test.js`;
    const e: Record<string, unknown> = { title: c.title, fullTitle: `${className(c)} when logged in ${c.title}`, file };
    if (c.status !== 'skipped') e['duration'] = Math.round(c.durationMs);
    e['currentRetry'] = 0;
    if (c.status === 'passed') e['speed'] = c.durationMs > 75 ? 'slow' : 'fast';
    e['err'] =
      c.status !== 'failed'
        ? {}
        : c.error
          ? { stack: jsStack(c, 'Error'), message: c.message }
          : {
              stack: jsStack(c),
              message: `Expected values to be strictly equal:\n\n'${c.actual}' !== '${c.expected}'\n`,
              generatedMessage: true,
              name: 'AssertionError',
              code: 'ERR_ASSERTION',
              actual: c.actual,
              expected: c.expected,
              operator: 'strictEqual',
            };
    return e;
  };
  const stats = mochaStats(n, all);
  await out.put(`{\n  "stats": ${pretty(stats, 1)}`);
  const section = async (name: string, keep: (o: Outcome) => boolean): Promise<void> => {
    await out.put(`,\n  "${name}": [`);
    let first = true;
    for (let i = 0; i < n; i++) {
      if (!keep(outcomeAt(seed, i))) continue;
      await out.put(`${first ? '' : ','}\n    ${pretty(entry(caseAt(seed, i)), 2)}`);
      first = false;
    }
    await out.put(first ? ']' : '\n  ]');
  };
  await section('tests', () => true);
  await section('pending', (o) => o.status === 'skipped');
  await section('failures', (o) => o.status === 'failed');
  await section('passes', (o) => o.status === 'passed');
  await out.put('\n}\n');
  return n;
};

export const generator: FormatGenerator = sized('mocha-results.json', mocha);
