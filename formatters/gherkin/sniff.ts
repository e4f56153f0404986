/**
 * The Gherkin vote: the first line that is not blank, a comment or a tag line is `Feature:` in the
 * file's language (`# language: xx` before it; without one, in any of Gherkin's languages). No other
 * format starts that way: TAP starts with a version, plan or test point, Go's text with
 * `=== RUN`/`ok`, XML and JSON with `<`, `{` or `[`.
 */
import { safeSniff } from '../../lib/formatter/api.js';
import { LANGUAGE_LINE, dialect, featureLanguage, headerOf, type Dialect } from './dialects.js';

/** Lines looked at before the Feature line: a long licence header fits. */
const MAX_LINES = 200;

export const sniff = safeSniff((head) => {
  if (head.kind !== 'text') return 0;
  const lines = head.text.split('\n', MAX_LINES + 1).slice(0, MAX_LINES);
  let named: Dialect | null = null;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || line.startsWith('@')) continue;
    if (line.startsWith('#')) {
      const language = LANGUAGE_LINE.exec(line);
      if (language) {
        named = dialect(language[1]!);
        if (!named) return 0;
      }
      continue;
    }
    const feature = head.extension === '.feature' ? 0.95 : 0.9;
    if (named) return named.features.some((k) => line.startsWith(k) && line.charCodeAt(k.length) === 58) ? feature : 0;
    const d = featureLanguage(line);
    if (d === null) return 0;
    // Some languages' Feature keywords are short words (`Mak:`, `Aspekt:`); without a header or the
    // extension, a Scenario, Background or Rule line of the same language must confirm them.
    if (d.code === 'en' || head.extension === '.feature') return feature;
    const confirmed = lines.some((l) => {
      const h = headerOf(d, l.trim());
      return h !== null && h.kind !== 'feature';
    });
    return confirmed ? 0.85 : 0;
  }
  return 0;
});
