/**
 * Messages from the catalogue (catalogue/): making one, the uncoded unused-parameters
 * warning, applying the flags, the status an answer's messages decide, and ImportFault, the input
 * fault that ends an import with one message.
 */
import { CATALOGUE, UNUSED_PARAMETERS_TEXT, type Entry, type Flag, type MessageCode } from './catalogue/index.js';
import type { Message } from './store/types.js';

export { CATALOGUE, FLAGS, UNUSED_PARAMETERS_TEXT, type Flag, type MessageCode } from './catalogue/index.js';

export function entry(code: MessageCode): Entry {
  return CATALOGUE[code];
}

/** A message of the catalogue; `detail` is added to the text after the catalogue sentence. */
export function message(
  code: MessageCode,
  opts: { detail?: string; file?: string; details?: Record<string, unknown> } = {},
): Message {
  const e: Entry = CATALOGUE[code];
  const m: Message = { severity: e.severity, code, message: opts.detail ? `${e.text} ${opts.detail}` : e.text };
  if (opts.file !== undefined) m.file = opts.file;
  if (opts.details !== undefined) m.details = opts.details;
  // SPEC 7: messages about unexpected faults carry a timestamp.
  if (code === 'internal_error' || code === 'import_generating_error' || code === 'store_unavailable')
    m.at = new Date().toISOString();
  return m;
}

/** The uncoded warning of SPEC 4.5 rule 11. */
export function unusedParameters(names: string[]): Message {
  return {
    severity: 'warning',
    code: null,
    message: `${UNUSED_PARAMETERS_TEXT}: ${names.join(', ')}. Hide with ignore_unused_parameters=true.`,
    details: { parameters: names },
  };
}

/** Applies the flags: hides or lowers the messages they name. Settled once the whole request is read. */
export function applyFlags(messages: Message[], flags: ReadonlySet<Flag>): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    if (m.code === null) {
      if (!flags.has('ignore_unused_parameters')) out.push(m);
      continue;
    }
    const e = (CATALOGUE as Record<string, Entry>)[m.code];
    if (e?.hiddenBy && flags.has(e.hiddenBy)) continue;
    if (e?.loweredBy && flags.has(e.loweredBy)) out.push({ ...m, severity: 'notice' });
    else out.push(m);
  }
  return out;
}

/** The HTTP status of an answer: the first error decides; otherwise 201. */
export function statusOf(messages: Message[]): number {
  const error = messages.find((m) => m.severity === 'error');
  if (!error || error.code === null) return 201;
  return (CATALOGUE as Record<string, Entry>)[error.code]?.status ?? 500;
}

/** The codes of the errors among `messages`, in order: what a log line of a failed answer names. */
export function errorCodes<M extends { severity: string; code: unknown }>(messages: readonly M[]): M['code'][] {
  return messages.filter((m) => m.severity === 'error').map((m) => m.code);
}

/** An input fault that ends an import with one catalogue message. Real bugs are not wrapped in this. */
export class ImportFault extends Error {
  override name = 'ImportFault';
  readonly msg: Message;
  constructor(
    code: MessageCode,
    opts: { detail?: string; file?: string; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(`${code}: ${opts.detail ?? CATALOGUE[code].text}`, { cause: opts.cause });
    this.msg = message(code, opts);
  }
  get code(): MessageCode {
    return this.msg.code as MessageCode;
  }
}
