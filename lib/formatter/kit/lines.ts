/**
 * Line-by-line input (TAP, NDJSON event streams): each line without its end, `\r\n` or `\n`, the
 * last line too when it has no end. Backpressure: the sink is awaited after each input chunk.
 */
import type { ContainerSink } from '../types.js';
import { FormatError } from './errors.js';

export async function forEachLine(
  input: AsyncIterable<string>,
  out: ContainerSink,
  onLine: (line: string, lineNumber: number) => void,
): Promise<void> {
  let carry = '';
  let n = 0;
  for await (const chunk of input) {
    const text = carry + chunk;
    let start = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
      const end = i > start && text.charCodeAt(i - 1) === 13 ? i - 1 : i;
      onLine(text.slice(start, end), ++n);
      start = i + 1;
    }
    carry = text.slice(start);
    const wait = out.ready();
    if (wait) await wait;
  }
  if (carry.length > 0) onLine(carry.endsWith('\r') ? carry.slice(0, -1) : carry, n + 1);
}

/**
 * JSON Lines: each line that starts with `{` or `[` is one value, parsed whole (event streams
 * have small lines; JSON.parse per line is several times faster than a streaming tokenizer).
 * Other lines (a tool's banner, build output) are skipped; a JSON line that does not parse —
 * a file cut off mid-line — is a FormatError naming the line. Returns how many values were read.
 */
export async function forEachJsonLine(
  input: AsyncIterable<string>,
  out: ContainerSink,
  onValue: (value: unknown, lineNumber: number) => void,
): Promise<number> {
  let values = 0;
  await forEachLine(input, out, (line, n) => {
    const text = line.trim();
    if (text[0] !== '{' && text[0] !== '[') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new FormatError(`Line ${n} is not valid JSON: ${(e as Error).message}`, n, null, { cause: e });
    }
    values++;
    onValue(value, n);
  });
  return values;
}
