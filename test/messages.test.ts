/**
 * The flags' effect on messages and the status an answer gets (lib/messages.ts): SPEC part 2 says
 * which flag silences or lowers which message (SPEC 7.2 "way to silence or fix"); the first error
 * decides the HTTP status. The import applies them once the whole request is read.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  applyFlags,
  CATALOGUE,
  FLAGS,
  message,
  statusOf,
  unusedParameters,
  type Flag,
  type MessageCode,
} from '../lib/messages.js';
import type { Message } from '../lib/store/types.js';

/** Every effect a flag has on a message: the SPEC part 2 table, and nothing else. */
const EFFECTS: [flag: Flag, code: MessageCode | null, effect: 'hidden' | 'notice'][] = [
  ['ignore_empty_import', 'empty_import_after_processing', 'notice'],
  ['suppress_files_moved', 'files_moved_to_attachments', 'notice'],
  ['ignore_invalid_file_type', 'invalid_file_mime_type', 'hidden'],
  ['ignore_unused_parameters', null, 'hidden'],
  ['ignore_unspecified_formatter', 'specify_formatter', 'hidden'],
  ['ignore_max_files_limit', 'max_files_limit', 'hidden'],
  ['ignore_old_report_date', 'report_contains_old_date', 'hidden'],
];

const codes = Object.keys(CATALOGUE) as MessageCode[];
// Built once: the messages about unexpected faults carry the time they were made.
const ALL: Message[] = [...codes.map((code) => message(code)), unusedParameters(['foo', 'bar'])];

t.test('applyFlags: each flag alone, on every message', async (t) => {
  t.strictSame(applyFlags(ALL, new Set()), ALL, 'no flag: every message as it was');
  for (const flag of FLAGS) {
    const expected: Message[] = [];
    for (const m of ALL) {
      const effect = EFFECTS.find(([f, code]) => f === flag && code === m.code)?.[2];
      if (effect === 'hidden') continue;
      expected.push(effect === 'notice' ? { ...m, severity: 'notice' } : m);
    }
    t.strictSame(applyFlags(ALL, new Set([flag])), expected, flag);
  }
});

t.test('applyFlags: several flags and messages, in order', async (t) => {
  const input = [
    message('specify_formatter'),
    unusedParameters(['x']),
    message('empty_import_after_processing'),
    message('files_moved_to_attachments', { detail: 'Files: a.txt.' }),
    message('failed_to_attach_asset'),
  ];
  const flags = new Set<Flag>(['ignore_unspecified_formatter', 'ignore_empty_import', 'merge_containers']);
  const out = applyFlags(input, flags);
  t.strictSame(
    out.map((m) => [m.code, m.severity]),
    [
      [null, 'warning'],
      ['empty_import_after_processing', 'notice'],
      ['files_moved_to_attachments', 'warning'],
      ['failed_to_attach_asset', 'warning'],
    ],
  );
  t.equal(input[2]!.severity, 'error', 'the messages given are not changed');
  t.equal(out[1]!.message, input[2]!.message, 'a lowered message keeps its text');
});

t.test('applyFlags: a code not in the catalogue passes as it is', async (t) => {
  const odd: Message = { severity: 'warning', code: 'from_elsewhere', message: 'x' };
  t.strictSame(applyFlags([odd], new Set(FLAGS)), [odd]);
});

t.test('every code with a status other than 201 is an error: it fails the answer it is in', async (t) => {
  for (const code of codes) {
    const e = CATALOGUE[code];
    if (e.status !== 201) t.equal(e.severity, 'error', `${code} (${e.status})`);
    else t.not(e.severity, 'error', `${code} (201)`);
  }
});

t.test('statusOf', async (t) => {
  const cases: [name: string, messages: Message[], status: number][] = [
    ['no messages', [], 201],
    ['warnings and notices', [message('specify_formatter'), message('containers_combined')], 201],
    ['a lowered error', applyFlags([message('empty_import_after_processing')], new Set(['ignore_empty_import'])), 201],
    [
      'the first error decides',
      [message('specify_formatter'), message('payload_too_large'), message('zip_invalid')],
      413,
    ],
    ['an error not in the catalogue', [{ severity: 'error', code: 'from_elsewhere', message: 'x' }], 500],
    ['an uncoded error', [{ severity: 'error', code: null, message: 'x' }], 201],
  ];
  for (const [name, messages, status] of cases) t.equal(statusOf(messages), status, name);
  for (const code of codes) {
    const e = CATALOGUE[code];
    if (e.severity === 'error') t.equal(statusOf([message(code)]), e.status, `${code} alone: ${e.status}`);
  }
});

// The key texts once sent people to the account page for a key it shows only masked.
t.test('the key messages point to what exists: a key shown once, and the ways to issue a new one', async (t) => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const usage = await readFile(path.join(root, 'bin/tally.ts'), 'utf8');
  const accountPage = await readFile(path.join(root, 'plugins/web/pages/account.ts'), 'utf8');
  for (const code of ['missing_api_key', 'invalid_api_key'] as const) {
    const text = CATALOGUE[code].text;
    t.notMatch(text, /key is on the account page/i, `${code}: no key to find on the account page`);
    t.match(text, /shown only once/, `${code}: says a key is shown once`);
  }
  const invalid = CATALOGUE.invalid_api_key.text;
  t.match(invalid, '`tally key rotate --account ID`');
  t.match(usage, 'tally key rotate --account ID', 'the command it names exists');
  t.match(invalid, '"Rotate the API key" on the Account page');
  t.match(accountPage, 'Rotate the API key', 'the button it names exists');
});
