/**
 * What a catalogue entry is: its severity, the HTTP status it implies, the flag that hides or lowers
 * it (the flags of SPEC part 2), where it comes from, and its text.
 */
import type { Severity } from '../store/types.js';

export type Flag =
  | 'merge_containers'
  | 'ignore_empty_import'
  | 'suppress_files_moved'
  | 'ignore_invalid_file_type'
  | 'ignore_unused_parameters'
  | 'ignore_unspecified_formatter'
  | 'ignore_max_files_limit'
  | 'ignore_old_report_date';

export const FLAGS: readonly Flag[] = [
  'merge_containers',
  'ignore_empty_import',
  'suppress_files_moved',
  'ignore_invalid_file_type',
  'ignore_unused_parameters',
  'ignore_unspecified_formatter',
  'ignore_max_files_limit',
  'ignore_old_report_date',
];

export interface Entry {
  severity: Severity;
  /** HTTP status the code implies when it decides the answer. */
  status: number;
  /** The flag that hides the message entirely. */
  hiddenBy?: Flag;
  /** The flag that lowers the message to `notice`. */
  loweredBy?: Flag;
  /** Where the code comes from: SPEC part 7, or Tally's own. */
  origin: 'spec' | 'tally';
  text: string;
}
