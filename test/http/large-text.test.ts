/**
 * A testcase whose system-out is 500 MB: streamed through, stored cut at TALLY_MAX_TEXT_CHARS with
 * a marker, answered with the text_truncated notice, and never held whole (memory stays flat).
 * Embedded store only: what is tested is the parse path, which both stores share.
 */
import t from 'tap';
import { peakRssDuring } from '../security/craft.js';
import { startTally } from '../helpers/tally.js';
import { BOUNDARY } from '../helpers/multipart.js';

const MiB = 1024 * 1024;
const OUTPUT_BYTES = 500 * 1000 * 1000;

/** A multipart body with one JUnit file whose only testcase prints OUTPUT_BYTES of log lines. */
async function* hugeOutput(): AsyncGenerator<Buffer> {
  yield Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[]"; filename="big.xml"\r\n` +
      `Content-Type: application/xml\r\n\r\n` +
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="big" tests="2">\n' +
      '<testcase name="talks" classname="big" time="1.0"><system-out>',
  );
  const line = Buffer.from('2026-11-01 10:00:00.000 INFO  step done &amp; ok ✓\n'.repeat(4096));
  for (let sent = 0; sent < OUTPUT_BYTES; sent += line.length) yield line;
  yield Buffer.from(
    `</system-out></testcase>\n<testcase name="after" classname="big" time="0.1"/>\n</testsuite>\n\r\n` +
      `--${BOUNDARY}--\r\n`,
  );
}

t.test('a 500 MB system-out is capped, not buffered', async (t) => {
  const h = await startTally(t, { store: 'embedded' });
  const { value: reply, growth } = await peakRssDuring(() =>
    h.send({
      path: `/api/v2/profile/${h.profileId}/import/junit`,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: hugeOutput(),
    }),
  );
  t.equal(reply.status, 201, 'imported', { body: reply.text.slice(0, 2000) });
  t.equal(reply.json.report.totals.tests, 2, 'both testcases, the one after the output too');
  const notice = reply.json.messages.find((m: any) => m.code === 'text_truncated');
  t.equal(notice?.severity, 'notice', 'text_truncated notice');
  // Held whole, the text would be 500 MiB at least (1 GiB as a JS string). The bound leaves room
  // for this test process's own heap defaults, which differ by Node line (here 96 MiB on Node 20,
  // 152 MiB on Node 24, client and server sharing the process).
  t.ok(growth < 250 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB while 500 MB of output streamed through`);
  const suites = await h.send({ method: 'GET', path: `/api/v2/reports/${reply.json.report_id}/containers` });
  const tests = await h.send({
    method: 'GET',
    path: `/api/v2/reports/${reply.json.report_id}/containers?parent=${suites.json.containers[0].seq}`,
  });
  const talks = tests.json.containers.find((c: any) => c.title === 'talks');
  const stdout: string = talks.output.stdout;
  t.ok(
    stdout.length > 1024 * 1024 && stdout.length < 1024 * 1024 + 200,
    `stored ${stdout.length} characters: the limit and a marker`,
  );
  t.match(stdout, /\[… truncated by Tally at 1048576 characters\]$/, 'ends with the marker');
  t.ok(
    stdout.startsWith('2026-11-01 10:00:00.000 INFO  step done & ok ✓\n'),
    'the kept part is the start, entities decoded',
  );
});
