/** Capped text: TextBuffer and capText cut with the same marker, so stored texts do not depend on which one cut. */
import t from 'tap';
import {
  TextBuffer,
  capText,
  ownCopy,
  textOrNull,
  trimmedOrNull,
  truncationMarker,
} from '../../../lib/formatter/api.js';

t.test('capText and TextBuffer cut alike, in one piece or many', async (t) => {
  const cases: [text: string, limit: number, want: string][] = [
    ['abcde', 5, 'abcde'],
    ['abcdefg', 5, 'abcde\n[… truncated by Tally at 5 characters]'],
    ['', 0, ''],
    ['a', 0, '\n[… truncated by Tally at 0 characters]'],
    ['größe ✓', 3, 'grö\n[… truncated by Tally at 3 characters]'],
  ];
  for (const [text, limit, want] of cases) {
    t.equal(capText(text, limit), want, `capText(${JSON.stringify(text)}, ${limit})`);
    for (const size of [1, 2, 100]) {
      const b = new TextBuffer(limit);
      for (let i = 0; i < text.length; i += size) b.append(text.slice(i, i + size));
      t.equal(b.value(), want, `TextBuffer(${limit}) in pieces of ${size}`);
      t.equal(b.truncated, text.length > limit);
    }
  }
  t.equal(capText(null, 3), null);
  t.equal(truncationMarker(7), '[… truncated by Tally at 7 characters]');
});

t.test('textOrNull and trimmedOrNull drop layout whitespace', async (t) => {
  const cases: [text: string | null, text: string | null, trimmed: string | null][] = [
    [null, null, null],
    ['', null, null],
    ['  \n\t', null, null],
    ['\n  message\n    at x\n', '\n  message\n    at x\n', 'message\n    at x'],
  ];
  for (const [text, whole, trimmed] of cases) {
    const b = text === null ? null : new TextBuffer(100);
    if (text !== null) b!.append(text);
    t.equal(textOrNull(b), whole, JSON.stringify(text));
    t.equal(trimmedOrNull(b), trimmed, JSON.stringify(text));
  }
});

t.test('ownCopy keeps the characters', async (t) => {
  for (const s of ['', 'short', 'x'.repeat(13), 'ü'.repeat(100)]) t.equal(ownCopy(s), s);
});
