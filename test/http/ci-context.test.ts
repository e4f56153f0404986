/**
 * The `ci_*` fields of an import (lib/import/receive/ci-params.ts), on both stores: kept on the
 * report and read back as its `ci`, null when none was sent, a bad value left out with
 * `ci_context_invalid`, and the reports list and the history comparison filtered by branch (API, the
 * page's JSON twin and the history page).
 */
import t from 'tap';
import { junitXml } from '../helpers/junit.js';
import { field, file, multipart, type Part } from '../helpers/multipart.js';
import { startTally, storeKinds, type Harness } from '../helpers/tally.js';

const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';

async function importWith(h: Harness, fields: [string, string][]) {
  const parts: Part[] = [
    ...fields.map(([n, v]) => field(n, v)),
    file('file[]', 'TEST-a.xml', junitXml({ suite: 'a' })),
  ];
  const { body, contentType } = multipart(parts);
  const r = await h.send({
    path: `/api/v2/profile/${h.profileId}/import/junit`,
    headers: { 'content-type': contentType },
    body,
  });
  if (r.status !== 201) throw new Error(`import answered ${r.status}: ${JSON.stringify(r.json)}`);
  return r.json as { report_id: number; messages: { code: string | null; message: string; details?: unknown }[] };
}

for (const kind of storeKinds(t)) {
  t.test(`${kind}: the CI context is kept and read back`, async (t) => {
    const h = await startTally(t, { store: kind });
    const sent = await importWith(h, [
      ['ci_provider', 'GitHub'],
      ['ci_build_number', '42'],
      ['ci_build_url', 'https://github.com/octo/app/actions/runs/1658821493'],
      ['ci_branch', 'feature/login'],
      ['ci_commit', SHA.toUpperCase()],
      ['ci_job', 'test'],
    ]);
    t.same(
      sent.messages.filter((m) => m.code === 'ci_context_invalid'),
      [],
      'no warning for good values',
    );
    const report = await h.send({ method: 'GET', path: `/api/v2/reports/${sent.report_id}` });
    t.same(report.json.ci, {
      provider: 'github',
      build_number: '42',
      build_url: 'https://github.com/octo/app/actions/runs/1658821493',
      branch: 'feature/login',
      commit: SHA,
      job: 'test',
    });

    const none = await importWith(h, []);
    const plain = await h.send({ method: 'GET', path: `/api/v2/reports/${none.report_id}` });
    t.equal(plain.json.ci, null, 'null when no ci_* field was sent');

    const bad = await importWith(h, [
      ['ci_provider', 'teamcity'],
      ['ci_build_url', 'javascript:alert(1)'],
      ['ci_commit', 'HEAD'],
      ['ci_branch', 'main'],
      ['ci_job', ''],
    ]);
    const warning = bad.messages.find((m) => m.code === 'ci_context_invalid');
    t.ok(warning, 'bad values are warned about');
    t.same((warning?.details as { parameters: string[] }).parameters, ['ci_provider', 'ci_build_url', 'ci_commit']);
    t.match(warning?.message, /ci_build_url: not an http\(s\) URL/);
    const kept = await h.send({ method: 'GET', path: `/api/v2/reports/${bad.report_id}` });
    t.same(
      kept.json.ci,
      { provider: null, build_number: null, build_url: null, branch: 'main', commit: null, job: null },
      'bad values are left out, good ones kept',
    );

    const byBranch = await h.send({
      method: 'GET',
      path: `/api/v2/profile/${h.profileId}/reports?branch=${encodeURIComponent('feature/login')}`,
    });
    t.same(
      byBranch.json.reports.map((r: { id: number }) => r.id),
      [sent.report_id],
      'the reports of one branch',
    );
    const main = await h.send({ method: 'GET', path: `/api/v2/profiles/${h.profileId}/reports?branch=main` });
    t.same(
      main.json.reports.map((r: { id: number }) => r.id),
      [bad.report_id],
      "the page's JSON twin filters too",
    );
    t.equal(main.json.branch, 'main');
    const all = await h.send({ method: 'GET', path: `/api/v2/profile/${h.profileId}/reports` });
    t.equal(all.json.reports.length, 3, 'no branch: every report');

    const history = await h.send({ method: 'GET', path: `/api/v2/profiles/${h.profileId}/history?branch=main` });
    t.same(
      history.json.reports.map((r: { id: number }) => r.id),
      [bad.report_id],
      'the history compares the reports of one branch',
    );
    t.equal(history.json.branch, 'main');
    const everyBranch = await h.send({ method: 'GET', path: `/api/v2/profiles/${h.profileId}/history` });
    t.equal(everyBranch.json.reports.length, 3, 'no branch: every report compared');
    t.equal(everyBranch.json.branch, null);
    const key = history.json.tests[0].key as number;
    const one = await h.send({ method: 'GET', path: `/api/v2/profiles/${h.profileId}/history/${key}?branch=main` });
    t.equal(one.json.reports.length, 1, "one test's history of one branch");
  });
}
