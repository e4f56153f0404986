/** `time` values: the shared reader of the formatter kit. */
export { parseSeconds } from '../../lib/formatter/api.js';
