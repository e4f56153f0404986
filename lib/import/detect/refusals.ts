/**
 * Files the formatter named in the path refused (its sniff gave 0), and what the vote of the other
 * formatters says they look like, so the answer can say where to send them instead of repeating
 * "name the formatter in the path" to a client that did.
 */
import type { Formatter } from '../../formatter/api.js';

export interface Refusal {
  file: string;
  /** The formatter named in the path or form. */
  formatter: Formatter;
  /** What the other formatters' vote picked: one, several in a tie, or none. */
  looksLike: readonly Formatter[];
}

/** Files listed by name in a sentence; the rest are counted. */
const NAMES_SHOWN = 5;
/** Refusals listed in `details`. */
export const MAX_REFUSALS_KEPT = 200;

const named = (f: Formatter): string => `${f.key} ("${f.title}")`;

function nameList(files: readonly string[]): string {
  const shown = files.slice(0, NAMES_SHOWN).join(', ');
  return files.length > NAMES_SHOWN ? `${shown} and ${files.length - NAMES_SHOWN} more` : shown;
}

/** Sentences for a message's detail, one per group of files that look alike, and the same as data. */
export function describeRefusals(refusals: readonly Refusal[]): { detail: string; details: Record<string, unknown> } {
  const groups = new Map<string, { formatter: Formatter; looksLike: readonly Formatter[]; files: string[] }>();
  for (const r of refusals) {
    const key = `${r.formatter.key} ${r.looksLike.map((f) => f.key).join(' ')}`;
    const group = groups.get(key) ?? { formatter: r.formatter, looksLike: r.looksLike, files: [] };
    group.files.push(r.file);
    groups.set(key, group);
  }
  const sentences: string[] = [];
  for (const { formatter, looksLike, files } of groups.values()) {
    const one = files.length === 1;
    const [it, its] = one ? ['it', 'its'] : ['them', 'their'];
    const subject = `${nameList(files)} ${one ? 'does' : 'do'} not look like ${named(formatter)}`;
    if (looksLike.length === 0) {
      sentences.push(
        `${subject}, nor like any other format Tally reads: check ${it} (GET /api/v2/formatters lists the formats).`,
      );
    } else if (looksLike.length === 1) {
      const f = looksLike[0]!;
      sentences.push(
        `${subject}; ${its} content looks like ${named(f)}: send ${it} to /import/${f.key}, or to /import to have ` +
          'the format detected.',
      );
    } else {
      sentences.push(
        `${subject}; ${its} content looks like ${looksLike.map(named).join(' or ')}: send ${it} to ` +
          `${looksLike.map((f) => `/import/${f.key}`).join(' or ')}, whichever ${one ? 'it is' : 'they are'}.`,
      );
    }
  }
  return {
    detail: sentences.join(' '),
    details: {
      formatter: refusals[0]?.formatter.key ?? null,
      refused: refusals.slice(0, MAX_REFUSALS_KEPT).map((r) => ({
        file: r.file,
        looks_like: r.looksLike.map((f) => f.key),
      })),
    },
  };
}
