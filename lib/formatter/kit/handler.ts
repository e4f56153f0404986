/**
 * A formatter's `parse` from its state machine: a factory that makes one handler per file from the
 * context and an emit function. The handler gets the file's events (SAX events, or JSON paths and
 * values) and, after the last one, `end()`, where it emits what it still holds and refuses a file
 * that was not of its format.
 */
import type { Container, Formatter, OpenedContainer, ParseContext } from '../types.js';
import { parseJson, type JsonHandler } from './json.js';
import { skipPreamble } from './preamble.js';
import { parseXml, type XmlHandler } from './xml.js';

/** What a state machine uses of the parse context: a test can drive it with just these. */
export type HandlerContext = Pick<ParseContext, 'fileName' | 'nextId' | 'limits' | 'setProducer'>;

/** How a state machine hands over each container it closes. */
export type Emit = (container: Container) => void;

/** An XML state machine: SAX events in, containers out. */
export interface XmlMachine extends XmlHandler {
  /** After the last event: emits what it still holds, refuses a file cut short or of another format. */
  end(): void;
}

/** A JSON state machine: parseJson's events in, containers out. */
export interface JsonMachine extends JsonHandler {
  /** After the last event: emits what it still holds, refuses JSON of another shape. */
  end(): void;
}

/** Makes a handler for one file. `opened` is the sink's, when it has one (see ContainerSink.opened). */
export type HandlerFactory<H> = (
  ctx: ParseContext,
  emit: (container: Container) => void,
  opened?: (container: OpenedContainer) => void,
) => H & { end(): void };

/** `parse` for an XML format: the handler's events come from parseXml. */
export function xmlParse(make: HandlerFactory<XmlHandler>): Formatter['parse'] {
  return async (input, out, ctx) => {
    const handler = make(ctx, (c) => out.emit(c), out.opened ? (c) => out.opened!(c) : undefined);
    await parseXml(input, out, handler);
    handler.end();
  };
}

export interface JsonParseOptions {
  /** The input is JSON Lines: a sequence of values (see parseJson). */
  multiple?: boolean;
  /** Text such as an npm banner may precede the report; where the report starts (see skipPreamble). */
  preamble?: { start: RegExp; what: string };
}

/** `parse` for a JSON format: the handler's events come from parseJson. */
export function jsonParse(make: HandlerFactory<JsonHandler>, options: JsonParseOptions = {}): Formatter['parse'] {
  return async (input, out, ctx) => {
    const handler = make(ctx, (c) => out.emit(c), out.opened ? (c) => out.opened!(c) : undefined);
    const text = options.preamble ? skipPreamble(input, options.preamble) : input;
    await parseJson(text, out, handler, options.multiple ? { multiple: true } : {});
    handler.end();
  };
}
