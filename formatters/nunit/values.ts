/** Attribute values whose spelling differs per writer: the shared readers of the formatter kit. */
export { parseSeconds, lastPathSegment as baseName } from '../../lib/formatter/api.js';
