/**
 * An OWASP ZAP baseline report as a GitLab job posts it (`zap-baseline.py … -x Report.xml`, then
 * `curl -F file[]=@Report.xml`): detected on `/import`, named on `/import/zaproxy`, and as a raw
 * body; each completes with the report's alert counts, High and Medium alerts failed.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { startTally, storeKinds, type Harness } from '../helpers/tally.js';
import { file, multipart } from '../helpers/multipart.js';

const BASELINE = new URL(
  '../../formatters/zaproxy/fixtures/zap-weekly-D-2021-03-29-baseline-dvwa.xml',
  import.meta.url,
);
/** The baseline scan of DVWA: 19 alerts, Medium 4, Low 8, Informational 7 (counted with grep in its fixture README). */
const ALERTS = { tests: 19, passed: 15, failed: 4, errored: 0, skipped: 0 };

async function post(h: Harness, suffix: string, bytes: Buffer) {
  const m = multipart([file('file[]', 'Report.xml', bytes, 'application/xml')]);
  return h.send({
    path: `/api/v2/profile/${h.profileId}${suffix}`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
}

const codes = (r: { json: any }): string[] => r.json.messages.map((m: any) => m.code);

for (const kind of storeKinds(t)) {
  t.test(`a ZAP baseline report (${kind} store)`, async (t) => {
    const h = await startTally(t, { store: kind });
    const bytes = await readFile(BASELINE);

    await t.test('zaproxy is listed among the formatters', async (t) => {
      const r = await h.send({ method: 'GET', path: '/api/v2/formatters', noKey: true });
      t.equal(r.status, 200);
      t.match(
        r.json.formatters.find((f: any) => f.key === 'zaproxy'),
        {
          key: 'zaproxy',
          title: 'OWASP ZAP XML report',
          extensions: ['.xml'],
        },
      );
    });

    for (const suffix of ['/import', '/import/zaproxy']) {
      await t.test(`posted to ${suffix}: completes with the alert counts`, async (t) => {
        const r = await post(h, suffix, bytes);
        t.equal(r.status, 201, r.text.slice(0, 1000));
        t.equal(r.json.import_status, 'completed');
        t.match(r.json.report.totals, ALERTS);
        t.match(r.json.report.files, [{ name: 'Report.xml', formatter: 'zaproxy', producer: 'zap', tests: 19 }]);
        t.notOk(codes(r).includes('multiple_formatter_match'));
        t.equal(codes(r).includes('specify_formatter'), suffix === '/import', 'detection asks to name the formatter');
      });
    }

    await t.test('the High and Medium alerts are the failed tests, with their instances', async (t) => {
      const r = await post(h, '/import/zaproxy', bytes);
      const id = r.json.report_id;
      const failed = await h.send({
        method: 'GET',
        path: `/api/v2/reports/${id}/search?status=failed&tests_only=true&limit=50`,
      });
      t.equal(failed.status, 200, failed.text.slice(0, 500));
      t.same(failed.json.containers.map((c: any) => c.title).sort(), [
        'CSP: Wildcard Directive',
        'Content Security Policy (CSP) Header Not Set',
        'Reverse Tabnabbing',
        'X-Frame-Options Header Not Set',
      ]);
    });

    await t.test('as a raw body (curl --data-binary @Report.xml)', async (t) => {
      const r = await h.send({
        path: `/api/v2/profile/${h.profileId}/import/zaproxy`,
        headers: { 'content-type': 'application/xml' },
        body: bytes,
      });
      t.equal(r.status, 201, r.text.slice(0, 1000));
      t.match(r.json.report.totals, ALERTS);
    });
  });
}
