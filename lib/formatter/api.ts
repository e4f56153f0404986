/**
 * The public formatter API: the one module a formatter may import.
 *
 * A formatter is a plain object (`satisfies Formatter`). Tally hands it the decoded text of one
 * result file as an async iterable of string chunks; the formatter emits containers to the sink as
 * it closes them and never builds the whole tree. Plumbing (decoding, backpressure, limits,
 * teardown) belongs to Tally, not to the formatter. The kit below carries what formatters share:
 * the streaming readers, a handler-driven `parse`, containers, statuses, capped text and values.
 */
export * from './types.js';
export { FormatError, isFormatError } from './kit/errors.js';
export {
  parseXml,
  IllegalReferenceFilter,
  localName,
  wrongRootError,
  noRootError,
  unclosedRootError,
  type XmlHandler,
} from './kit/xml.js';
export { TextBuffer, textOrNull, trimmedOrNull, capText, truncationMarker, ownCopy } from './kit/text.js';
export { worstStatus, suiteStatus, worseOf, SEVERITY } from './kit/status.js';
export { stepResultStatus, ScenarioVerdict, SCENARIO_SEVERITY } from './kit/step-results.js';
export { splitErrorName, errorFailure } from './kit/js-errors.js';
export { newContainer, closeContainer, erroredTest, type ContainerFields, type OpenFields } from './kit/container.js';
export { Stack, ElementStack } from './kit/stack.js';
export {
  xmlParse,
  jsonParse,
  type HandlerFactory,
  type HandlerContext,
  type Emit,
  type XmlMachine,
  type JsonMachine,
  type JsonParseOptions,
} from './kit/handler.js';
export { parseTimestamp, fromEpochMs, type Instant, type Timing } from './kit/time.js';
export { parseJson, type JsonHandler, type JsonPath } from './kit/json.js';
export { JsonObjectRoot } from './kit/json-root.js';
export { JsonSuiteStack, type JsonSuite } from './kit/json-suites.js';
export { firstProducer } from './kit/producer.js';
export { forEachLine, forEachJsonLine } from './kit/lines.js';
export { peekFirst } from './kit/peek.js';
export {
  parseSeconds,
  parseTimeSpan,
  lastPathSegment,
  secondsToMs,
  roundMs,
  fileTitle,
  lowerWord,
} from './kit/values.js';
export { skipPreamble } from './kit/preamble.js';
export { XML_FILES, JSON_FILES } from './kit/files.js';
export { jsonValueStart, jsonStringValue, flatObjectText } from './kit/json-head.js';
export { safeSniff, prefixedRoot } from './kit/sniff.js';
export { asString, asNumber, asNonNegative, asRecord, isRecord, asList, parseJsonObject } from './kit/json-values.js';
