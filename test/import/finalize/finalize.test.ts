/**
 * Finalize (lib/import/finalize/finalize.ts): what the whole request decides once every file is in, case by
 * case: no file matched (SPEC 4.5 rule 7), files moved to the attachments (rule 6), no formatter
 * named and the file limit (SPEC 8), attachments not found (rule 10), merge_containers, duplicate
 * titles, empty files and an empty import (rule 13), the report date and its age. Messages come out
 * before the flags are applied (test/messages.test.ts has those). Containers live in a real store.
 */
import t from 'tap';
import { DEFAULT_LIMITS } from '../../../lib/config.js';
import { CATALOGUE, type Flag, type MessageCode } from '../../../lib/messages.js';
import { zeroTotals } from '../../../lib/import/assemble/assembler.js';
import type { ParsedFile } from '../../../lib/import/assemble/report-assembly.js';
import { finalize, type FinalizeInput, type ProcessedFiles } from '../../../lib/import/finalize/finalize.js';
import type { StoredFile, Totals } from '../../../lib/store/types.js';
import { reportStore, type Row } from '../../helpers/report-store.js';
import { junit } from '../../../formatters/junit/index.js';
import { trx } from '../../../formatters/trx/index.js';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ago = (ms: number): string => new Date(NOW.getTime() - ms).toISOString();

function stored(name: string): StoredFile {
  return { name, blobId: `blob-${name}`, size: 1, sha256: '0'.repeat(64), contentType: null, formatter: null };
}

function parsed(name: string, o: Partial<ParsedFile> = {}): ParsedFile {
  return {
    name,
    formatter: 'junit',
    producer: null,
    tests: 3,
    index: 0,
    empty: false,
    duplicates: [],
    duplicateCount: 0,
    ...o,
  };
}

function totals(tests: number): Totals {
  return { ...zeroTotals(), containers: tests + 1, tests, passed: tests };
}

const names = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}.txt`);

interface Case {
  name: string;
  files?: Partial<ProcessedFiles>;
  input?: Partial<Omit<FinalizeInput, 'store' | 'reportId' | 'files'>> & { flags?: ReadonlySet<Flag> };
  /** Containers in the store before finalize. */
  containers?: Row[];
  /** Codes in order, each with what is checked of it: its detail, its details, its file. */
  messages: [code: string, check?: { detail?: string; details?: Record<string, unknown>; file?: string }][];
  date?: string;
  /** Names of the attachments of the import after finalize. */
  attachments?: string[];
  /** Container seq → names of the files linked to it. */
  links?: Record<number, string[]>;
  /** The containers after finalize. */
  after?: Row[];
}

const suite = (seq: number, title: string, durationMs = 1): Row => [seq, null, 'suite', title, durationMs];

const cases: Case[] = [
  {
    name: 'a clean import: no messages, the earliest date of the files',
    messages: [],
    date: ago(HOUR),
    attachments: [],
  },
  {
    name: 'no file matched a formatter: that alone, dated now',
    files: { parsed: [], totals: totals(0), earliest: null },
    input: { formatterNamed: false },
    messages: [
      [
        'zero_files_matched_formatters',
        { detail: 'Check the files, or name the formatter in the path (/import/{formatter}).' },
      ],
    ],
    date: NOW.toISOString(),
    attachments: [],
  },
  {
    name: 'no file matched the named formatter: what each looks like, and where to send it',
    files: {
      parsed: [],
      unmatched: [stored('TEST-a.xml'), stored('notes.txt')],
      refused: [
        { file: 'TEST-a.xml', formatter: trx, looksLike: [junit] },
        { file: 'notes.txt', formatter: trx, looksLike: [] },
      ],
      fileCount: 2,
    },
    messages: [
      [
        'zero_files_matched_formatters',
        {
          detail:
            'Files: TEST-a.xml, notes.txt. TEST-a.xml does not look like trx ("TRX (Visual Studio test results)"); ' +
            'its content looks like junit ("JUnit XML"): send it to /import/junit, or to /import to have the ' +
            'format detected. notes.txt does not look like trx ("TRX (Visual Studio test results)"), nor like any ' +
            'other format Tally reads: check it (GET /api/v2/formatters lists the formats).',
          details: {
            files: ['TEST-a.xml', 'notes.txt'],
            formatter: 'trx',
            refused: [
              { file: 'TEST-a.xml', looks_like: ['junit'] },
              { file: 'notes.txt', looks_like: [] },
            ],
          },
        },
      ],
    ],
    attachments: [],
  },
  {
    name: 'no file matched: the files are named, 20 at most',
    files: { parsed: [], unmatched: names('f', 25).map(stored), fileCount: 25 },
    messages: [
      [
        'zero_files_matched_formatters',
        { detail: `Files: ${names('f', 20).join(', ')}, ….`, details: { files: names('f', 25) } },
      ],
    ],
    attachments: [],
  },
  {
    name: 'unmatched files beside a result file are moved to the attachments',
    files: { unmatched: [stored('notes.txt'), stored('shot.png')], attachments: [stored('log.txt')], fileCount: 3 },
    messages: [
      [
        'files_moved_to_attachments',
        { detail: 'Files: notes.txt, shot.png.', details: { files: ['notes.txt', 'shot.png'] } },
      ],
    ],
    attachments: ['log.txt', 'notes.txt', 'shot.png'],
  },
  {
    name: 'files the named formatter refused beside a result file: moved, with what they look like',
    files: {
      unmatched: [stored('a.trx'), stored('b.trx')],
      refused: [
        { file: 'a.trx', formatter: junit, looksLike: [trx] },
        { file: 'b.trx', formatter: junit, looksLike: [trx] },
      ],
      fileCount: 3,
    },
    messages: [
      [
        'files_moved_to_attachments',
        {
          detail:
            'Files: a.trx, b.trx. a.trx, b.trx do not look like junit ("JUnit XML"); their content looks like ' +
            'trx ("TRX (Visual Studio test results)"): send them to /import/trx, or to /import to have the format ' +
            'detected.',
          details: {
            files: ['a.trx', 'b.trx'],
            formatter: 'junit',
            refused: [
              { file: 'a.trx', looks_like: ['trx'] },
              { file: 'b.trx', looks_like: ['trx'] },
            ],
          },
        },
      ],
    ],
  },
  {
    name: 'many files moved: 20 named in the text, 200 in the details',
    files: { unmatched: names('u', 250).map(stored), fileCount: 251 },
    messages: [
      [
        'files_moved_to_attachments',
        { detail: `Files: ${names('u', 20).join(', ')}, ….`, details: { files: names('u', 200) } },
      ],
    ],
  },
  {
    name: 'no formatter named',
    input: { formatterNamed: false },
    messages: [['specify_formatter']],
  },
  {
    name: 'no formatter named, as many files as allowed',
    files: { fileCount: DEFAULT_LIMITS.maxFilesWithoutFormatter },
    input: { formatterNamed: false },
    messages: [['specify_formatter']],
  },
  {
    name: 'no formatter named, one file too many',
    files: { fileCount: 3 },
    input: { formatterNamed: false, limits: { ...DEFAULT_LIMITS, maxFilesWithoutFormatter: 2 } },
    messages: [
      ['specify_formatter'],
      ['max_files_limit', { detail: '3 files; the limit without a formatter is 2.', details: { files: 3, limit: 2 } }],
    ],
  },
  {
    name: 'a formatter named: the file count does not matter',
    files: { fileCount: 3 },
    input: { limits: { ...DEFAULT_LIMITS, maxFilesWithoutFormatter: 2 } },
    messages: [],
  },
  {
    name: 'attachments found are linked; those not found are told one by one',
    containers: [suite(1, 'S'), [2, 1, 'test', 'a', 1], [3, 1, 'test', 'b', 1]],
    files: {
      attachments: [stored('shots/a.png')],
      refs: [
        { seq: 2, ref: '/ci/shots/a.png' },
        { seq: 3, ref: 'b.png' },
        { seq: 3, ref: 'c.png' },
      ],
    },
    messages: [
      ['failed_to_attach_asset', { detail: 'Not found: b.png.', details: { reference: 'b.png', container: 3 } }],
      ['failed_to_attach_asset', { detail: 'Not found: c.png.', details: { reference: 'c.png', container: 3 } }],
    ],
    links: { 2: ['shots/a.png'] },
  },
  {
    name: 'a file moved to the attachments can be referred to',
    containers: [suite(1, 'S'), [2, 1, 'test', 'a', 1]],
    files: { unmatched: [stored('out.log')], refs: [{ seq: 2, ref: 'out.log' }] },
    messages: [['files_moved_to_attachments']],
    links: { 2: ['out.log'] },
  },
  {
    name: 'missing attachments: 50 told, then how many more',
    files: { refs: names('m', 53).map((ref, i) => ({ seq: i + 1, ref })) },
    messages: [
      ...names('m', 50).map((n, i): Case['messages'][number] => [
        'failed_to_attach_asset',
        { detail: `Not found: ${n}.`, details: { reference: n, container: i + 1 } },
      ]),
      ['failed_to_attach_asset', { detail: '3 more references were not found.', details: { more: 3 } }],
    ],
  },
  {
    name: 'missing attachments: one more is one reference',
    files: { refs: names('m', 51).map((ref, i) => ({ seq: i + 1, ref })) },
    messages: [
      ...names('m', 50).map((): Case['messages'][number] => ['failed_to_attach_asset']),
      ['failed_to_attach_asset', { detail: '1 more reference was not found.', details: { more: 1 } }],
    ],
  },
  {
    name: 'one duplicate title',
    files: { parsed: [parsed('a.xml', { duplicates: ['x'], duplicateCount: 1 })] },
    messages: [['duplicate_field_titles', { detail: 'a.xml: 1 duplicate, e.g. "x".' }]],
  },
  {
    name: 'no formatter named, one file over a limit of none',
    files: { fileCount: 1 },
    input: { formatterNamed: false, limits: { ...DEFAULT_LIMITS, maxFilesWithoutFormatter: 0 } },
    messages: [['specify_formatter'], ['max_files_limit', { detail: '1 file; the limit without a formatter is 0.' }]],
  },
  {
    name: 'merge_containers combines and says how many',
    containers: [suite(1, 'A', 2), suite(2, 'A', 3), suite(3, 'A', 4)],
    input: { flags: new Set<Flag>(['merge_containers']) },
    messages: [
      ['containers_combined', { detail: '2 containers were combined into others.', details: { combined: 2 } }],
    ],
    after: [suite(1, 'A', 9)],
  },
  {
    name: 'merge_containers: one container combined',
    containers: [suite(1, 'A', 2), suite(2, 'A', 3)],
    input: { flags: new Set<Flag>(['merge_containers']) },
    messages: [['containers_combined', { detail: '1 container was combined into others.' }]],
    after: [suite(1, 'A', 5)],
  },
  {
    name: 'a formatter that merges by default',
    containers: [suite(1, 'A'), suite(2, 'A')],
    files: { parsed: [parsed('x-result.json', { formatter: 'allure' })] },
    input: { mergeByDefault: new Set(['allure']) },
    messages: [
      [
        'containers_combined',
        {
          detail: '1 container was combined into others: allure results are merged by default.',
          details: { combined: 1, by_default: ['allure'] },
        },
      ],
    ],
    after: [suite(1, 'A', 2)],
  },
  {
    name: 'merging by default stays within the files of that formatter',
    containers: [
      [1, null, 'suite', 'Calc', 1, 0],
      [2, null, 'suite', 'Calc', 1, 1],
      [3, null, 'suite', 'Calc', 1, 2],
      [4, null, 'suite', 'Calc', 1, 3],
    ],
    files: {
      parsed: [
        parsed('TEST-node1.xml'),
        parsed('TEST-node2.xml', { index: 1 }),
        parsed('a-result.json', { index: 2, formatter: 'allure', tests: 1 }),
        parsed('b-result.json', { index: 3, formatter: 'allure', tests: 1 }),
      ],
    },
    input: { mergeByDefault: new Set(['allure']) },
    messages: [
      [
        'containers_combined',
        {
          detail:
            '1 container was combined into others, in the allure files only: allure results are merged by default; ' +
            'the other files are merged with merge_containers=true.',
          details: { combined: 1, by_default: ['allure'] },
        },
      ],
    ],
    after: [suite(1, 'Calc'), suite(2, 'Calc'), suite(3, 'Calc', 2)],
  },
  {
    name: 'merge_containers beside a formatter that merges by default: the whole report',
    containers: [
      [1, null, 'suite', 'Calc', 1, 0],
      [2, null, 'suite', 'Calc', 1, 1],
      [3, null, 'suite', 'Calc', 1, 2],
    ],
    files: {
      parsed: [
        parsed('TEST-node1.xml'),
        parsed('TEST-node2.xml', { index: 1 }),
        parsed('a-result.json', { index: 2, formatter: 'allure', tests: 1 }),
      ],
    },
    input: { mergeByDefault: new Set(['allure']), flags: new Set<Flag>(['merge_containers']) },
    messages: [
      ['containers_combined', { detail: '2 containers were combined into others.', details: { combined: 2 } }],
    ],
    after: [suite(1, 'Calc', 3)],
  },
  {
    name: 'a formatter that merges by default, none of its files in the import',
    containers: [suite(1, 'A'), suite(2, 'A')],
    input: { mergeByDefault: new Set(['allure']) },
    messages: [],
    after: [suite(1, 'A'), suite(2, 'A')],
  },
  {
    name: 'merge_containers with nothing to combine says nothing',
    containers: [suite(1, 'A'), suite(2, 'B')],
    input: { flags: new Set<Flag>(['merge_containers']) },
    messages: [],
    after: [suite(1, 'A'), suite(2, 'B')],
  },
  {
    name: 'without merge_containers nothing is combined',
    containers: [suite(1, 'A'), suite(2, 'A')],
    messages: [],
    after: [suite(1, 'A'), suite(2, 'A')],
  },
  {
    name: 'duplicate titles, per file, five shown',
    files: {
      parsed: [
        parsed('a.xml', { duplicates: ['x', 'y "q"', 'z', 'w', 'v', 'u'], duplicateCount: 7 }),
        parsed('b.xml', { index: 1 }),
      ],
    },
    messages: [
      [
        'duplicate_field_titles',
        {
          file: 'a.xml',
          detail: 'a.xml: 7 duplicates, e.g. "x", "y \\"q\\"", "z", "w", "v".',
          details: { titles: ['x', 'y "q"', 'z', 'w', 'v', 'u'], count: 7 },
        },
      ],
    ],
  },
  {
    name: 'an empty file beside one with tests',
    files: { parsed: [parsed('a.xml'), parsed('e.xml', { index: 1, empty: true, tests: 0, formatter: 'trx' })] },
    messages: [['import_file_resulted_in_empty_report', { file: 'e.xml', detail: 'e.xml (trx).' }]],
  },
  {
    name: 'an empty import',
    files: { parsed: [parsed('a.xml', { empty: true, tests: 0 })], totals: totals(0) },
    messages: [['import_file_resulted_in_empty_report'], ['empty_import_after_processing']],
  },
  {
    name: 'the date option wins over the files',
    input: { date: '2025-05-31T13:00:00.000Z' },
    messages: [],
    date: '2025-05-31T13:00:00.000Z',
  },
  {
    name: 'no date in the files: now',
    files: { earliest: null },
    messages: [],
    date: NOW.toISOString(),
  },
  {
    name: 'a report dated exactly a day ago is not old',
    files: { earliest: ago(DAY) },
    messages: [],
    date: ago(DAY),
  },
  {
    name: 'a report dated more than a day ago',
    files: { earliest: ago(DAY + 1) },
    messages: [
      ['report_contains_old_date', { detail: `Report date: ${ago(DAY + 1)}.`, details: { date: ago(DAY + 1) } }],
    ],
  },
  {
    name: 'an old date given with the date option is old too',
    input: { date: '2020-01-01T00:00:00.000Z' },
    messages: [['report_contains_old_date']],
  },
  {
    name: 'everything at once, in one order',
    containers: [suite(1, 'A'), suite(2, 'A')],
    files: {
      parsed: [
        parsed('a-result.json', { formatter: 'allure', duplicates: ['t'], duplicateCount: 1, empty: true, tests: 0 }),
      ],
      unmatched: [stored('x.txt')],
      refs: [{ seq: 1, ref: 'nope.png' }],
      fileCount: 3,
      totals: totals(0),
      earliest: ago(2 * DAY),
    },
    input: {
      formatterNamed: false,
      mergeByDefault: new Set(['allure']),
      limits: { ...DEFAULT_LIMITS, maxFilesWithoutFormatter: 1 },
    },
    messages: [
      ['files_moved_to_attachments'],
      ['specify_formatter'],
      ['max_files_limit'],
      ['failed_to_attach_asset'],
      ['containers_combined'],
      ['duplicate_field_titles'],
      ['import_file_resulted_in_empty_report'],
      ['empty_import_after_processing'],
      ['report_contains_old_date'],
    ],
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const r = await reportStore(t);
    if (c.containers) await r.insert(c.containers);
    const files: ProcessedFiles = {
      parsed: [parsed('a.xml')],
      unmatched: [],
      attachments: [],
      refs: [],
      fileCount: 1,
      totals: totals(3),
      earliest: ago(HOUR),
      ...c.files,
    };
    const done = await finalize({
      store: r.store,
      reportId: r.reportId,
      files,
      flags: new Set(),
      formatterNamed: true,
      mergeByDefault: new Set<string>(),
      limits: DEFAULT_LIMITS,
      now: NOW,
      date: null,
      ...c.input,
    });
    t.strictSame(
      done.messages.map((m) => m.code),
      c.messages.map(([code]) => code),
      'the messages, in order',
    );
    c.messages.forEach(([code, check], i) => {
      const m = done.messages[i];
      if (!check || !m) return;
      if ('detail' in check) {
        const text = CATALOGUE[code as MessageCode].text;
        t.equal(m.message, check.detail === undefined ? text : `${text} ${check.detail}`, `${code}: text and detail`);
      }
      if (check.details) t.strictSame(m.details, check.details, `${code}: details`);
      if (check.file) t.equal(m.file, check.file, `${code}: file`);
    });
    if (c.date) t.equal(done.date, c.date, 'the report date');
    if (c.attachments)
      t.strictSame(
        done.attachments.map((f) => f.name),
        c.attachments,
        'the attachments',
      );
    for (const [seq, linked] of Object.entries(c.links ?? {})) {
      const container = await r.container(Number(seq));
      t.strictSame(
        container?.attachments.map((a) => a.name),
        linked,
        `the files linked to container ${seq}`,
      );
    }
    if (c.after) t.strictSame(await r.rows(), c.after, 'the containers after');
  });
}
