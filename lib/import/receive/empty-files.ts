/**
 * file[] parts that held no bytes. A zero-byte part with a file name is still a file someone meant
 * to send (a runner that crashed, or was still writing): the answer names it, instead of saying the
 * form holds no file.
 */
import { ImportFault, message } from '../../messages.js';
import type { Message } from '../../store/types.js';

const MAX_LISTED = 20;

/** How an empty part is named in messages: its file name, or its field when it had none. */
export function emptyPartName(field: string, fileName: string | undefined): string {
  const name = fileName?.split(/[\\/]/).pop();
  return name ? name : `${field} (a part without a file name)`;
}

function listed(names: readonly string[]): { detail: string; file: string; details: Record<string, unknown> } {
  const shown = names.slice(0, MAX_LISTED).join(', ');
  return {
    detail: `Empty: ${shown}${names.length > MAX_LISTED ? ', …' : ''}.`,
    file: names[0]!,
    details: { files: names.slice(0, 200) },
  };
}

/** Every file part was empty: the import has nothing to read. */
export function emptyFilesFault(names: readonly string[]): ImportFault {
  return new ImportFault('empty_result_file', listed(names));
}

/** Some file parts were empty beside others that were not: they are left out, and the answer says so. */
export function emptyFilesSkipped(names: readonly string[]): Message {
  return message('empty_result_file_skipped', listed(names));
}
