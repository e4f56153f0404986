/**
 * Text before a JSON report: `jest --json > out.json` or `mocha --reporter json > out.json` run through
 * npm puts npm's banner (`> pkg@1.0.0 test`) and console output before the report. Input that does
 * not start with JSON is read up to the line where the report starts (the caller's mark: `{` in
 * column 0 and the first key as the reporter writes it); what precedes it is dropped. Input that
 * starts with JSON passes through untouched.
 */
import { FormatError } from './errors.js';

/** Non-JSON text tolerated before the report: a banner and some console lines, not a log file. */
const MAX_PREAMBLE = 64 * 1024;
/** The mark may straddle chunks: each search starts this far back. */
const OVERLAP = 256;

/**
 * A hand-written iterator rather than an async generator: once the report has started, each chunk
 * is handed through with no extra generator step (a 1-byte-chunk import makes that count).
 */
export function skipPreamble(
  input: AsyncIterable<string>,
  mark: { start: RegExp; what: string },
): AsyncIterable<string> {
  // console.log of an object also prints `{` in column 0, so the caller's mark includes the first key.
  const START = new RegExp(mark.start.source, 'g');
  return {
    [Symbol.asyncIterator](): AsyncIterator<string> {
      const source = input[Symbol.asyncIterator]();
      let started = false;
      let carry = '';
      let from = 0;
      const begin = (text: string): IteratorResult<string> => {
        started = true;
        carry = '';
        return { done: false, value: text };
      };
      return {
        async next(): Promise<IteratorResult<string>> {
          if (started) return source.next();
          for (;;) {
            const r = await source.next();
            // Whitespace only, or text without a report: parseJson says what is wrong with it.
            if (r.done) return carry.length > 0 ? begin(carry) : r;
            carry += r.value;
            const first = /\S/.exec(carry);
            if (!first) continue;
            if (first.index === carry.search(/[{[]/)) return begin(carry);
            START.lastIndex = from;
            const m = START.exec(carry);
            if (m) return begin(carry.slice(m.index + (carry[m.index] === '\n' ? 1 : 0)));
            if (carry.length > MAX_PREAMBLE) {
              throw new FormatError(
                `No ${mark.what} starts within the first ${MAX_PREAMBLE} characters; the file looks like a log, not ` +
                  `a report`,
              );
            }
            from = Math.max(0, carry.length - OVERLAP);
          }
        },
        async return(value?: unknown): Promise<IteratorResult<string>> {
          await source.return?.(value);
          return { done: true, value: undefined };
        },
      };
    },
  };
}
