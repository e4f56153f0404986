import t from 'tap';
import { IllegalReferenceFilter, TextBuffer } from '../../lib/formatter/api.js';

t.test('illegal references are repaired across every chunk boundary', async (t) => {
  const text = 'a&#27;b&#x1b;c&#65;d&amp;e&#0;';
  for (let size = 1; size <= text.length; size++) {
    const f = new IllegalReferenceFilter();
    let out = '';
    for (let i = 0; i < text.length; i += size) out += f.push(text.slice(i, i + size));
    out += f.end();
    t.equal(out, 'a\uFFFDb\uFFFDc&#65;d&amp;e\uFFFD', `chunks of ${size}`);
  }
});

t.test('TextBuffer keeps the limit and marks the cut', async (t) => {
  const b = new TextBuffer(5);
  b.append('abc');
  b.append('defg');
  t.equal(b.truncated, true);
  t.match(b.value(), /^abcde\n\[… truncated by Tally at 5 characters\]$/);
  const whole = new TextBuffer(5);
  whole.append('abcde');
  t.equal(whole.truncated, false);
  t.equal(whole.value(), 'abcde');
});
