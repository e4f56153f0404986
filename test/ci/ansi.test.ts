/**
 * The ANSI converter of CI logs, by table: SGR colours and weights as classes of a fixed set, every
 * other escape dropped (cursor moves, erasing, OSC 8 links, titles), hostile text left as text for
 * the page to escape, the style carried from chunk to chunk and an escape cut at a chunk's end read
 * whole with the next.
 */
import t from 'tap';
import { ansiRuns, classesOf, PLAIN, styleOf, type AnsiStyle } from '../../lib/ci/ansi.js';

const E = '\u001b';
/** Runs as [classes, text] pairs, the shortest way to read a table. */
const pairs = (text: string, from?: AnsiStyle): [string, string][] =>
  ansiRuns(text, from).runs.map((r) => [r.classes, r.text]);

const TABLE: [string, string, [string, string][]][] = [
  ['plain text', 'hello\nworld\n', [['', 'hello\nworld\n']]],
  [
    'a colour and reset',
    `${E}[31mred${E}[0m plain`,
    [
      ['ansi-fg-1', 'red'],
      ['', ' plain'],
    ],
  ],
  [
    'reset with no parameter',
    `${E}[32mgreen${E}[m plain`,
    [
      ['ansi-fg-2', 'green'],
      ['', ' plain'],
    ],
  ],
  ['bold and colour at once', `${E}[1;33mwarn`, [['ansi-fg-3 ansi-bold', 'warn']]],
  ['bright colours and backgrounds', `${E}[91;104mx`, [['ansi-fg-9 ansi-bg-12', 'x']]],
  [
    'default colour',
    `${E}[31ma${E}[39mb`,
    [
      ['ansi-fg-1', 'a'],
      ['', 'b'],
    ],
  ],
  [
    'bold off (22)',
    `${E}[1ma${E}[22mb`,
    [
      ['ansi-bold', 'a'],
      ['', 'b'],
    ],
  ],
  ['italic, underline, dim', `${E}[2;3;4mx`, [['ansi-dim ansi-italic ansi-underline', 'x']]],
  ['256 colours: the first 16', `${E}[38;5;9mx`, [['ansi-fg-9', 'x']]],
  [
    '256 colours beyond 16: plain',
    `${E}[38;5;200mx${E}[1my`,
    [
      ['', 'x'],
      ['ansi-bold', 'y'],
    ],
  ],
  ['true colour: plain, the rest read', `${E}[38;2;255;0;0;1mx`, [['ansi-bold', 'x']]],
  ['<script> stays text', `${E}[31m<script>alert(1)</script>`, [['ansi-fg-1', '<script>alert(1)</script>']]],
  [
    'an OSC 8 link: the text kept, the link gone',
    `${E}]8;;javascript:alert(1)${E}\\click${E}]8;;${E}\\`,
    [['', 'click']],
  ],
  ['an OSC ended by BEL (a title)', `${E}]0;title\u0007after`, [['', 'after']]],
  ['cursor moves and erasing dropped', `a${E}[2K${E}[1A${E}[10;20Hb${E}[?25l`, [['', 'ab']]],
  ['SGR with a private marker is no colour', `${E}[>4;2mx`, [['', 'x']]],
  ['charset and keypad escapes dropped', `${E}(B${E}=x`, [['', 'x']]],
  ['C1 CSI (U+009B) and other controls dropped', 'a\u009b31mb\u0000c\u0007d\u007f', [['', 'a31mbcd']]],
  ['carriage returns become line ends', 'a\r\nb\rc', [['', 'a\nb\nc']]],
  ['a lone ESC before text', `${E}${E}[31mx`, [['ansi-fg-1', 'x']]],
  ['tabs kept', 'a\tb', [['', 'a\tb']]],
  ['a DCS string dropped', `${E}Pq#0;2;0;0;0${E}\\x`, [['', 'x']]],
];

for (const [name, input, expected] of TABLE)
  t.test(name, async (t) => {
    t.strictSame(pairs(input), expected);
    t.equal(ansiRuns(input).pending, 0, 'nothing held back');
  });

t.test('the style is carried to the next chunk, by its classes as a page hands them back', async (t) => {
  const first = ansiRuns(`${E}[1;31mred and bold`);
  t.equal(classesOf(first.style), 'ansi-fg-1 ansi-bold');
  const back = styleOf(classesOf(first.style));
  t.strictSame(pairs('still', back), [['ansi-fg-1 ansi-bold', 'still']]);
  t.strictSame(
    styleOf('ansi-fg-16 onclick=x ansi-bg-3 "><b> ansi-underline'),
    {
      ...PLAIN,
      bg: 3,
      underline: true,
    },
    'only our class names are read',
  );
});

t.test('an escape cut at the end is held back, and read whole with the next chunk', async (t) => {
  for (const cut of [`${E}`, `${E}[`, `${E}[1;3`, `${E}]8;;https://x`, `${E}(`]) {
    const r = ansiRuns(`ok${cut}`);
    t.strictSame(r.runs, [{ classes: '', text: 'ok' }], JSON.stringify(cut));
    t.equal(r.pending, cut.length, `${JSON.stringify(cut)} held back`);
    t.equal(ansiRuns(`ok${cut}`, PLAIN, true).pending, 0, 'dropped when the log has ended');
  }
  const whole = `${E}[1;31mx`;
  const r1 = ansiRuns(`a${whole.slice(0, 4)}`);
  const r2 = ansiRuns(whole, r1.style);
  t.strictSame(
    [...r1.runs, ...r2.runs],
    [
      { classes: '', text: 'a' },
      { classes: 'ansi-fg-1 ansi-bold', text: 'x' },
    ],
  );
  const long = `${E}]0;${'x'.repeat(5000)}`;
  t.equal(ansiRuns(long).pending, 0, 'an unended OSC beyond 4 KiB is not held back for ever');
  t.notOk(
    ansiRuns(long).runs.some((r) => r.text.includes(E)),
    'and its ESC is dropped',
  );
});

t.test('no ESC or control character ever reaches a run', async (t) => {
  let text = '';
  for (let i = 0; i < 2000; i++) text += String.fromCharCode((i * 7919) % 160) + (i % 13 === 0 ? `${E}[` : '');
  for (const r of ansiRuns(text, PLAIN, true).runs) {
    // eslint-disable-next-line no-control-regex
    t.notMatch(r.text, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    t.match(r.classes, /^(ansi-[a-z0-9-]+( |$))*$/);
  }
});
