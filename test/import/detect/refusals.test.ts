/**
 * What the answer says of files the named formatter refused (lib/import/detect/refusals.ts): grouped
 * by what they look like, with where to send them, and the same as data.
 */
import t from 'tap';
import type { Formatter } from '../../../lib/formatter/api.js';
import { describeRefusals, type Refusal } from '../../../lib/import/detect/refusals.js';

const f = (key: string, title = key.toUpperCase()): Formatter => ({
  key,
  title,
  extensions: [],
  mediaTypes: [],
  sniff: () => 0,
  parse: async () => undefined,
});
const trx = f('trx');
const junit = f('junit');
const xunit = f('xunit');
const r = (file: string, looksLike: Formatter[], formatter = trx): Refusal => ({ file, formatter, looksLike });

t.test('one sentence per group of files that look alike', async (t) => {
  const cases: [name: string, refusals: Refusal[], detail: string][] = [
    [
      'one file, one match',
      [r('a.xml', [junit])],
      'a.xml does not look like trx ("TRX"); its content looks like junit ("JUNIT"): send it to /import/junit, or ' +
        'to /import to have the format detected.',
    ],
    [
      'several files, one match',
      [r('a.xml', [junit]), r('b.xml', [junit])],
      'a.xml, b.xml do not look like trx ("TRX"); their content looks like junit ("JUNIT"): send them to ' +
        '/import/junit, or to /import to have the format detected.',
    ],
    [
      'a tie',
      [r('a.xml', [junit, xunit])],
      'a.xml does not look like trx ("TRX"); its content looks like junit ("JUNIT") or xunit ("XUNIT"): send it ' +
        'to /import/junit or /import/xunit, whichever it is.',
    ],
    [
      'nothing else wants it',
      [r('notes.txt', [])],
      'notes.txt does not look like trx ("TRX"), nor like any other format Tally reads: check it ' +
        '(GET /api/v2/formatters lists the formats).',
    ],
    [
      'groups in the order they came; five names, then a count',
      [...['1', '2', '3', '4', '5', '6', '7'].map((n) => r(`${n}.xml`, [junit])), r('n.txt', [])],
      '1.xml, 2.xml, 3.xml, 4.xml, 5.xml and 2 more do not look like trx ("TRX"); their content looks like junit ' +
        '("JUNIT"): send them to /import/junit, or to /import to have the format detected. n.txt does not look ' +
        'like trx ("TRX"), nor like any other format Tally reads: check it (GET /api/v2/formatters lists the ' +
        'formats).',
    ],
  ];
  for (const [name, refusals, detail] of cases) t.equal(describeRefusals(refusals).detail, detail, name);
});

t.test('details: the named formatter and each file with what it looks like', async (t) => {
  t.strictSame(describeRefusals([r('a.xml', [junit, xunit]), r('b', [])]).details, {
    formatter: 'trx',
    refused: [
      { file: 'a.xml', looks_like: ['junit', 'xunit'] },
      { file: 'b', looks_like: [] },
    ],
  });
});
