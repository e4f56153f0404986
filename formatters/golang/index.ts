/**
 * Go `go test -json` / `go tool test2json` event streams (also gotestsum `--jsonfile`). See
 * README.md beside this file.
 */
import { forEachLine, FormatError } from '../../lib/formatter/api.js';
import type { ContainerSink, Formatter, ParseContext } from '../../lib/formatter/api.js';
import { assertEvents, goHandler, type GoEvent } from './parse.js';
import { sniff } from './sniff.js';

async function parse(input: AsyncIterable<string>, out: ContainerSink, ctx: ParseContext): Promise<void> {
  const handler = goHandler(ctx, (container) => out.emit(container));
  let events = 0;
  let lines = 0;
  let brokenLine = 0;
  let endsWithNewline = true;
  const tracked = (async function* () {
    for await (const chunk of input) {
      if (chunk.length > 0) endsWithNewline = chunk.endsWith('\n');
      yield chunk;
    }
  })();
  await forEachLine(tracked, out, (line, n) => {
    lines = n;
    const e = readEvent(line);
    if (e === undefined) brokenLine = n;
    else if (e !== null) {
      events++;
      handler.event(e);
    }
  });
  // Non-JSON lines are go's own build output and are skipped, but a last line that opens a JSON
  // object and never closes it is a file cut short.
  if (brokenLine > 0 && brokenLine === lines && !endsWithNewline) {
    throw new FormatError(
      'The last line is an unfinished JSON event: the go test -json output looks truncated',
      lines,
      null,
    );
  }
  assertEvents(events);
  handler.end();
}

/** An event; null for a line that is not an event; undefined for a line that starts JSON but is not. */
function readEvent(line: string): GoEvent | null | undefined {
  const text = line.trim();
  if (!text.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  return typeof (value as { Action?: unknown }).Action === 'string' ? (value as GoEvent) : null;
}

export const golang = {
  key: 'golang',
  title: 'Go test2json (go test -json)',
  extensions: ['.json', '.jsonl', '.ndjson', '.txt'],
  mediaTypes: ['application/x-ndjson', 'application/jsonl', 'application/json', 'text/plain'],
  sniff,
  parse,
} satisfies Formatter;
