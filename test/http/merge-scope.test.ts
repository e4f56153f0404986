/**
 * Merging as a user sends it: a zip holding the JUnit files of two CI nodes beside an Allure results
 * folder. Allure merges its own files by default (each result file repeats its suites); the JUnit
 * files stay as sent unless `merge_containers=true`, which merges the whole report. Embedded store:
 * merging goes through the store interface both adapters share, covered by the conformance suite.
 */
import t from 'tap';
import { field, file, multipart } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';
import { startTally, type Harness } from '../helpers/tally.js';
import { zipOf } from '../helpers/zip.js';

const allureResult = (uuid: string, name: string, status: string): string =>
  JSON.stringify({
    uuid,
    historyId: `h-${uuid}`,
    name,
    status,
    start: 1_700_000_000_000,
    stop: 1_700_000_001_000,
    labels: [
      { name: 'suite', value: 'Checkout' },
      { name: 'framework', value: 'pytest' },
    ],
  });

async function importZip(h: Harness, merge: boolean) {
  const zip = await zipOf([
    { name: 'node1/TEST-calc.xml', data: junitXml({ suite: 'Calc', cases: [{ name: 'adds' }] }) },
    { name: 'node2/TEST-calc.xml', data: junitXml({ suite: 'Calc', cases: [{ name: 'subtracts' }] }) },
    { name: 'allure-results/a1-result.json', data: allureResult('a1', 'pays', 'passed') },
    { name: 'allure-results/a2-result.json', data: allureResult('a2', 'refunds', 'failed') },
  ]);
  const form = multipart([
    file('file[]', 'results.zip', zip, 'application/zip'),
    ...(merge ? [field('merge_containers', 'true')] : []),
  ]);
  const r = await h.send({
    path: `/api/v2/profile/${h.profileId}/import`,
    body: form.body,
    headers: { 'content-type': form.contentType },
  });
  if (r.status !== 201) throw new Error(`import answered ${r.status}: ${r.text}`);
  const top = await h.send({ method: 'GET', path: `/api/v2/reports/${r.json.report_id}/containers` });
  const suites = (top.json.containers as { type: string; title: string; status: string }[])
    .filter((c) => c.type === 'suite')
    .map((c) => [c.title, c.status]);
  const combined = (r.json.messages as { code: string; message: string; details?: unknown }[]).find(
    (m) => m.code === 'containers_combined',
  );
  return { suites, combined };
}

t.test('Allure merges its own files; the JUnit files beside them stay as sent', async (t) => {
  const h = await startTally(t, { store: 'embedded' });
  const scoped = await importZip(h, false);
  t.same(
    scoped.suites,
    [
      ['Calc', 'passed'],
      ['Calc', 'passed'],
      ['Checkout', 'failed'],
    ],
    "the two nodes' Calc suites stay apart; the Allure results form one Checkout suite, failed",
  );
  t.match(scoped.combined, {
    message: /1 container was combined into others, in the allure files only/,
    details: { combined: 1, by_default: ['allure'] },
  });

  const whole = await importZip(h, true);
  t.same(
    whole.suites,
    [
      ['Calc', 'passed'],
      ['Checkout', 'failed'],
    ],
    'merge_containers=true merges the whole report',
  );
  t.match(whole.combined, { details: { combined: 2 } });
});
