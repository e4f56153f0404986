/**
 * The message catalogue: every code of SPEC part 7 (spec-codes.ts), and Tally's own codes where the
 * spec shows none (tally-codes.ts), with those of CI links (ci-codes.ts), retention
 * (retention-codes.ts) and notifications (notify-codes.ts) apart. One entry per code (entry.ts). A
 * shipped code is never reused for something else. `test/readme.test.ts` fails when README's table and this disagree.
 */
import { SPEC_CODES } from './spec-codes.js';
import { TALLY_CODES } from './tally-codes.js';
import { CI_CODES } from './ci-codes.js';
import { RETENTION_CODES } from './retention-codes.js';
import { NOTIFY_CODES } from './notify-codes.js';

export { FLAGS, type Entry, type Flag } from './entry.js';

export const CATALOGUE = {
  ...SPEC_CODES,
  ...TALLY_CODES,
  ...CI_CODES,
  ...RETENTION_CODES,
  ...NOTIFY_CODES,
} as const;

export type MessageCode = keyof typeof CATALOGUE;

export const UNUSED_PARAMETERS_TEXT = 'Parameters the import does not use were ignored';
