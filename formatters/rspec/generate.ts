/**
 * The bench generator of this format (bench/formatters.ts runs it): RSpec `--format json`: one
 * line, examples in file order, summary after them
 */
import { caseAt, className, mix, moduleName, rubyBacktrace, sized, tally } from '../../bench/cases.js';
import type { FormatGenerator, Writer } from '../../bench/cases.js';

const rspec: Writer = async (out, n, seed) => {
  const all = tally(seed, 0, n);
  await out.put(`{"version":"3.13.2","seed":${mix(seed, 0) % 65536},"examples":[`);
  for (let i = 0; i < n; i++) {
    const c = caseAt(seed, i);
    const file = `./spec/${moduleName(c.module)}/service_${c.suite}_spec.rb`;
    const e: Record<string, unknown> = {
      id: `${file}[1:${1 + Math.floor(c.j / 10)}:${1 + (c.j % 10)}]`,
      description: c.title,
      full_description: `${className(c)} when the basket is not empty ${c.title}`,
      status: c.status === 'skipped' ? 'pending' : c.status,
      file_path: file,
      line_number: c.line,
      run_time: c.durationMs / 1000,
      pending_message: c.skipReason,
    };
    if (c.status === 'failed') {
      e['exception'] = {
        class: c.error ? 'ActiveRecord::ConnectionNotEstablished' : 'RSpec::Expectations::ExpectationNotMetError',
        message: c.error
          ? c.message
          : `\nexpected: ${JSON.stringify(c.expected)}\n     got: ${JSON.stringify(c.actual)}\n\n(compared using ==)\n`,
        backtrace: rubyBacktrace(c),
      };
    }
    await out.put(`${i === 0 ? '' : ','}${JSON.stringify(e)}`);
  }
  await out.put(
    `],"summary":{"duration":${(n * 0.12).toFixed(6)},"example_count":${n},"failure_count":${all.failed},` +
      `"pending_count":${all.skipped},"errors_outside_of_examples_count":0},"summary_line":"${n} examples, ` +
      `${all.failed} failures, ${all.skipped} pending"}\n`,
  );
  return n;
};

export const generator: FormatGenerator = sized('rspec.json', rspec);
