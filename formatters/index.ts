/**
 * The built-in formatters, one line each, sorted by key. `test/registry.test.ts` fails when a
 * folder under formatters/ is missing here.
 */
import type { Formatter } from '../lib/formatter-api.js';
import { junit } from './junit/index.js';

export const builtinFormatters: readonly Formatter[] = [junit];
