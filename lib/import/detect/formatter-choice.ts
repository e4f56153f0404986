/**
 * Which formatter reads a file: the one named (path or form), if its sniff accepts the head; else
 * the vote of the candidates (all formatters, or those taking a raw body's media type). A tie is a
 * fault of that file (`multiple_formatter_match`); no match leaves the file unmatched. A file the
 * named formatter refuses is put to the others' vote too, so the answer can say what it looks like.
 */
import type { Formatter, Head } from '../../formatter/api.js';
import { scoreOf, vote, type Registry } from '../../formatter/registry.js';
import { ImportFault } from '../../messages.js';
import { MAX_REFUSALS_KEPT, type Refusal } from './refusals.js';

export class FormatterChoice {
  /** Files the named formatter refused, with what the others' vote says they are (the first ones). */
  readonly refused: Refusal[] = [];

  constructor(
    private named: Formatter | null,
    private readonly candidates: readonly Formatter[],
  ) {}

  /** The formatter named in the path or the form, or null when it is detected. */
  get formatter(): Formatter | null {
    return this.named;
  }

  /**
   * Names the formatter after files were read (a `formatter` form field). `sofar` is what the files
   * read so far were detected as: naming the same formatter they all got changes nothing.
   */
  name(formatter: Formatter, sofar: { files: number; unmatched: number; formatters: readonly string[] }): void {
    const agrees = sofar.unmatched === 0 && sofar.formatters.every((key) => key === formatter.key);
    if (sofar.files > 0 && this.named?.key !== formatter.key && !agrees) {
      throw new ImportFault('import_validation_error', {
        detail: 'The formatter field must come before the files in the form; or name the formatter in the path.',
        details: { parameter: 'formatter' },
      });
    }
    this.named = formatter;
  }

  choose(head: Head, name: string): Formatter | null {
    const named = this.named;
    if (named) {
      if (scoreOf(named, head) > 0) return named;
      if (this.refused.length < MAX_REFUSALS_KEPT) {
        const v = vote(
          this.candidates.filter((f) => f !== named),
          head,
        );
        const looksLike = v.kind === 'match' ? [v.formatter] : v.kind === 'tie' ? v.formatters : [];
        this.refused.push({ file: name, formatter: named, looksLike });
      }
      return null;
    }
    const v = vote(this.candidates, head);
    if (v.kind === 'tie') {
      const keys = v.formatters.map((f) => f.key);
      throw new ImportFault('multiple_formatter_match', {
        detail: `${name} matches ${keys.join(', ')}.`,
        file: name,
        details: { formatters: keys },
      });
    }
    return v.kind === 'match' ? v.formatter : null;
  }
}

/** The formatter of a key from the path, the form or a queued import; `invalid_formatter` when none. */
export function lookupFormatter(registry: Registry, key: string): Formatter {
  const f = registry.get(key);
  if (!f) {
    throw new ImportFault('invalid_formatter', {
      detail: `"${key.slice(0, 60)}" is not one of: ${registry
        .all()
        .map((x) => x.key)
        .join(', ')}.`,
      details: { formatter: key.slice(0, 60) },
    });
  }
  return f;
}

/**
 * Who votes on a raw body of this media type: every formatter taking it. A named formatter must be
 * one of them; it reads the body, and the others' vote only says what a body it refuses looks like.
 */
export function rawBodyCandidates(
  registry: Registry,
  formatter: Formatter | null,
  mediaType: string,
): readonly Formatter[] {
  const takers = registry.byMediaType(mediaType);
  const candidates = formatter && !takers.includes(formatter) ? [] : takers;
  if (candidates.length === 0) {
    const who = formatter ? `the formatter ${formatter.key} (${formatter.mediaTypes.join(', ')})` : 'any formatter';
    throw new ImportFault('import_content_type_error', {
      detail: `${mediaType} is not a content type of ${who}.`,
      details: { content_type: mediaType },
    });
  }
  return candidates;
}
