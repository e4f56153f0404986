/**
 * Line-by-line input (TAP, NDJSON event streams): each line without its end, `\r\n` or `\n`, the
 * last line too when it has no end. Backpressure: the sink is awaited after each input chunk.
 */
import type { ContainerSink } from '../formatter-api.js';

export async function forEachLine(input: AsyncIterable<string>, out: ContainerSink, onLine: (line: string, lineNumber: number) => void): Promise<void> {
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
  if (carry.length > 0) onLine(carry.endsWith('\r') ? carry.slice(0, -1) : carry, ++n);
}
