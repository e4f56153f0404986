/**
 * How counts and rates read, from the import's answer to every page (lib/totals.ts,
 * plugins/web/format.ts): a pass rate under 100% never reads 100% and one over 0% never 0%; each
 * status keeps its own name in the answer, the report page, the reports table and the profiles
 * page; one test is "1 test". Real imports into a real Tally on the embedded store (the store plays
 * no part in how counts are told; the store tests cover both stores).
 */
import t from 'tap';
import { junitXml } from '../helpers/junit.js';
import { file, multipart } from '../helpers/multipart.js';
import { startTally, type Harness } from '../helpers/tally.js';
import { signedIn } from '../helpers/web.js';

async function importFile(
  h: Harness,
  formatter: string,
  name: string,
  body: string,
): Promise<{ id: string; message: string; totals: Record<string, number> }> {
  const form = multipart([file('file[]', name, body, formatter === 'junit' ? 'application/xml' : 'application/json')]);
  const r = await h.send({
    path: `/api/v2/profile/${h.profileId}/import/${formatter}`,
    body: form.body,
    headers: { 'content-type': form.contentType },
  });
  if (r.status !== 201) throw new Error(`import answered ${r.status}: ${r.text}`);
  return { id: r.json.report_id as string, message: r.json.message as string, totals: r.json.report.totals };
}

function cases(passed: number, failed: number): { name: string; status?: 'failed' }[] {
  return [
    ...Array.from({ length: passed }, (_, i) => ({ name: `passes ${i}` })),
    ...Array.from({ length: failed }, (_, i) => ({ name: `fails ${i}`, status: 'failed' as const })),
  ];
}

const ctrf = JSON.stringify({
  results: {
    tool: { name: 'jest' },
    summary: { tests: 5, passed: 1, failed: 0, skipped: 1, pending: 1, other: 2, start: 1, stop: 2 },
    tests: [
      { name: 'a', status: 'passed', duration: 1 },
      { name: 'b', status: 'skipped', duration: 0 },
      { name: 'c', status: 'pending', duration: 0 },
      { name: 'd', status: 'other', duration: 0 },
      { name: 'e', status: 'other', duration: 0 },
    ],
  },
});

/** The text of the table cells of one row of the reports table, by the report it links to. */
function rowCells(page: string, reportId: string): string[] {
  const row = page.split('<tr>').find((r) => r.includes(`/reports/${reportId}"`));
  if (!row) throw new Error(`no row for ${reportId}`);
  return [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ' ').trim());
}

function headers(page: string): string[] {
  const head = /<table class="grid reports">[\s\S]*?<\/thead>/.exec(page)?.[0] ?? '';
  return [...head.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]!.trim());
}

t.test('rates near the ends, statuses by their own names, one test', async (t) => {
  const h = await startTally(t, { store: 'embedded' });
  const nearlyAll = await importFile(h, 'junit', 'TEST-all.xml', junitXml({ cases: cases(4237, 2) }));
  const nearlyNone = await importFile(h, 'junit', 'TEST-none.xml', junitXml({ cases: cases(1, 2999) }));
  const mixed = await importFile(h, 'ctrf', 'ctrf.json', ctrf);
  const one = await importFile(h, 'junit', 'TEST-one.xml', junitXml({ cases: cases(1, 0) }));

  t.equal(nearlyAll.message, 'Imported 4239 tests from 1 file: 4237 passed, 2 failed.');
  t.equal(
    mixed.message,
    'Imported 5 tests from 1 file: 1 passed, 0 failed, 1 skipped, 1 pending, 2 unknown.',
    'the message names each status as the totals count it',
  );
  t.match(mixed.totals, { tests: 5, passed: 1, skipped: 1, pending: 1, unknown: 2 }, 'the totals');
  t.equal(one.message, 'Imported 1 test from 1 file: 1 passed, 0 failed.');

  const { client } = await signedIn(h);
  const report = async (id: string) => (await client.get(`/reports/${id}`)).text;
  const all = await report(nearlyAll.id);
  t.match(all, /pass rate <strong>99\.95%<\/strong>/, '2 failures in 4,239 tests: 99.95%');
  t.notMatch(all, '100.0%', 'never 100.0%');
  t.match(all, 'status-failed');
  t.match(await report(nearlyNone.id), /pass rate <strong>0\.03%<\/strong>/, '1 pass in 3,000: 0.03%, not 0.0%');
  const m = await report(mixed.id);
  for (const [n, status] of [
    [1, 'passed'],
    [0, 'failed'],
    [1, 'skipped'],
    [1, 'pending'],
    [2, 'unknown'],
  ] as const)
    t.match(m, new RegExp(`<strong>${n}</strong> ${status}</li>`), `the report page: ${n} ${status}`);
  t.notMatch(m, '> errored</li>', 'no errored test: not named');
  t.match(m, /pass rate <strong>100%<\/strong>/, 'what did not run is out of the rate');
  t.match(await report(one.id), '<strong>1</strong> test</li>', 'the report page: 1 test');
  t.match(await report(one.id), ', 1 test</span>', 'its file: 1 test');

  const reports = (await client.get(`/profiles/${h.profileId}`)).text;
  t.strictSame(
    headers(reports),
    ['Date', 'Tags', 'Tests', 'Passed', 'Failed', 'Skipped', 'Pending', 'Unknown', 'Pass rate', 'Status', ''],
    'a column per status a report of the page has; no errored one',
  );
  t.strictSame(rowCells(reports, mixed.id).slice(2, 9), ['5', '1', '0', '1', '1', '2', '100%'], 'the mixed report');
  t.strictSame(rowCells(reports, nearlyAll.id).slice(2, 9), ['4239', '4237', '2', '0', '0', '0', '99.95%']);
  t.strictSame(rowCells(reports, nearlyNone.id).slice(2, 9), ['3000', '1', '2999', '0', '0', '0', '0.03%']);

  const profiles = (await client.get('/profiles')).text;
  t.match(profiles, '1 test: 1 passed, 0 failed', 'the profiles page tells the newest report the same way');
});
