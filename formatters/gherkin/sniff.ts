/**
 * The Gherkin vote: the first line that is not blank, a comment or a tag line is `Feature:` in the
 * file's language (`# language: xx` before it, English without). No other format starts that way:
 * TAP starts with a version, plan or test point, Go's text with `=== RUN`/`ok`, XML and JSON with
 * `<`, `{` or `[`.
 */
import { safeSniff } from '../../lib/formatter/api.js';
import { LANGUAGE_LINE, dialect } from './dialects.js';

/** Lines looked at before the Feature line: a long licence header fits. */
const MAX_LINES = 200;

export const sniff = safeSniff((head) => {
  if (head.kind !== 'text') return 0;
  const lines = head.text.split('\n', MAX_LINES + 1).slice(0, MAX_LINES);
  let d = dialect('en')!;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || line.startsWith('@')) continue;
    if (line.startsWith('#')) {
      const language = LANGUAGE_LINE.exec(line);
      if (language) {
        const named = dialect(language[1]!);
        if (!named) return 0;
        d = named;
      }
      continue;
    }
    if (!d.features.some((k) => line.startsWith(k) && line.charCodeAt(k.length) === 58)) return 0;
    return head.extension === '.feature' ? 0.95 : 0.9;
  }
  return 0;
});
