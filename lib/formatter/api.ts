/**
 * The public formatter API: the one module a formatter may import.
 *
 * A formatter is a plain object (`satisfies Formatter`). Tally hands it the decoded text of one
 * result file as an async iterable of string chunks; the formatter emits containers to the sink as
 * it closes them and never builds the whole tree. Plumbing (decoding, backpressure, limits,
 * teardown) belongs to Tally, not to the formatter.
 */

export * from './types.js';
export { FormatError, isFormatError } from './kit/errors.js';
export { parseXml, IllegalReferenceFilter, localName, type XmlHandler } from './kit/xml.js';
export { TextBuffer, textOrNull, trimmedOrNull } from './kit/text.js';
export { worstStatus } from './kit/status.js';
export { parseTimestamp, fromEpochMs, type Instant } from './kit/time.js';
export { parseJson, type JsonHandler, type JsonPath } from './kit/json.js';
export { forEachLine, forEachJsonLine } from './kit/lines.js';
export { parseSeconds, parseTimeSpan, lastPathSegment } from './kit/values.js';
export { skipPreamble } from './kit/preamble.js';
export { jsonValueStart } from './kit/json-head.js';
export { asString, asNumber, asRecord, asList } from './kit/json-values.js';
