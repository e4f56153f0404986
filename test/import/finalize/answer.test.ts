/**
 * The JSON answer of an import (lib/import/finalize/answer.ts): the summary sentence, the progress percent,
 * the URLs, and which fields a completed, failed or queued import fills (DESIGN.md "Response", plus
 * the fields Calliope-style clients read).
 */
import t from 'tap';
import { message } from '../../../lib/messages.js';
import {
  answerBody,
  progressPercent,
  reportPageUrl,
  reportStatusUrl,
  summarySentence,
  type ReportSummary,
} from '../../../lib/import/finalize/answer.js';
import { zeroTotals } from '../../../lib/import/assemble/assembler.js';
import type { ImportProgress, ImportStatus, Totals } from '../../../lib/store/types.js';

const BASE = 'https://tally.example/ci';

t.test('URLs', async (t) => {
  t.equal(reportPageUrl(BASE, 17), 'https://tally.example/ci/reports/17');
  t.equal(reportStatusUrl(BASE, 17), 'https://tally.example/ci/api/v2/reports/17/status');
  t.equal(reportPageUrl('', 17), '/reports/17', 'an empty base gives a path');
});

t.test('progressPercent', async (t) => {
  const p = (bytes: number, totalBytes?: number | null): ImportProgress => ({
    bytes,
    files: 0,
    containers: 0,
    ...(totalBytes === undefined ? {} : { totalBytes }),
  });
  const cases: [status: ImportStatus, progress: ImportProgress, percent: number | null][] = [
    ['completed', p(0), 100],
    ['failed', p(10, 100), 100],
    ['queued', p(50, 100), 0],
    ['receiving', p(0, 100), 0],
    ['receiving', p(1, 100), 1],
    ['receiving', p(999, 1000), 99],
    ['processing', p(50, 100), 50],
    ['processing', p(100, 100), 99],
    ['processing', p(150, 100), 99],
    ['receiving', p(3, 7), 42],
    ['receiving', p(50), null],
    ['receiving', p(50, null), null],
    ['receiving', p(50, 0), null],
  ];
  for (const [status, progress, percent] of cases)
    t.equal(progressPercent(status, progress), percent, `${status} ${progress.bytes}/${progress.totalBytes}`);
});

function totals(o: Partial<Totals>): Totals {
  return { ...zeroTotals(), ...o };
}

function summary(files: number, t: Partial<Totals>): ReportSummary {
  return {
    date: '2025-06-01T12:00:00.000Z',
    url: `${BASE}/api/v2/reports/r1`,
    tags: [],
    files: Array.from({ length: files }, (_, i) => ({
      name: `f${i}.xml`,
      formatter: 'junit',
      producer: null,
      tests: 1,
    })),
    totals: totals(t),
  };
}

t.test('summarySentence', async (t) => {
  const warning = message('specify_formatter');
  const notice = message('containers_combined');
  const cases: [name: string, args: Parameters<typeof summarySentence>, sentence: string][] = [
    ['queued', ['queued', [warning], null], 'The import is queued; report_status_url shows its progress.'],
    [
      'failed: the first error',
      ['failed', [warning, message('zip_invalid', { detail: 'It is.' }), message('payload_too_large')], null],
      `The import failed: ${message('zip_invalid', { detail: 'It is.' }).message}`,
    ],
    ['failed without an error', ['failed', [warning], null], 'The import failed: see the messages.'],
    [
      'passed and failed are always told',
      ['completed', [], summary(1, { tests: 2, passed: 2 })],
      'Imported 2 tests from 1 file: 2 passed, 0 failed.',
    ],
    [
      'errored, skipped, pending and unknown when there are some, each by its own name as in the totals',
      [
        'completed',
        [],
        summary(3, { tests: 10, passed: 3, failed: 1, errored: 2, skipped: 1, pending: 2, unknown: 1 }),
      ],
      'Imported 10 tests from 3 files: 3 passed, 1 failed, 2 errored, 1 skipped, 2 pending, 1 unknown.',
    ],
    [
      'pending alone is pending, not skipped',
      ['completed', [], summary(1, { tests: 3, passed: 2, pending: 1 })],
      'Imported 3 tests from 1 file: 2 passed, 0 failed, 1 pending.',
    ],
    [
      'unknown alone is unknown',
      ['completed', [], summary(2, { tests: 2, failed: 1, unknown: 1 })],
      'Imported 2 tests from 2 files: 0 passed, 1 failed, 1 unknown.',
    ],
    [
      'one test',
      ['completed', [], summary(1, { tests: 1, passed: 1 })],
      'Imported 1 test from 1 file: 1 passed, 0 failed.',
    ],
    [
      'warnings are counted, notices are not',
      ['completed', [warning, notice, warning], summary(2, { tests: 2, passed: 1, failed: 1 })],
      'Imported 2 tests from 2 files: 1 passed, 1 failed (2 warnings).',
    ],
    [
      'one warning',
      ['completed', [warning], summary(1, { tests: 3, passed: 3 })],
      'Imported 3 tests from 1 file: 3 passed, 0 failed (1 warning).',
    ],
    [
      'an empty import that was allowed',
      ['completed', [], summary(0, {})],
      'Imported 0 tests from 0 files: 0 passed, 0 failed.',
    ],
  ];
  for (const [name, args, sentence] of cases) t.equal(summarySentence(...args), sentence, name);
});

t.test('answerBody', async (t) => {
  const warning = message('specify_formatter');
  const fault = message('zip_invalid');
  const report = summary(1, { tests: 1, passed: 1 });
  const progress: ImportProgress = { bytes: 300, files: 1, containers: 2, totalBytes: 300 };
  const common = { importId: 'i1', profileNumber: 4390, baseUrl: BASE };
  t.strictSame(
    answerBody({ ...common, reportNumber: 17, status: 'completed', messages: [warning], report, progress }),
    {
      import_id: 'i1',
      report_id: 17,
      profile_id: 4390,
      status: 'completed',
      import_status: 'completed',
      import_progress: 100,
      message: summarySentence('completed', [warning], report),
      report_url: `${BASE}/reports/17`,
      report_status_url: `${BASE}/api/v2/reports/17/status`,
      messages: [warning],
      report,
    },
    'completed',
  );
  t.strictSame(
    answerBody({ ...common, reportNumber: 17, status: 'queued', messages: [], report: null }),
    {
      import_id: 'i1',
      report_id: 17,
      profile_id: 4390,
      status: 'queued',
      import_status: 'queued',
      import_progress: 0,
      message: 'The import is queued; report_status_url shows its progress.',
      report_url: `${BASE}/reports/17`,
      report_status_url: `${BASE}/api/v2/reports/17/status`,
      messages: [],
      report: null,
    },
    'queued: the URLs to follow it',
  );
  // A failed import has no report, whatever id it had, and the first error is its sentence.
  const failed = {
    profile_id: 4390,
    status: 'failed',
    import_status: 'failed',
    import_progress: 100,
    message: `The import failed: ${fault.message}`,
    report_id: null,
    report_url: null,
    report_status_url: null,
    report: null,
  };
  t.strictSame(
    answerBody({ ...common, reportNumber: 17, status: 'failed', messages: [warning, fault], report: null }),
    { ...failed, import_id: 'i1', messages: [warning, fault] },
    'failed',
  );
  t.strictSame(
    answerBody({ ...common, importId: null, reportNumber: null, status: 'failed', messages: [fault], report: null }),
    { ...failed, import_id: null, messages: [fault] },
    'failed before there was an import record',
  );
});
