/**
 * The bench generator of this format (bench/formatters.ts runs it): TAP 14 as node:test writes it:
 * `# Subtest:` headers, YAML diagnostics on every point (failures with error, expected/actual and a
 * block-scalar stack), some subtests as indented points, console output as comments, the plan at
 * the end.
 */
import { caseAt, jsStack, moduleName, sized, tally } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

const tap: Writer = async (out, n, seed) => {
  // Block scalars keep their text; single-quoted YAML doubles its quotes.
  const q = (s: string): string => `'${s.replaceAll("'", "''").replaceAll('\n', ' ')}'`;
  // A `#` in a title would start a directive: TAP escapes it.
  const title = (s: string): string => s.replaceAll('\\', '\\\\').replaceAll('#', '\\#');
  await out.put('TAP version 14\n');
  for (let i = 0; i < n; i++) {
    const c = caseAt(seed, i);
    const location = `file:///builds/app/test/${moduleName(c.module)}/service${c.suite}.test.mjs:${c.line}:3`;
    let s = `# Subtest: ${title(c.title)}\n`;
    if (c.i % 10 === 0 && c.status === 'passed') {
      for (let k = 0; k < 2; k++)
        s +=
          `    # Subtest: case ${k} — größe\n    ok ${k + 1} - case ${k} — größe\n      ---\n      duration_ms: ` +
          `0.${100 + k}\n      ...\n`;
      s += '    1..2\n';
    }
    if (c.stdout)
      s += `${c.stdout
        .split('\n')
        .map((l) => `# ${l}`)
        .join('\n')}\n`;
    if (c.status === 'skipped')
      s +=
        `ok ${i + 1} - ${title(c.title)} # SKIP ${c.skipReason!}\n  ---\n  duration_ms: 0.012\n  location: ` +
        `${q(location)}\n  ...\n`;
    else if (c.status === 'passed')
      s +=
        `ok ${i + 1} - ${title(c.title)}\n  ---\n  duration_ms: ${c.durationMs}\n  location: ${q(location)}\n  ` +
        `...\n`;
    else {
      const stack = jsStack(c)
        .split('\n')
        .slice(1)
        .map((l) => `    ${l.trim().replace(/^at /, '')}`)
        .join('\n');
      s +=
        `not ok ${i + 1} - ${title(c.title)}\n  ---\n  duration_ms: ${c.durationMs}\n  location: ` +
        `${q(location)}\n  failureType: 'testCodeFailure'\n`;
      s += c.error
        ? `  error: ${q(c.message!)}\n  code: 'ERR_TEST_FAILURE'\n  name: 'Error'\n`
        : `  error: |-\n    Expected values to be strictly equal:\n\n    '${c.actual}' !== '${c.expected}'\n  code: ` +
          `'ERR_ASSERTION'\n  name: 'AssertionError'\n  expected: ${q(c.expected)}\n  actual: ${q(c.actual)}\n  ` +
          `operator: 'strictEqual'\n`;
      s += `  stack: |-\n${stack}\n  ...\n`;
    }
    await out.put(s);
  }
  const all = tally(seed, 0, n);
  await out.put(
    `1..${n}\n# tests ${n}\n# suites 0\n# pass ${all.passed}\n# fail ${all.failed}\n# cancelled 0\n# skipped ` +
      `${all.skipped}\n# todo 0\n# duration_ms ${n * 120}\n`,
  );
  return n;
};

export const generator: FormatGenerator = sized('results.tap', tap);
