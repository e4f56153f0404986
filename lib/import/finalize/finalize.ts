/**
 * Finalize: everything that depends on the whole request, settled once every part is in — moved
 * files, attachment resolution, merging, duplicate titles, empty checks, the report date.
 * Returns messages before flags are applied; the run (complete.ts) applies them and decides.
 */
import type { Limits } from '../../config.js';
import { message, type Flag } from '../../messages.js';
import type { Message, StoredFile, Totals } from '../../store/types.js';
import type { Store } from '../../store/store.js';
import { counted } from '../../totals.js';
import type { AttachmentRef } from '../assemble/assembler.js';
import type { ParsedFile } from '../assemble/report-assembly.js';
import { describeRefusals, type Refusal } from '../detect/refusals.js';
import { resolveAttachments } from './attachments.js';
import { mergeContainers } from './merge.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_MISSING_LISTED = 50;

/** What finalize reads of the files (the facts the uploads gathered). */
export interface ProcessedFiles {
  parsed: readonly ParsedFile[];
  /** Files and entries no formatter claimed. */
  unmatched: readonly StoredFile[];
  /** Those the named formatter refused, with what they look like (the first ones). */
  refused?: readonly Refusal[];
  attachments: readonly StoredFile[];
  refs: AttachmentRef[];
  /** Result files seen, zip entries counted one by one (SPEC 8). */
  fileCount: number;
  totals: Totals;
  earliest: string | null;
}

export interface FinalizeInput {
  store: Store;
  reportId: string;
  files: ProcessedFiles;
  flags: ReadonlySet<Flag>;
  /** The formatter was named (path or form). */
  formatterNamed: boolean;
  /**
   * Keys of the formatters that merge their own files by default (`mergeContainersByDefault`): the
   * containers of those files are combined among themselves even without `merge_containers`.
   */
  mergeByDefault: ReadonlySet<string>;
  limits: Limits;
  now: Date;
  /** The `date` option: the report date to use instead of the detected one. */
  date: string | null;
}

export interface Finalized {
  messages: Message[];
  date: string;
  attachments: StoredFile[];
}

export async function finalize(i: FinalizeInput): Promise<Finalized> {
  const p = i.files;
  const messages: Message[] = [];
  const attachments = [...p.attachments];

  // A named formatter that refused files: say what they look like instead of "name the formatter".
  const refused = p.refused?.length ? describeRefusals(p.refused) : null;
  if (p.parsed.length === 0) {
    const names = p.unmatched.map((f) => f.name);
    const listed = names.length > 0 ? `Files: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}.` : '';
    messages.push(
      message('zero_files_matched_formatters', {
        detail: refused
          ? `${listed} ${refused.detail}`.trim()
          : i.formatterNamed
            ? listed || undefined
            : `${listed} Check the files, or name the formatter in the path (/import/{formatter}).`.trim(),
        details: { files: names.slice(0, 200), ...refused?.details },
      }),
    );
    return { messages, date: i.now.toISOString(), attachments };
  }
  if (p.unmatched.length > 0) {
    attachments.push(...p.unmatched);
    const names = p.unmatched.map((f) => f.name);
    const listed = `Files: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}.`;
    messages.push(
      message('files_moved_to_attachments', {
        detail: refused ? `${listed} ${refused.detail}` : listed,
        details: { files: names.slice(0, 200), ...refused?.details },
      }),
    );
  }
  if (!i.formatterNamed) {
    messages.push(message('specify_formatter'));
    const limit = i.limits.maxFilesWithoutFormatter;
    if (p.fileCount > limit) {
      messages.push(
        message('max_files_limit', {
          detail: `${counted(p.fileCount, 'file')}; the limit without a formatter is ${limit}.`,
          details: { files: p.fileCount, limit },
        }),
      );
    }
  }

  const { links, missing } = resolveAttachments(p.refs, attachments);
  for (const [seq, list] of links) await i.store.containers.update(i.reportId, seq, { attachments: list });
  for (const m of missing.slice(0, MAX_MISSING_LISTED)) {
    messages.push(
      message('failed_to_attach_asset', {
        detail: `Not found: ${m.ref}.`,
        details: { reference: m.ref, container: m.seq },
      }),
    );
  }
  if (missing.length > MAX_MISSING_LISTED) {
    messages.push(
      message('failed_to_attach_asset', {
        detail: `${more(missing.length - MAX_MISSING_LISTED)} not found.`,
        details: { more: missing.length - MAX_MISSING_LISTED },
      }),
    );
  }

  const merged = await merge(i);
  if (merged) messages.push(merged);

  for (const f of p.parsed) {
    if (f.duplicateCount > 0) {
      messages.push(
        message('duplicate_field_titles', {
          file: f.name,
          detail: `${f.name}: ${counted(f.duplicateCount, 'duplicate')}, e.g. ${f.duplicates
            .slice(0, 5)
            .map((t) => JSON.stringify(t))
            .join(', ')}.`,
          details: { titles: f.duplicates, count: f.duplicateCount },
        }),
      );
    }
    if (f.empty)
      messages.push(
        message('import_file_resulted_in_empty_report', { file: f.name, detail: `${f.name} (${f.formatter}).` }),
      );
  }
  if (p.totals.tests === 0) messages.push(message('empty_import_after_processing'));

  const date = i.date ?? p.earliest ?? i.now.toISOString();
  if (i.now.getTime() - Date.parse(date) > DAY_MS)
    messages.push(message('report_contains_old_date', { detail: `Report date: ${date}.`, details: { date } }));
  return { messages, date, attachments };
}

function more(n: number): string {
  return n === 1 ? '1 more reference was' : `${n} more references were`;
}

function combinedText(n: number): string {
  return `${n === 1 ? '1 container was' : `${n} containers were`} combined into others`;
}

/**
 * `merge_containers` combines across the whole report. Without it, only the files of a formatter
 * that merges by default are combined, among themselves: an Allure result file repeats its suites,
 * so its results form one tree only when merged, while the JUnit files of the same zip stay as
 * they were sent.
 */
async function merge(i: FinalizeInput): Promise<Message | null> {
  if (i.flags.has('merge_containers')) {
    const combined = await mergeContainers(i.store, i.reportId);
    return combined === 0
      ? null
      : message('containers_combined', { detail: `${combinedText(combined)}.`, details: { combined } });
  }
  const files = i.files.parsed.filter((f) => i.mergeByDefault.has(f.formatter));
  if (files.length === 0) return null;
  const combined = await mergeContainers(i.store, i.reportId, new Set(files.map((f) => f.index)));
  if (combined === 0) return null;
  const keys = [...new Set(files.map((f) => f.formatter))].sort();
  const others = files.length < i.files.parsed.length;
  return message('containers_combined', {
    detail:
      `${combinedText(combined)}${others ? `, in the ${keys.join(', ')} files only` : ''}: ` +
      `${keys.join(', ')} results are merged by default` +
      (others ? '; the other files are merged with merge_containers=true.' : '.'),
    details: { combined, by_default: keys },
  });
}
