/**
 * The request parameters of SPEC part 2, collected from the query string and form fields as they
 * arrive, in any order. Names are normalised here once: `[]` suffix, plural aliases, deprecated tag
 * parameters. What they imply (notices, warnings) is returned as messages; unknown names are kept
 * for the uncoded warning.
 */
import { FLAGS, ImportFault, message, unusedParameters, type Flag } from '../../messages.js';
import type { Message, ReportCi } from '../../store/types.js';
import { CI_FIELDS, CiParams } from './ci-params.js';

const REPEATABLE = new Set(['file', 'attachment', 'tag']);
// A Map, not an object literal: `name in {...}` held for constructor, toString, __proto__ and the
// other members of Object.prototype, which were reported as plural names.
const PLURALS: ReadonlyMap<string, string> = new Map([
  ['files', 'file'],
  ['attachments', 'attachment'],
  ['tags', 'tag'],
  ['formatters', 'formatter'],
]);
const DEPRECATED_TAGS = new Set(['os', 'platform', 'build']);
const FLAG_SET: ReadonlySet<string> = new Set(FLAGS);
/**
 * Options Calliope-style clients send beyond SPEC part 2: known, never reported as unused.
 * `envelope` is accepted without effect (older clients send it).
 */
const OPTIONS = new Set([
  'date',
  'smart',
  'suppress_notifications',
  'ignore_empty_report',
  'process_async',
  'envelope',
]);
const BOOLEAN_OPTIONS = new Set(['smart', 'suppress_notifications', 'ignore_empty_report', 'process_async']);
const MAX_TAGS = 200;
const MAX_TAG_CHARS = 256;

export type ParamRole =
  'file' | 'attachment' | 'tag' | 'formatter' | 'flag' | 'option' | 'deprecated-tag' | 'ci' | 'unknown';

export interface NormalisedName {
  role: ParamRole;
  /** Singular name without `[]`: 'file', 'tag', 'merge_containers', 'os', ... */
  base: string;
  plural: boolean;
  /** A repeatable name sent without `[]`. */
  scalar: boolean;
}

export function normaliseName(raw: string): NormalisedName {
  let name = raw.trim();
  const array = name.endsWith('[]');
  if (array) name = name.slice(0, -2);
  const plural = PLURALS.has(name);
  const base = PLURALS.get(name) ?? name;
  const scalar = REPEATABLE.has(base) && !array && !plural;
  let role: ParamRole = 'unknown';
  if (base === 'file' || base === 'attachment' || base === 'tag' || base === 'formatter') role = base;
  else if (FLAG_SET.has(base)) role = 'flag';
  else if (OPTIONS.has(base)) role = 'option';
  else if (DEPRECATED_TAGS.has(base)) role = 'deprecated-tag';
  else if (CI_FIELDS.has(base)) role = 'ci';
  return { role, base, plural, scalar };
}

const TRUE = new Set(['true', '1', 'yes', 'on', 'y', 't']);
const FALSE = new Set(['false', '0', 'no', 'off', 'n', 'f', '']);

export function parseBoolean(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw new ImportFault('import_validation_error', {
    detail: `${name} must be true or false, got "${value.slice(0, 40)}".`,
    details: { parameter: name },
  });
}

export class ImportParams {
  readonly tags: string[] = [];
  readonly flags = new Set<Flag>();
  formatterField: string | null = null;
  /** `date`: the report date to use instead of the detected one ('now' resolved at finalize). */
  date: string | null = null;
  /** `smart` (default true): a formatter may group or sort for readability. */
  smart = true;
  suppressNotifications = false;
  processAsync = false;
  /** Everything as received, for the import record. */
  // No prototype: a parameter named `__proto__` is a name like any other (it used to end the import
  // with internal_error).
  readonly received: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  private readonly unused = new Set<string>();
  private readonly plurals = new Set<string>();
  private readonly scalars = new Set<string>();
  private deprecatedTags = false;
  private readonly ci = new CiParams();

  /** Notes the name of any parameter (field or file part) and what its spelling implies. */
  noteName(raw: string): NormalisedName {
    const n = normaliseName(raw);
    if (n.plural) this.plurals.add(raw);
    if (n.scalar) this.scalars.add(raw);
    if (n.role === 'unknown') this.unused.add(raw);
    return n;
  }

  /** A file part: its name and file name are kept with the request, so a replay notes the same names. */
  notePart(raw: string, fileName: string | undefined): NormalisedName {
    const n = normaliseName(raw);
    if (n.role === 'file' || n.role === 'attachment' || n.role === 'unknown') {
      (this.received[raw] ??= []).push(fileName ?? '');
      return this.noteName(raw);
    }
    return n;
  }

  /** A text value from the query string or a form field. */
  addValue(raw: string, value: string): void {
    // Kept whole (fields are bounded by TALLY_MAX_FIELD_BYTES): a queued import is replayed from these.
    (this.received[raw] ??= []).push(value);
    const n = this.noteName(raw);
    switch (n.role) {
      case 'tag':
        this.addTag(value);
        break;
      case 'deprecated-tag':
        this.deprecatedTags = true;
        if (value.trim()) this.addTag(`${n.base}:${value.trim()}`);
        break;
      case 'flag':
        if (parseBoolean(n.base, value)) this.flags.add(n.base as Flag);
        else this.flags.delete(n.base as Flag);
        break;
      case 'formatter':
        this.formatterField = value.trim();
        break;
      case 'option':
        this.addOption(n.base, value);
        break;
      case 'ci':
        this.ci.add(n.base, value);
        break;
      case 'file':
      case 'attachment':
        // A file name sent as a plain field carries no file: the form is still checked for file parts.
        break;
      case 'unknown':
        break;
    }
  }

  private addOption(name: string, value: string): void {
    if (BOOLEAN_OPTIONS.has(name)) {
      const on = parseBoolean(name, value);
      if (name === 'smart') this.smart = on;
      else if (name === 'suppress_notifications') this.suppressNotifications = on;
      else if (name === 'process_async') this.processAsync = on;
      // Calliope's name for ignore_empty_import.
      else if (name === 'ignore_empty_report') {
        if (on) this.flags.add('ignore_empty_import');
        else this.flags.delete('ignore_empty_import');
      }
      return;
    }
    if (name === 'date') this.date = parseReportDate(value);
  }

  private addTag(value: string): void {
    const tag = value.trim();
    if (!tag) return;
    if (tag.length > MAX_TAG_CHARS)
      throw new ImportFault('import_validation_error', {
        detail: `A tag is longer than ${MAX_TAG_CHARS} characters.`,
        details: { parameter: 'tag[]' },
      });
    if (this.tags.includes(tag)) return;
    if (this.tags.length >= MAX_TAGS)
      throw new ImportFault('import_validation_error', {
        detail: `More than ${MAX_TAGS} tags.`,
        details: { parameter: 'tag[]' },
      });
    this.tags.push(tag);
  }

  /** The report's CI context (the `ci_*` fields); null when none was sent. */
  ciContext(): ReportCi | null {
    return this.ci.context();
  }

  /** Messages implied by the names and values received so far; flags are applied later. */
  messages(): Message[] {
    const out: Message[] = [];
    if (this.plurals.size > 0)
      out.push(
        message('parameter_plural_made_singular', {
          detail: `Names: ${[...this.plurals].join(', ')}.`,
          details: { parameters: [...this.plurals] },
        }),
      );
    if (this.scalars.size > 0)
      out.push(
        message('parameter_not_array_type', {
          detail: `Names: ${[...this.scalars].join(', ')}.`,
          details: { parameters: [...this.scalars] },
        }),
      );
    if (this.deprecatedTags) out.push(message('tag_params_deprecated'));
    out.push(...this.ci.messages());
    if (this.unused.size > 0) out.push(unusedParameters([...this.unused]));
    return out;
  }
}

/**
 * How far ahead of this server's clock a `date` may be: CI runners' clocks drift a little. A date
 * or time without a zone is read as UTC, so a local time east of UTC is ahead of it by up to the
 * largest zone offset (+14:00): that much more is allowed for it.
 */
export const DATE_SKEW_MS = 5 * 60 * 1000;
export const NAIVE_DATE_EXTRA_MS = 14 * 60 * 60 * 1000;

/**
 * `date=now` or an ISO 8601 date-time (a date alone is midnight UTC); anything else is refused, as
 * are days past the end of their month and dates in the future (beyond the allowances above).
 */
export function parseReportDate(value: string, now: Date = new Date()): string {
  const v = value.trim();
  if (v.toLowerCase() === 'now') return 'now';
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/.exec(v);
  // A time without a zone is read as UTC, like the report dates formatters read.
  const t = m ? Date.parse(`${m[1]}T${m[2] ?? '00:00:00'}${m[3] ?? 'Z'}`) : NaN;
  // Date.parse reads 2024-02-30 as 2024-03-01: the day must be one of its month.
  if (Number.isNaN(t) || !isCalendarDay(m![1]!))
    throw new ImportFault('import_validation_error', {
      detail: `date must be "now" or an ISO 8601 date-time, got "${v.slice(0, 40)}".`,
      details: { parameter: 'date' },
    });
  if (t > now.getTime() + DATE_SKEW_MS + (m![3] ? 0 : NAIVE_DATE_EXTRA_MS))
    throw new ImportFault('import_validation_error', {
      detail:
        `date "${v.slice(0, 40)}" is in the future: more than ${DATE_SKEW_MS / 60_000} minutes ahead of this ` +
        `server's clock (${now.toISOString()}), or ${NAIVE_DATE_EXTRA_MS / 3_600_000} hours more without a zone. ` +
        'Send the time the tests ran, or date=now.',
      details: { parameter: 'date' },
    });
  return new Date(t).toISOString();
}

function isCalendarDay(ymd: string): boolean {
  const [y, mo, d] = ymd.split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
}
