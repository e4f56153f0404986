/**
 * Retention over HTTP, on both stores: a profile's policy (and the bodies refused), its dry run, pins,
 * the policy applied when saved, after each import and at the sweep (never the newest report, a
 * pinned one, or one whose import runs), the log line it writes, and the space that comes back: on a
 * real data dir the SQLite file, its log and the blob folder shrink; on MongoDB the GridFS files and
 * chunks go.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import t from 'tap';
import { createAccountWithKey } from '../../lib/api-keys.js';
import { heldUpload, runningImport } from '../helpers/held-upload.js';
import { file, multipart } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';
import { send, startTally, storeKinds, type Harness, type Reply } from '../helpers/tally.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const json = (h: Harness, method: string, p: string, body?: unknown): Promise<Reply> =>
  h.send({
    method,
    path: p,
    ...(body === undefined
      ? {}
      : {
          body: typeof body === 'string' ? body : JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        }),
  });

/** One JUnit import into the profile; `out` characters of output per test make it as big as asked. */
async function importReport(h: Harness, profile: number, tests = 3, out = 0): Promise<number> {
  const cases = Array.from({ length: tests }, (_, i) => ({
    name: `case ${i}`,
    ...(out > 0 ? { out: `${i} `.padEnd(out, 'x') } : {}),
  }));
  const { body, contentType } = multipart([file('file[]', 'TEST-r.xml', junitXml({ cases }), 'application/xml')]);
  const r = await h.send({
    path: `/api/v2/profile/${profile}/import/junit`,
    headers: { 'content-type': contentType },
    body,
  });
  if (r.status !== 201) throw new Error(`import answered ${r.status}: ${r.text.slice(0, 300)}`);
  // Distinct import times, so "newest" is never a tie.
  await new Promise((resolve) => setTimeout(resolve, 5));
  return r.json.report_id as number;
}

async function reportIds(h: Harness, profile: number): Promise<number[]> {
  const r = await h.send({ method: 'GET', path: `/api/v2/profile/${profile}/reports?limit=100` });
  return (r.json.reports as { id: number }[]).map((x) => x.id);
}

function logged(): { log: (event: string, data?: Record<string, unknown>) => void; lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  return { lines, log: (event, data = {}) => lines.push({ event, ...data }) };
}

/** Sizes of a data dir's SQLite file, its log and every file of its blob folder. */
async function dataDirBytes(dataDir: string): Promise<{ database: number; log: number; blobs: number }> {
  const size = (p: string) =>
    stat(p).then(
      (s) => s.size,
      () => 0,
    );
  let blobs = 0;
  for (const e of await readdir(path.join(dataDir, 'blobs'), { recursive: true, withFileTypes: true }))
    if (e.isFile()) blobs += await size(path.join(e.parentPath, e.name));
  return {
    database: await size(path.join(dataDir, 'tally.sqlite')),
    log: await size(path.join(dataDir, 'tally.sqlite-wal')),
    blobs,
  };
}

const kinds = storeKinds(t);

for (const kind of kinds) {
  t.test(`${kind}: the policy, the bodies refused, the dry run`, async (t) => {
    const h = await startTally(t, { store: kind });
    const p = h.profileNumber;
    const base = `/api/v2/profiles/${p}/retention`;
    t.strictSame((await json(h, 'GET', base)).json, { profile_id: p, keep_reports: null, keep_days: null }, 'none');

    const refused: [string, unknown][] = [
      ['zero reports', { keep_reports: 0 }],
      ['a negative number of days', { keep_days: -1 }],
      ['a fraction', { keep_reports: 1.5 }],
      ['a string', { keep_reports: '3' }],
      ['too many reports', { keep_reports: 1_000_001 }],
      ['too many days', { keep_days: 36_501 }],
      ['an unknown field', { keep_reports: 3, keep_last: 2 }],
      ['an array', [3]],
      ['not JSON', '{"keep_reports": 3'],
      ['null', 'null'],
    ];
    for (const [what, body] of refused) {
      const r = await json(h, 'PUT', base, body);
      t.equal(r.status, 400, what);
      t.equal(r.json.messages[0].code, 'retention_policy_invalid', what);
      t.match(r.json.messages[0].message, /keep_reports|keep_days|JSON/, `${what}: the text says what to send`);
      const dry = await json(h, 'POST', `${base}/dry-run`, body);
      t.equal(dry.json.messages?.[0]?.code, 'retention_policy_invalid', `${what}: the dry run too`);
    }
    const text = await h.send({ method: 'PUT', path: base, body: 'keep=3', headers: { 'content-type': 'text/plain' } });
    t.equal(text.json.messages[0].code, 'json_body_required');
    t.strictSame((await json(h, 'GET', base)).json.keep_reports, null, 'nothing refused was saved');
    const foreign = (await h.store.profiles.get(h.foreignProfileId))!.number;
    t.equal((await json(h, 'GET', `/api/v2/profiles/${foreign}/retention`)).json.messages[0].code, 'profile_forbidden');
    t.equal(
      (await json(h, 'PUT', '/api/v2/profiles/999999/retention', { keep_days: 3 })).json.messages[0].code,
      'profile_not_found',
    );

    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await importReport(h, p, i + 1));
    const dry = await json(h, 'POST', `${base}/dry-run`, { keep_reports: 3 });
    t.equal(dry.status, 200);
    t.match(dry.json, {
      profile_id: p,
      keep_reports: 3,
      keep_days: null,
      would_delete: { reports: 2, tests: 1 + 2 },
      pinned_kept: 0,
      reports: [
        { report_id: ids[0], tests: 1 },
        { report_id: ids[1], tests: 2 },
      ],
    });
    const uploads = async (id: number) => {
      const report = (await json(h, 'GET', `/api/v2/reports/${id}`)).json;
      const record = (await json(h, 'GET', `/api/v2/imports/${report.import_id}`)).json;
      return (record.files as { size: number }[]).reduce((n, f) => n + f.size, 0);
    };
    t.equal(
      dry.json.would_delete.file_bytes,
      (await uploads(ids[0]!)) + (await uploads(ids[1]!)),
      'the uploads, exactly',
    );
    t.ok(dry.json.would_delete.row_bytes > 0, `rows about ${dry.json.would_delete.row_bytes} bytes`);
    t.equal(dry.json.would_delete.bytes, dry.json.would_delete.file_bytes + dry.json.would_delete.row_bytes);
    t.strictSame(await reportIds(h, p), [...ids].reverse(), 'a dry run deletes nothing');
    t.strictSame((await json(h, 'GET', base)).json.keep_reports, null, 'nor saves the policy');

    t.equal((await json(h, 'PUT', `/api/v2/reports/${ids[1]}/pin`)).status, 200);
    const pinned = await json(h, 'POST', `${base}/dry-run`, { keep_reports: 3 });
    t.match(pinned.json, { would_delete: { reports: 1, tests: 1 }, pinned_kept: 1, reports: [{ report_id: ids[0] }] });
    t.equal(pinned.json.reports.length, 1, 'the pinned report is not in the list');
    const all = await json(h, 'POST', `${base}/dry-run`, { keep_days: 1 });
    t.match(all.json.would_delete, { reports: 0 }, 'every report is newer than a day');
    const none = await json(h, 'POST', `${base}/dry-run`);
    t.match(none.json, { keep_reports: null, would_delete: { reports: 0 } }, 'without a body: the saved policy');
  });

  t.test(`${kind}: pins`, async (t) => {
    const h = await startTally(t, { store: kind });
    const id = await importReport(h, h.profileNumber);
    t.equal((await json(h, 'GET', `/api/v2/reports/${id}`)).json.pinned, false);
    t.strictSame((await json(h, 'PUT', `/api/v2/reports/${id}/pin`)).json, { report_id: id, pinned: true });
    t.equal((await json(h, 'GET', `/api/v2/reports/${id}`)).json.pinned, true, 'the report says so');
    t.equal((await json(h, 'GET', `/api/v2/profile/${h.profileNumber}/reports`)).json.reports[0].pinned, true);
    t.strictSame((await json(h, 'DELETE', `/api/v2/reports/${id}/pin`)).json, { report_id: id, pinned: false });
    t.equal((await json(h, 'GET', `/api/v2/reports/${id}`)).json.pinned, false);
    t.equal((await json(h, 'PUT', '/api/v2/reports/999999/pin')).json.messages[0].code, 'not_found', 'unknown');
    const other = await createAccountWithKey(h.store, 'else');
    const r = await send(h.url, other.apiKey, { method: 'PUT', path: `/api/v2/reports/${id}/pin` });
    t.equal(r.status, 404, "another account's report is not found");
    t.equal((await json(h, 'GET', `/api/v2/reports/${id}`)).json.pinned, false, 'and not pinned');
  });

  t.test(`${kind}: "the last 3 reports" of 5 leaves 3, after each import too; pins stay`, async (t) => {
    const { log, lines } = logged();
    const h = await startTally(t, { store: kind, log });
    const p = h.profileNumber;
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await importReport(h, p, 2));
    const blobsBefore = (await h.leftovers()).blobs;

    t.strictSame((await json(h, 'PUT', `/api/v2/profiles/${p}/retention`, { keep_reports: 3 })).json, {
      profile_id: p,
      keep_reports: 3,
      keep_days: null,
    });
    await h.tally.retention.idle();
    t.strictSame(await reportIds(h, p), ids.slice(2).reverse(), 'the 3 newest are left');
    t.equal((await json(h, 'GET', `/api/v2/reports/${ids[0]}`)).status, 404, 'the oldest is gone');
    t.equal((await h.leftovers()).blobs, blobsBefore - 2, "with its import's stored file");
    const line = lines.find((l) => l.event === 'retention.deleted');
    t.match(line, { profile_id: p, reports: 2, tests: 4, report_ids: [ids[0], ids[1]], more: false }, 'one log line');

    t.equal((await json(h, 'PUT', `/api/v2/reports/${ids[2]}/pin`)).status, 200);
    ids.push(await importReport(h, p, 2));
    await h.tally.retention.idle();
    t.strictSame(await reportIds(h, p), [ids[5], ids[4], ids[3], ids[2]], 'after an import: 3 newest and a pinned one');
    ids.push(await importReport(h, p, 2));
    await h.tally.retention.idle();
    t.strictSame(await reportIds(h, p), [ids[6], ids[5], ids[4], ids[2]], 'the pinned report stays, others go');
    t.match(lines.filter((l) => l.event === 'retention.deleted').at(-1), { reports: 1, kept_pinned: 1 });

    // Another profile of the account keeps everything.
    const other = (await json(h, 'POST', '/api/v2/profiles', { name: 'keeps all' })).json.profile_id as number;
    for (let i = 0; i < 4; i++) await importReport(h, other);
    await h.tally.retention.idle();
    t.equal((await reportIds(h, other)).length, 4, 'a profile without a policy keeps every report');

    t.strictSame((await json(h, 'PUT', `/api/v2/profiles/${p}/retention`, {})).json.keep_reports, null);
    ids.push(await importReport(h, p));
    await h.tally.retention.idle();
    t.equal((await reportIds(h, p)).length, 5, 'with the policy removed nothing more goes');
  });

  t.test(`${kind}: the sweep applies a limit in days; never the newest, nor a report whose import runs`, async (t) => {
    const h = await startTally(t, { store: kind });
    const p = h.profileNumber;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await importReport(h, p));
    t.equal((await json(h, 'PUT', `/api/v2/profiles/${p}/retention`, { keep_days: 2 })).status, 200);
    await h.tally.retention.idle();
    t.equal((await reportIds(h, p)).length, 3, 'all newer than 2 days');

    // An import held open: its report is being built while the sweep runs.
    const held = heldUpload(h, p);
    await runningImport(h, p);
    // Three days on: every completed report is older than the limit.
    await h.tally.sweep(new Date(Date.now() + 3 * DAY_MS));
    await h.tally.retention.idle();
    t.strictSame(await reportIds(h, p), [ids[2]], 'all but the newest completed report went');
    held.finish();
    const done = await held.answer;
    t.equal(done.status, 201, 'the import that ran meanwhile completed whole');
    await h.tally.retention.idle();
    t.strictSame(await reportIds(h, p), [done.json.report_id, ids[2]], 'and both stay: neither is 2 days old today');
  });
}

t.test('embedded: the data dir shrinks: the SQLite file, its log and the blob folder', async (t) => {
  const { log, lines } = logged();
  const h = await startTally(t, { store: 'embedded', log });
  const p = h.profileNumber;
  // Five reports of 3,000 tests with 1 KiB of output each: a few MiB of upload and of rows apiece.
  for (let i = 0; i < 5; i++) await importReport(h, p, 3_000, 1_024);
  const before = await dataDirBytes(h.dataDir);
  const total = (b: typeof before) => b.database + b.log + b.blobs;

  t.equal((await json(h, 'PUT', `/api/v2/profiles/${p}/retention`, { keep_reports: 3 })).status, 200);
  await h.tally.retention.idle();
  t.equal((await reportIds(h, p)).length, 3, 'three reports left');
  const after = await dataDirBytes(h.dataDir);
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  t.comment(
    `before: database ${mib(before.database)}, log ${mib(before.log)}, blobs ${mib(before.blobs)}; ` +
      `after: database ${mib(after.database)}, log ${mib(after.log)}, blobs ${mib(after.blobs)}`,
  );
  t.ok(before.blobs > 14 * 1024 * 1024, `the uploads took ${mib(before.blobs)}`);
  t.ok(after.blobs < before.blobs * 0.65, 'the blob folder lost two uploads of five');
  t.ok(after.database < before.database * 0.75, 'the SQLite file shrank');
  t.equal(after.log, 0, 'its log is empty');
  t.ok(total(after) < total(before) * 0.65, `the data dir: ${mib(total(before))} → ${mib(total(after))}`);
  t.ok(lines.find((l) => l.event === 'retention.deleted')?.bytes_reclaimed > 0, 'the log line says what came back');
});

t.test('mongo: the GridFS files and chunks of deleted reports go', { skip: !kinds.includes('mongo') }, async (t) => {
  const h = await startTally(t, { store: 'mongo' });
  const p = h.profileNumber;
  for (let i = 0; i < 5; i++) await importReport(h, p, 500, 1_024);
  const store = h.store as unknown as { url: string; dbName: string };
  const client = await new MongoClient(store.url).connect();
  t.teardown(() => client.close());
  const db = client.db(store.dbName);
  const count = async () => ({
    files: await db.collection('blobs.files').countDocuments(),
    chunks: await db.collection('blobs.chunks').countDocuments(),
    containers: await db.collection('containers').countDocuments(),
    history: await db.collection('history_columns').countDocuments(),
  });
  const before = await count();
  t.equal((await json(h, 'PUT', `/api/v2/profiles/${p}/retention`, { keep_reports: 3 })).status, 200);
  await h.tally.retention.idle();
  const after = await count();
  t.comment(`before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`);
  t.equal(after.files, before.files - 2, 'two GridFS files');
  t.ok(after.chunks < before.chunks * 0.7, 'with their chunks');
  t.equal(after.containers, (before.containers * 3) / 5, 'the containers of two reports of five');
  t.equal(after.history, (before.history * 3) / 5, 'and their history columns');
});
