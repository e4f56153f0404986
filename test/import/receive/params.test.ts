/**
 * The request parameters (lib/import/receive/params.ts, SPEC part 2 and 4.5 rules 11 and 12): names
 * normalised, booleans and dates read, and what a sequence of names and values, in the order they
 * arrived, leaves behind: tags, flags, options, the messages their spelling implies, and the
 * request as received (a queued import is replayed from it).
 */
import t from 'tap';
import type { Flag } from '../../../lib/messages.js';
import { ImportFault } from '../../../lib/messages.js';
import {
  ImportParams,
  normaliseName,
  parseBoolean,
  parseReportDate,
  type NormalisedName,
} from '../../../lib/import/receive/params.js';

t.test('normaliseName', async (t) => {
  const n = (role: NormalisedName['role'], base: string, plural = false, scalar = false): NormalisedName => ({
    role,
    base,
    plural,
    scalar,
  });
  const cases: [raw: string, expected: NormalisedName][] = [
    ['file[]', n('file', 'file')],
    ['file', n('file', 'file', false, true)],
    ['files', n('file', 'file', true)],
    ['files[]', n('file', 'file', true)],
    ['attachment[]', n('attachment', 'attachment')],
    ['attachment', n('attachment', 'attachment', false, true)],
    ['attachments[]', n('attachment', 'attachment', true)],
    ['tag[]', n('tag', 'tag')],
    ['tag', n('tag', 'tag', false, true)],
    ['tags', n('tag', 'tag', true)],
    [' tag[] ', n('tag', 'tag')],
    ['formatter', n('formatter', 'formatter')],
    ['formatter[]', n('formatter', 'formatter')],
    ['formatters', n('formatter', 'formatter', true)],
    ['merge_containers', n('flag', 'merge_containers')],
    ['merge_containers[]', n('flag', 'merge_containers')],
    ['ignore_empty_import', n('flag', 'ignore_empty_import')],
    ['ignore_old_report_date', n('flag', 'ignore_old_report_date')],
    ['date', n('option', 'date')],
    ['smart', n('option', 'smart')],
    ['suppress_notifications', n('option', 'suppress_notifications')],
    ['ignore_empty_report', n('option', 'ignore_empty_report')],
    ['process_async', n('option', 'process_async')],
    ['envelope', n('option', 'envelope')],
    ['os', n('deprecated-tag', 'os')],
    ['platform', n('deprecated-tag', 'platform')],
    ['build', n('deprecated-tag', 'build')],
    ['branch', n('unknown', 'branch')],
    ['File[]', n('unknown', 'File')],
    ['file[][]', n('unknown', 'file[]')],
    ['', n('unknown', '')],
    ['[]', n('unknown', '')],
  ];
  for (const [raw, expected] of cases) t.strictSame(normaliseName(raw), expected, JSON.stringify(raw));
});

// PLURALS was a plain object, so `name in PLURALS` held for constructor, toString, __proto__, …
t.test('normaliseName: names of Object.prototype members are unknown names, not plurals', async (t) => {
  for (const raw of ['constructor', 'toString', 'hasOwnProperty', 'valueOf[]', '__proto__', '__proto__[]']) {
    const base = raw.replace('[]', '');
    t.strictSame(normaliseName(raw), { role: 'unknown', base, plural: false, scalar: false }, raw);
  }
});

t.test('parseBoolean', async (t) => {
  for (const v of ['true', '1', 'yes', 'on', 'y', 't', 'TRUE', ' True ', 'YES', 'On'])
    t.equal(parseBoolean('flag', v), true, JSON.stringify(v));
  for (const v of ['false', '0', 'no', 'off', 'n', 'f', '', '   ', 'FALSE', ' Off '])
    t.equal(parseBoolean('flag', v), false, JSON.stringify(v));
  for (const [v, shown] of [
    ['perhaps', 'perhaps'],
    ['2', '2'],
    ['tru', 'tru'],
    ['true false', 'true false'],
    ['-1', '-1'],
    ['x'.repeat(100), 'x'.repeat(40)],
  ] as const) {
    t.throws(
      () => parseBoolean('merge_containers', v),
      fault('import_validation_error', `merge_containers must be true or false, got "${shown}".`, {
        parameter: 'merge_containers',
      }),
      JSON.stringify(v.slice(0, 12)),
    );
  }
});

t.test('parseReportDate', async (t) => {
  const cases: [string, string][] = [
    ['now', 'now'],
    [' NOW ', 'now'],
    ['2024-03-01', '2024-03-01T00:00:00.000Z'],
    [' 2024-03-01 ', '2024-03-01T00:00:00.000Z'],
    ['2024-03-01T12:30', '2024-03-01T12:30:00.000Z'],
    ['2024-03-01 12:30:15', '2024-03-01T12:30:15.000Z'],
    ['2024-03-01T12:30:15.5', '2024-03-01T12:30:15.500Z'],
    ['2024-03-01T12:30:15.123456Z', '2024-03-01T12:30:15.123Z'],
    ['2024-03-01T12:30:15+02:00', '2024-03-01T10:30:15.000Z'],
    ['2024-03-01T12:30:15-0130', '2024-03-01T14:00:15.000Z'],
    ['2024-03-01T00:30+01:00', '2024-02-29T23:30:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
  ];
  for (const [v, expected] of cases) t.equal(parseReportDate(v), expected, JSON.stringify(v));
  for (const v of [
    '',
    'yesterday',
    'today',
    '1709251200',
    '2024-3-1',
    '01/03/2024',
    '2024-03-01T12',
    '2024-03-01T12:30:15+02',
    '2024-03-01Z',
    '2024-13-01',
    '2024-02-32',
    '2024-03-01T25:00',
    '2024-03-01T12:60',
    'Fri, 01 Mar 2024 12:00:00 GMT',
  ]) {
    t.throws(
      () => parseReportDate(v),
      fault('import_validation_error', `date must be "now" or an ISO 8601 date-time, got "${v.trim()}".`, {
        parameter: 'date',
      }),
      JSON.stringify(v),
    );
  }
});

// Date.parse rolls a day past the end of its month over into the next month.
t.test('parseReportDate: a day past the end of its month is refused', async (t) => {
  for (const v of ['2024-02-30', '2023-02-29', '2024-04-31', '2024-06-31T10:00:00Z', '1900-02-29'])
    t.throws(
      () => parseReportDate(v),
      fault('import_validation_error', `date must be "now" or an ISO 8601 date-time, got "${v}".`, {
        parameter: 'date',
      }),
      `${v} is refused, not read as a day of the next month`,
    );
  for (const v of ['2024-02-29', '2000-02-29', '2024-01-31', '2024-12-31T23:59:59Z'])
    t.ok(parseReportDate(v), `${v} is a day of its month`);
});

t.test('parseReportDate: a date in the future is refused past the clock-skew allowance', async (t) => {
  const now = new Date('2024-03-01T12:00:00.000Z');
  const future = (v: string) =>
    fault(
      'import_validation_error',
      `date "${v}" is in the future: more than 5 minutes ahead of this server's clock (2024-03-01T12:00:00.000Z), ` +
        'or 14 hours more without a zone. Send the time the tests ran, or date=now.',
      { parameter: 'date' },
    );
  // With a zone: 5 minutes of clock skew.
  t.equal(parseReportDate('2024-03-01T12:05:00Z', now), '2024-03-01T12:05:00.000Z', '5 minutes ahead is skew');
  t.equal(parseReportDate('2024-03-01T14:05:00+02:00', now), '2024-03-01T12:05:00.000Z', 'the zone counts');
  for (const v of ['2024-03-01T12:05:01Z', '2024-03-01T14:06:00+02:00', '2031-01-01T00:00:00Z'])
    t.throws(() => parseReportDate(v, now), future(v), v);
  // Without a zone (read as UTC): a local time east of UTC may be up to 14 hours ahead.
  t.equal(parseReportDate('2024-03-02T02:05:00', now), '2024-03-02T02:05:00.000Z', 'a local time at +14:00');
  t.equal(parseReportDate('2024-03-02', now), '2024-03-02T00:00:00.000Z', "tomorrow's date somewhere east");
  for (const v of ['2024-03-02T02:05:01', '2024-03-03', '2099-12-31'])
    t.throws(() => parseReportDate(v, now), future(v), v);
  t.equal(parseReportDate('now', now), 'now');
  t.equal(parseReportDate('2001-01-01', now), '2001-01-01T00:00:00.000Z', 'the past is fine');
});

/** A form field or query value, or a file part (its name and file name). */
type Item = [name: string, value: string] | { part: string; fileName?: string };

interface Outcome {
  tags: string[];
  flags: Flag[];
  formatterField: string | null;
  date: string | null;
  smart: boolean;
  suppressNotifications: boolean;
  processAsync: boolean;
  /** Codes of the messages, with their details. */
  messages: [code: string | null, details: unknown][];
}

const DEFAULTS: Outcome = {
  tags: [],
  flags: [],
  formatterField: null,
  date: null,
  smart: true,
  suppressNotifications: false,
  processAsync: false,
  messages: [],
};

interface Case {
  name: string;
  items: Item[];
  /** What differs from DEFAULTS. */
  expected?: Partial<Outcome>;
  /** The fault of the item that was refused (items after it are not given). */
  fault?: { code: string; detail: string; details: Record<string, unknown> };
  /** The request as received; by default every field value and file name under its raw name, in order. */
  received?: Record<string, string[]>;
}

const plural = (...names: string[]): [string, unknown] => ['parameter_plural_made_singular', { parameters: names }];
const scalar = (...names: string[]): [string, unknown] => ['parameter_not_array_type', { parameters: names }];
const unused = (...names: string[]): [null, unknown] => [null, { parameters: names }];
const deprecated: [string, unknown] = ['tag_params_deprecated', undefined];

const cases: Case[] = [
  { name: 'nothing sent', items: [] },
  {
    name: 'tags: trimmed, empty ones dropped, each kept once, in order',
    items: [
      ['tag[]', 'b'],
      ['tag[]', ' a '],
      ['tag[]', 'b'],
      ['tag[]', ''],
      ['tag[]', '   '],
      ['tag[]', 'os:linux'],
    ],
    expected: { tags: ['b', 'a', 'os:linux'] },
  },
  {
    name: 'a repeatable name without [] is taken, with parameter_not_array_type naming it once',
    items: [
      ['tag', 'a'],
      ['tag', 'b'],
      ['file', 'x.xml'],
      ['attachment', 'y.png'],
    ],
    expected: { tags: ['a', 'b'], messages: [scalar('tag', 'file', 'attachment')] },
  },
  {
    name: 'plural names are made singular, with a notice naming them as sent',
    items: [
      ['tags', 'a'],
      ['tags[]', 'b'],
      ['formatters', 'junit'],
      ['tags', 'c'],
    ],
    expected: { tags: ['a', 'b', 'c'], formatterField: 'junit', messages: [plural('tags', 'tags[]', 'formatters')] },
  },
  {
    name: 'os, platform and build become tags, with one deprecation warning',
    items: [
      ['os', 'linux'],
      ['platform', ' x64 '],
      ['build', ''],
      ['tag[]', 'os:linux'],
    ],
    expected: { tags: ['os:linux', 'platform:x64'], messages: [deprecated] },
  },
  {
    name: 'flags are set by any true spelling',
    items: [
      ['merge_containers', 'true'],
      ['ignore_old_report_date', '1'],
      ['suppress_files_moved', 'yes'],
      ['ignore_unused_parameters', 'ON'],
      ['ignore_invalid_file_type', 'false'],
    ],
    expected: {
      flags: ['merge_containers', 'ignore_old_report_date', 'suppress_files_moved', 'ignore_unused_parameters'],
    },
  },
  {
    name: 'a flag sent twice: the last value wins',
    items: [
      ['merge_containers', 'true'],
      ['ignore_empty_import', 'false'],
      ['merge_containers', 'false'],
      ['ignore_empty_import', 'true'],
    ],
    expected: { flags: ['ignore_empty_import'] },
  },
  {
    name: 'a flag with [] is the flag, without a message',
    items: [['merge_containers[]', 'true']],
    expected: { flags: ['merge_containers'] },
  },
  {
    name: "ignore_empty_report is Calliope's ignore_empty_import, either may undo the other",
    items: [
      ['ignore_empty_report', 'true'],
      ['ignore_empty_import', 'false'],
      ['ignore_empty_report', 'false'],
      ['ignore_empty_import', 'true'],
    ],
    expected: { flags: ['ignore_empty_import'] },
  },
  {
    name: 'options',
    items: [
      ['smart', 'false'],
      ['suppress_notifications', 'on'],
      ['process_async', '1'],
      ['envelope', 'anything at all'],
      ['date', '2024-03-01'],
    ],
    expected: {
      smart: false,
      suppressNotifications: true,
      processAsync: true,
      date: '2024-03-01T00:00:00.000Z',
    },
  },
  {
    name: 'scalars sent twice: the last value wins',
    items: [
      ['formatter', 'junit'],
      ['date', 'now'],
      ['smart', 'false'],
      ['process_async', 'true'],
      ['formatter', ' nunit3 '],
      ['date', '2024-03-01T10:00:00Z'],
      ['smart', 'true'],
      ['process_async', 'no'],
    ],
    expected: { formatterField: 'nunit3', date: '2024-03-01T10:00:00.000Z' },
  },
  {
    name: 'unknown names are listed once each, in the order they came',
    items: [
      ['foo', '1'],
      ['branch', 'main'],
      ['foo', '2'],
      ['File[]', 'x'],
      ['', 'nameless'],
    ],
    expected: { messages: [unused('foo', 'branch', 'File[]', '')] },
  },
  {
    name: '__proto__ and constructor are names like any other',
    items: [
      ['__proto__', 'x'],
      ['constructor', 'y'],
      ['tag[]', 'a'],
    ],
    expected: { tags: ['a'], messages: [unused('__proto__', 'constructor')] },
  },
  {
    name: 'the messages come in one order: plural, not array, deprecated, unused',
    items: [
      ['foo', '1'],
      ['os', 'linux'],
      ['tag', 'a'],
      ['tags', 'b'],
    ],
    expected: { tags: ['os:linux', 'a', 'b'], messages: [plural('tags'), scalar('tag'), deprecated, unused('foo')] },
  },
  {
    name: 'file parts: their file names are received, their spelling noted',
    items: [
      { part: 'file[]', fileName: 'a.xml' },
      { part: 'file', fileName: 'b.xml' },
      { part: 'files[]' },
      { part: 'attachment[]', fileName: 'shot.png' },
      { part: 'screenshot', fileName: 'x.png' },
      { part: 'file[]', fileName: 'c.zip' },
    ],
    expected: { messages: [plural('files[]'), scalar('file'), unused('screenshot')] },
    received: {
      'file[]': ['a.xml', 'c.zip'],
      file: ['b.xml'],
      'files[]': [''],
      'attachment[]': ['shot.png'],
      screenshot: ['x.png'],
    },
  },
  {
    name: 'a file part under a field name is neither received nor noted',
    items: [
      { part: 'tag[]', fileName: 'tags.txt' },
      { part: 'tags', fileName: 'tags.txt' },
      { part: 'os', fileName: 'x' },
    ],
    received: {},
  },
  {
    name: 'a file name sent as a plain field is received, carries no file',
    items: [
      ['file[]', 'a.xml'],
      ['attachment[]', 'b.png'],
    ],
  },
  {
    name: 'a flag that is not a boolean',
    items: [
      ['tag[]', 'a'],
      ['merge_containers', 'perhaps'],
    ],
    fault: {
      code: 'import_validation_error',
      detail: 'merge_containers must be true or false, got "perhaps".',
      details: { parameter: 'merge_containers' },
    },
  },
  {
    name: 'a boolean option that is not a boolean',
    items: [['process_async', 'later']],
    fault: {
      code: 'import_validation_error',
      detail: 'process_async must be true or false, got "later".',
      details: { parameter: 'process_async' },
    },
  },
  {
    name: 'a date that is not one',
    items: [['date', 'yesterday']],
    fault: {
      code: 'import_validation_error',
      detail: 'date must be "now" or an ISO 8601 date-time, got "yesterday".',
      details: { parameter: 'date' },
    },
  },
  {
    name: 'a tag of 256 characters is kept',
    items: [['tag[]', 'x'.repeat(256)]],
    expected: { tags: ['x'.repeat(256)] },
  },
  {
    name: 'a tag of 257 characters is refused',
    items: [['tag[]', 'x'.repeat(257)]],
    fault: {
      code: 'import_validation_error',
      detail: 'A tag is longer than 256 characters.',
      details: { parameter: 'tag[]' },
    },
  },
  {
    name: '200 tags, and one of them again, are kept',
    items: [...Array.from({ length: 200 }, (_, i): Item => ['tag[]', `t${i}`]), ['tag[]', 't7']],
    expected: { tags: Array.from({ length: 200 }, (_, i) => `t${i}`) },
  },
  {
    name: 'a 201st tag is refused',
    items: Array.from({ length: 201 }, (_, i): Item => ['tag[]', `t${i}`]),
    fault: { code: 'import_validation_error', detail: 'More than 200 tags.', details: { parameter: 'tag[]' } },
  },
  {
    name: 'deprecated tag parameters count towards the 200',
    items: [...Array.from({ length: 200 }, (_, i): Item => ['tag[]', `t${i}`]), ['os', 'linux']],
    fault: { code: 'import_validation_error', detail: 'More than 200 tags.', details: { parameter: 'tag[]' } },
  },
];

function outcome(p: ImportParams): Outcome {
  return {
    tags: [...p.tags],
    flags: [...p.flags],
    formatterField: p.formatterField,
    date: p.date,
    smart: p.smart,
    suppressNotifications: p.suppressNotifications,
    processAsync: p.processAsync,
    messages: p.messages().map((m) => [m.code, m.details]),
  };
}

for (const c of cases) {
  t.test(`ImportParams: ${c.name}`, async (t) => {
    const p = new ImportParams();
    const given: Item[] = [];
    let refused: unknown = null;
    for (const item of c.items) {
      try {
        if (Array.isArray(item)) p.addValue(item[0], item[1]);
        else p.notePart(item.part, item.fileName);
        given.push(item);
      } catch (e) {
        refused = e;
        break;
      }
    }
    if (c.fault) {
      t.ok(refused instanceof ImportFault, 'refused');
      const f = refused as ImportFault;
      t.strictSame(
        { code: f.code, detail: f.message.slice(f.code.length + 2), details: f.msg.details },
        c.fault,
        'with its fault',
      );
      t.equal(given.length, c.items.length - 1, 'at the last item');
      return;
    }
    if (refused) throw refused;
    t.strictSame(outcome(p), { ...DEFAULTS, ...c.expected }, 'what it left');
    const received = Object.create(null) as Record<string, string[]>;
    for (const item of given) {
      if (Array.isArray(item)) (received[item[0]] ??= []).push(item[1]);
      else (received[item.part] ??= []).push(item.fileName ?? '');
    }
    t.strictSame(Object.entries(p.received), Object.entries(c.received ?? received), 'the request as received');
    t.equal(Object.getPrototypeOf(p.received), null, 'received has no prototype');
  });
}

t.test('ImportParams: a name of Object.prototype is received as sent, the prototype untouched', async (t) => {
  const p = new ImportParams();
  p.addValue('__proto__', 'x');
  p.addValue('constructor', 'y');
  p.notePart('toString', 'z.xml');
  t.strictSame(Object.entries(p.received), [
    ['__proto__', ['x']],
    ['constructor', ['y']],
    ['toString', ['z.xml']],
  ]);
  t.equal(Object.getPrototypeOf(p.received), null);
  t.equal(({} as Record<string, unknown>).x, undefined, 'Object.prototype untouched');
});

function fault(code: string, detail: string, details: Record<string, unknown>) {
  return { name: 'ImportFault', code, message: `${code}: ${detail}`, msg: { code, details } };
}
