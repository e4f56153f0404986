// A complete Tally formatter for the plain output of Rust's test harness (`cargo test`), written as
// the walk-through of docs/writing-a-formatter.md. Plain JavaScript, an ES module (package.json says
// "type": "module"): Tally loads it with TALLY_FORMATTERS=./docs/example-formatter, and
// `tally formatter check docs/example-formatter` checks it. A plugin imports the formatter API by the
// name tally/formatter-api, wherever it sits on disk: Tally maps that name to its own API module.
import { FormatError, capText, forEachLine, newContainer } from 'tally/formatter-api';

const RESULT = /^test (\S+)(?: - should panic)? \.\.\. (ok|FAILED|ignored)(?:, .*)?$/;
const SUMMARY = /^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored/;
const HEADER = /^running \d+ tests?$/m;

export const libtest = {
  key: 'libtest',
  title: 'Rust libtest output (cargo test)',
  extensions: ['.txt', '.log'],
  mediaTypes: ['text/plain'],

  // Pure and cheap: "running N tests" followed by a "test … ... ok|FAILED|ignored" line.
  sniff(head) {
    if (head.kind !== 'text') return 0;
    if (!HEADER.test(head.text)) return 0;
    return /^test \S+ .*\.\.\. (ok|FAILED|ignored)/m.test(head.text) ? 0.9 : 0.3;
  },

  async parse(input, out, ctx) {
    ctx.setProducer('cargo test');
    // Results come first, the failure output later: keep each failed test's id until its output shows up.
    const failed = new Map();
    let results = 0;
    let summary = false;
    let current = null;
    let output = [];
    const flushOutput = () => {
      // A panic's output can be long: cut it at the import's text limit, with Tally's marker.
      if (current && failed.has(current))
        failed.get(current).failure.stack = capText(output.join('\n').trim(), ctx.limits.maxTextChars);
      current = null;
      output = [];
    };
    await forEachLine(input, out, (line) => {
      const r = RESULT.exec(line);
      if (r) {
        results++;
        const status = r[2] === 'ok' ? 'passed' : r[2] === 'FAILED' ? 'failed' : 'skipped';
        const path = r[1].split('::');
        // Fields the output does not give (times, output, properties) take their empty values.
        const test = newContainer({
          id: ctx.nextId(),
          parentId: null,
          type: 'test',
          title: path[path.length - 1],
          status,
          meta: { path: r[1] },
        });
        if (status === 'failed') {
          test.failure = { message: null, type: 'panic', stack: null };
          failed.set(r[1], test);
        } else out.emit(test);
        return;
      }
      const heading = /^---- (\S+) stdout ----$/.exec(line);
      if (heading) {
        flushOutput();
        current = heading[1];
        return;
      }
      if (line === 'failures:') return flushOutput();
      if (SUMMARY.test(line)) {
        flushOutput();
        summary = true;
        return;
      }
      if (current) {
        output.push(line);
        const panic = /panicked at [^:]+:\d+:\d+:$/.test(line);
        const t = failed.get(current);
        if (t && !t.failure.message && output.length > 1 && !panic && line.trim()) t.failure.message = line.trim();
      }
    });
    flushOutput();
    if (results === 0) throw new FormatError('No "test … ... ok|FAILED|ignored" line: this is not libtest output.');
    if (!summary) throw new FormatError('The output ends before its "test result:" line.');
    for (const t of failed.values()) out.emit(t);
  },
};
