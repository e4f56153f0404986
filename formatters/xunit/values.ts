/** Attribute values whose spelling differs per writer: the shared readers of the formatter kit. */
export { parseSeconds, parseTimeSpan, lastPathSegment as baseName } from '../../lib/formatter/api.js';
