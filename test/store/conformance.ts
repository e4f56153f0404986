/**
 * The Store conformance suite: every adapter runs it unchanged (see embedded.test.ts). Each group
 * gets its own empty store from `makeStore`, so groups never depend on one another.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import type {
  AttachmentLink,
  ImportRecord,
  Message,
  Report,
  ReportFile,
  Store,
  StoredContainer,
  StoredFile,
  Totals,
} from '../../lib/store/store.js';
import { historyKey, isFlakyFlag, statusOf, type HistoryColumn } from '../../lib/history/column.js';
import { compareHistory } from '../../lib/history/compare.js';

export interface StoreHarness {
  /** An empty store; the suite calls init() itself (init must be idempotent). */
  store: Store;
  /** Closes every store the harness handed out (close must be idempotent) and removes their data. */
  cleanup(): Promise<void>;
  /** A new Store instance over the same data, for the reopen check; without it the suite reuses `store`. */
  reopen?(): Promise<Store>;
  /** Every file of the adapter's blob storage, temp files included, for adapters that keep blobs as files. */
  listBlobFiles?(): Promise<string[]>;
}

type Group = (t: Test, h: StoreHarness, store: Store) => Promise<void>;

export function storeConformance(t: Test, name: string, makeStore: () => Promise<StoreHarness>): void {
  const group = (title: string, body: Group): void => {
    t.test(`${name}: ${title}`, async (t) => {
      const h = await makeStore();
      t.teardown(() => h.cleanup());
      await h.store.init();
      await body(t, h, h.store);
    });
  };

  group('accounts and API keys', async (t, _h, store) => {
    t.equal(await store.countAccounts(), 0, 'a fresh store has no accounts');
    const a = await store.createAccount('Acme ü');
    const b = await store.createAccount('Other');
    t.equal(await store.countAccounts(), 2);
    t.strictSame(await store.getAccount(a.id), a);
    t.equal(await store.getAccount(randomUUID()), null);
    t.not(a.id, b.id);
    t.ok(isIsoTime(a.createdAt), 'createdAt is an ISO time');

    const keys = ['k1', 'k2', 'k3'].map((keyId) => apiKey(keyId, a.id));
    for (const key of keys) await store.addApiKey(key);
    const other = apiKey('k4', b.id);
    await store.addApiKey(other);
    t.strictSame(await store.findApiKey('k2'), keys[1]);
    t.strictSame((await store.listApiKeys(a.id)).map((k) => k.keyId).sort(), ['k1', 'k2', 'k3'], "an account's keys");
    t.strictSame(await store.listApiKeys(b.id), [other]);
    t.equal(await store.findApiKey('nope'), null);

    t.equal(await store.revokeApiKeys(a.id, 'k1'), 2, 'revokes the live keys except the kept one');
    t.equal((await store.findApiKey('k1'))?.revokedAt, null, 'the kept key stays live');
    for (const keyId of ['k2', 'k3']) {
      const found = await store.findApiKey(keyId);
      t.ok(found && isIsoTime(found.revokedAt ?? ''), `${keyId} stays findable with revokedAt set`);
      t.strictSame(
        { ...found, revokedAt: null },
        keys.find((k) => k.keyId === keyId),
        `${keyId} is otherwise unchanged`,
      );
    }
    t.strictSame(await store.findApiKey('k4'), other, "another account's keys are untouched");
    t.equal(await store.revokeApiKeys(a.id, 'k1'), 0, 'revoked keys are not revoked again');
    const k2 = await store.findApiKey('k2');
    t.equal(await store.revokeApiKeys(a.id), 1, 'without a kept key every live key goes');
    t.ok((await store.findApiKey('k1'))?.revokedAt);
    t.equal((await store.findApiKey('k2'))?.revokedAt, k2?.revokedAt, 'an earlier revocation time is kept');
  });

  group('profiles', async (t, _h, store) => {
    const a = await store.createAccount('A');
    const b = await store.createAccount('B');
    const p1 = await store.createProfile(a.id, 'web');
    const p2 = await store.createProfile(a.id, 'api — ✓');
    const p3 = await store.createProfile(b.id, 'web');
    t.strictSame(p1, { id: p1.id, accountId: a.id, name: 'web', createdAt: p1.createdAt });
    t.ok(isIsoTime(p1.createdAt));
    t.strictSame(await store.getProfile(p2.id), p2);
    t.equal(await store.getProfile(randomUUID()), null);
    t.strictSame(byId(await store.listProfiles(a.id)), byId([p1, p2]));
    t.strictSame(await store.listProfiles(b.id), [p3]);
    t.strictSame(await store.listProfiles(randomUUID()), []);
  });

  group('imports', async (t, _h, store) => {
    const { account, profile } = await seed(store);
    const created = await store.createImport({
      profileId: profile.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    t.strictSame(created, {
      id: created.id,
      profileId: profile.id,
      accountId: account.id,
      status: 'receiving',
      createdAt: created.createdAt,
      finishedAt: null,
      endpoint: 'import',
      formatter: null,
      contentType: null,
      params: {},
      tags: [],
      files: [],
      attachments: [],
      messages: [],
      reportId: null,
      progress: { bytes: 0, files: 0, containers: 0 },
    });
    t.ok(isIsoTime(created.createdAt));
    t.strictSame(await store.getImport(created.id), created);
    t.equal(await store.getImport(randomUUID()), null);

    await store.updateImport(created.id, { status: 'processing', progress: { bytes: 1024, files: 1, containers: 7 } });
    let expected: ImportRecord = {
      ...created,
      status: 'processing',
      progress: { bytes: 1024, files: 1, containers: 7 },
    };
    t.strictSame(await store.getImport(created.id), expected, 'a partial update keeps the other fields');

    const files: StoredFile[] = [
      {
        name: 'results.zip',
        blobId: randomUUID(),
        size: 2048,
        sha256: 'ab'.repeat(32),
        contentType: 'application/zip',
        formatter: null,
      },
      {
        name: 'dir/TEST-ü.xml',
        blobId: randomUUID(),
        size: 10,
        sha256: 'cd'.repeat(32),
        contentType: null,
        formatter: 'junit',
        archive: 'results.zip',
      },
    ];
    const attachments: StoredFile[] = [
      {
        name: 'shot.png',
        blobId: randomUUID(),
        size: 3,
        sha256: 'ef'.repeat(32),
        contentType: 'image/png',
        formatter: null,
      },
    ];
    const patch = {
      status: 'completed' as const,
      finishedAt: new Date().toISOString(),
      formatter: 'junit',
      params: { tags: ['a', 'b'], smart: true, depth: 3, nested: { x: null }, unknownName: 'ü' },
      tags: ['a', 'b'],
      files,
      attachments,
      messages: sampleMessages(),
      reportId: randomUUID(),
    };
    await store.updateImport(created.id, patch);
    expected = { ...expected, ...patch };
    t.strictSame(await store.getImport(created.id), expected, 'every patched field round-trips');

    await store.updateImport(created.id, { finishedAt: null, formatter: null, reportId: null });
    expected = { ...expected, finishedAt: null, formatter: null, reportId: null };
    t.strictSame(await store.getImport(created.id), expected, 'null is a value a patch can set');

    await store.updateImport(created.id, {});
    t.strictSame(await store.getImport(created.id), expected, 'an empty patch changes nothing');
  });

  group('reports: lifecycle and visibility', async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const date = '2024-03-01T12:00:00.000Z';
    const report = await store.createReport({ profileId: profile.id, importId: imp.id, tags: ['nightly'], date });
    t.strictSame(report, {
      id: report.id,
      profileId: profile.id,
      importId: imp.id,
      status: 'building',
      createdAt: report.createdAt,
      date,
      tags: ['nightly'],
      totals: zeroTotals(),
      files: [],
      messages: [],
    });
    t.strictSame(await store.getReport(report.id), report);
    t.equal(await store.getReport(randomUUID()), null);

    await store.insertContainers([container(report.id, 1, null), container(report.id, 2, 1)]);
    t.strictSame(await store.listReports(profile.id, { limit: 10 }), [], 'a building report is invisible');

    const final = {
      date: '2024-03-01T11:59:00.000Z',
      totals: {
        containers: 2,
        tests: 1,
        passed: 1,
        failed: 0,
        errored: 0,
        skipped: 0,
        pending: 0,
        unknown: 0,
        flaky: 0,
      },
      files: [
        { name: 'TEST-a.xml', formatter: 'junit', producer: null, tests: 1 },
        { name: 'r.json', formatter: 'jest', producer: 'jest-junit', tests: 0 },
      ] as ReportFile[],
      messages: sampleMessages(),
      tags: ['nightly', 'linux'],
    };
    await store.completeReport(report.id, final);
    const completed: Report = { ...report, ...final, status: 'completed' };
    t.strictSame(await store.getReport(report.id), completed);
    t.strictSame(await store.listReports(profile.id, { limit: 10 }), [completed], 'a completed report is visible');

    const doomed = await store.createReport({ profileId: profile.id, importId: imp.id, tags: ['nightly'], date });
    await store.insertContainers([
      container(doomed.id, 1, null),
      container(doomed.id, 2, 1),
      container(doomed.id, 3, 1),
    ]);
    await store.failReport(doomed.id);
    t.equal((await store.getReport(doomed.id))?.status, 'failed');
    t.strictSame(await store.listReports(profile.id, { limit: 10 }), [completed], 'a failed report is invisible');
    t.strictSame(
      await store.listContainers(doomed.id, { parentSeq: null, limit: 10 }),
      [],
      "a failed report's containers are gone",
    );
    t.strictSame(await store.listContainers(doomed.id, { parentSeq: 1, limit: 10 }), []);
    t.equal(await store.getContainer(doomed.id, 2), null);
    t.equal(
      (await store.listContainers(report.id, { parentSeq: 1, limit: 10 })).length,
      1,
      "other reports' containers stay",
    );
  });

  group('reports: tag filter, newest first, paging', async (t, _h, store) => {
    const { account, profile, imp } = await seed(store);
    const tagSets = [['nightly', 'linux'], ['nightly'], ['linux', 'x', 'nightly'], [], ['linux']];
    const reports: Report[] = [];
    for (const tags of tagSets) {
      const r = await store.createReport({
        profileId: profile.id,
        importId: imp.id,
        tags,
        date: new Date().toISOString(),
      });
      await store.completeReport(r.id, { date: r.date, totals: zeroTotals(), files: [], messages: [], tags });
      reports.push((await store.getReport(r.id))!);
      // createdAt has millisecond resolution; distinct times keep the expected order unambiguous.
      await sleep(5);
    }
    t.equal(new Set(reports.map((r) => r.createdAt)).size, reports.length, 'reports have distinct createdAt');
    const [r0, r1, r2, r3, r4] = reports as [Report, Report, Report, Report, Report];

    // Noise that must never show up: building, failed, another profile.
    await store.createReport({ profileId: profile.id, importId: imp.id, tags: ['nightly'], date: r0.date });
    const failed = await store.createReport({
      profileId: profile.id,
      importId: imp.id,
      tags: ['nightly'],
      date: r0.date,
    });
    await store.failReport(failed.id);
    const elsewhere = await store.createProfile(account.id, 'other');
    const otherImport = await store.createImport({
      profileId: elsewhere.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    const foreign = await store.createReport({
      profileId: elsewhere.id,
      importId: otherImport.id,
      tags: ['nightly'],
      date: r0.date,
    });
    await store.completeReport(foreign.id, {
      date: r0.date,
      totals: zeroTotals(),
      files: [],
      messages: [],
      tags: ['nightly'],
    });

    const ids = async (query: Parameters<Store['listReports']>[1]) =>
      (await store.listReports(profile.id, query)).map((r) => r.id);
    t.strictSame(
      await store.listReports(profile.id, { limit: 10 }),
      [r4, r3, r2, r1, r0],
      'newest first, whole records',
    );
    t.strictSame(await ids({ limit: 10, tags: ['nightly'] }), [r2.id, r1.id, r0.id]);
    t.strictSame(
      await ids({ limit: 10, tags: ['nightly', 'linux'] }),
      [r2.id, r0.id],
      'every tag must be on the report',
    );
    t.strictSame(
      await ids({ limit: 10, tags: ['linux', 'nightly', 'linux'] }),
      [r2.id, r0.id],
      'a repeated tag changes nothing',
    );
    t.strictSame(await ids({ limit: 10, tags: ['nope'] }), []);
    t.strictSame(await ids({ limit: 10, tags: [] }), [r4.id, r3.id, r2.id, r1.id, r0.id], 'no tags filters nothing');

    t.strictSame(await ids({ limit: 2 }), [r4.id, r3.id]);
    t.strictSame(await ids({ limit: 2, before: r3.createdAt }), [r2.id, r1.id], 'before is strictly older');
    t.strictSame(await ids({ limit: 2, before: r1.createdAt }), [r0.id]);
    t.strictSame(await ids({ limit: 2, before: r0.createdAt }), []);
    t.strictSame(await ids({ limit: 1, before: r2.createdAt, tags: ['nightly'] }), [r1.id], 'tags and paging combine');

    t.strictSame(
      (await store.listReports(elsewhere.id, { limit: 10 })).map((r) => r.id),
      [foreign.id],
      'profiles are separate',
    );
    // Reports of one millisecond: the (createdAt, id) cursor walks them all, one page at a time.
    const burst = await store.createProfile(account.id, 'burst');
    const burstImport = await store.createImport({
      profileId: burst.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    for (let i = 0; i < 6; i++) {
      const r = await store.createReport({ profileId: burst.id, importId: burstImport.id, tags: [], date: r0.date });
      await store.completeReport(r.id, { date: r0.date, totals: zeroTotals(), files: [], messages: [], tags: [] });
    }
    const walked: string[] = [];
    let cursor: { before?: string; beforeId?: string } = {};
    for (let page = 0; page < 10; page++) {
      const got = await store.listReports(burst.id, { limit: 2, ...cursor });
      walked.push(...got.map((r) => r.id));
      const last = got[got.length - 1];
      if (got.length < 2 || !last) break;
      cursor = { before: last.createdAt, beforeId: last.id };
    }
    t.equal(new Set(walked).size, 6, 'keyset paging by (createdAt, id) skips no report and repeats none');

    const retagged = await store.createReport({
      profileId: profile.id,
      importId: imp.id,
      tags: ['old'],
      date: r0.date,
    });
    await store.completeReport(retagged.id, {
      date: r0.date,
      totals: zeroTotals(),
      files: [],
      messages: [],
      tags: ['new'],
    });
    t.strictSame(await ids({ limit: 10, tags: ['old'] }), [], 'completeReport replaces the tags');
    t.strictSame(await ids({ limit: 10, tags: ['new'] }), [retagged.id]);
  });

  group('containers: batches, paging, top level', async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const report = await store.createReport({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    // Two suites at the top, then their tests interleaved, so paging must filter by parent.
    const all: StoredContainer[] = [
      container(report.id, 1, null, { type: 'suite' }),
      container(report.id, 2, null, { type: 'suite' }),
    ];
    for (let seq = 3; seq <= 7502; seq++)
      all.push(container(report.id, seq, seq % 2 === 1 ? 1 : 2, { title: `test ${seq}` }));
    for (let i = 0; i < all.length; i += 2500) await store.insertContainers(all.slice(i, i + 2500));
    await store.insertContainers([]);

    const pages: StoredContainer[][] = [];
    let afterSeq: number | undefined;
    for (;;) {
      const page = await store.listContainers(report.id, {
        parentSeq: 1,
        limit: 700,
        ...(afterSeq === undefined ? {} : { afterSeq }),
      });
      if (page.length === 0) break;
      pages.push(page);
      if (pages.length > 10) {
        t.fail('paging with afterSeq does not advance');
        break;
      }
      afterSeq = page[page.length - 1]!.seq;
    }
    t.equal(pages.length, Math.ceil(3750 / 700), 'pages of the limit size');
    t.ok(pages.slice(0, -1).every((p) => p.length === 700));
    const children = pages.flat();
    t.strictSame(
      children.map((c) => c.seq),
      all.filter((c) => c.parentSeq === 1).map((c) => c.seq),
      'every child once, in seq order',
    );
    t.strictSame(
      children,
      all.filter((c) => c.parentSeq === 1),
      'whole records',
    );

    t.strictSame(
      (await store.listContainers(report.id, { parentSeq: null, limit: 10 })).map((c) => c.seq),
      [1, 2],
      'top level',
    );
    t.strictSame(
      (await store.listContainers(report.id, { parentSeq: null, afterSeq: 1, limit: 10 })).map((c) => c.seq),
      [2],
    );
    t.strictSame(
      (await store.listContainers(report.id, { parentSeq: 2, afterSeq: 7000, limit: 3 })).map((c) => c.seq),
      [7002, 7004, 7006],
    );
    t.strictSame(await store.listContainers(report.id, { parentSeq: 7502, limit: 10 }), [], 'a leaf has no children');
    t.strictSame(await store.getContainer(report.id, 4242), all[4241]);
    t.equal(await store.getContainer(report.id, 9999), null);
    t.equal(await store.getContainer(randomUUID(), 1), null);

    const second = await store.createReport({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.insertContainers([1, 2, 3].map((seq) => container(second.id, seq, null)));
    t.strictSame(
      (await store.listContainers(second.id, { parentSeq: null, limit: 10 })).map((c) => c.seq),
      [1, 2, 3],
      'reports are separate',
    );
    t.strictSame(
      (await store.listContainers(report.id, { parentSeq: null, limit: 10 })).map((c) => c.seq),
      [1, 2],
    );
  });

  group('containers: reparent, delete, update', async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const report = await store.createReport({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    const rows = [
      container(report.id, 1, null, { type: 'suite' }),
      container(report.id, 2, null, { type: 'suite' }),
      container(report.id, 3, null, { type: 'suite' }),
      ...[4, 5, 6, 7, 8, 9].map((seq) => container(report.id, seq, seq <= 6 ? 1 : 2)),
      container(report.id, 10, 3),
    ];
    await store.insertContainers(rows);
    const other = await store.createReport({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.insertContainers([container(other.id, 1, null), container(other.id, 2, 1)]);

    await store.reparentContainers(report.id, [1, 2], 3);
    const seqsUnder = async (reportId: string, parentSeq: number | null) =>
      (await store.listContainers(reportId, { parentSeq, limit: 100 })).map((c) => c.seq);
    t.strictSame(await seqsUnder(report.id, 3), [4, 5, 6, 7, 8, 9, 10], 'children of both parents moved, in seq order');
    t.strictSame(await seqsUnder(report.id, 1), []);
    t.strictSame(await seqsUnder(report.id, 2), []);
    t.equal((await store.getContainer(report.id, 4))?.parentSeq, 3);
    t.strictSame(await seqsUnder(other.id, 1), [2], "another report's tree is untouched");
    await store.reparentContainers(report.id, [], 1);

    await store.deleteContainers(report.id, [1, 2, 5]);
    t.equal(await store.getContainer(report.id, 5), null);
    t.strictSame(await seqsUnder(report.id, null), [3]);
    t.strictSame(await seqsUnder(report.id, 3), [4, 6, 7, 8, 9, 10]);
    t.strictSame(await seqsUnder(other.id, null), [1], "another report's containers stay");
    await store.deleteContainers(report.id, []);

    const links: AttachmentLink[] = [
      { name: 'screen shot ü.png', blobId: randomUUID(), contentType: 'image/png', size: 1234 },
      { name: 'log', blobId: randomUUID(), contentType: null, size: 0 },
    ];
    const before = (await store.getContainer(report.id, 4))!;
    await store.updateContainer(report.id, 4, { attachments: links, durationMs: 99.5, status: 'errored' });
    let expected: StoredContainer = { ...before, attachments: links, durationMs: 99.5, status: 'errored' };
    t.strictSame(await store.getContainer(report.id, 4), expected, 'selected fields replaced, the rest kept');
    await store.updateContainer(report.id, 4, { status: 'passed' });
    expected = { ...expected, status: 'passed' };
    t.strictSame(await store.getContainer(report.id, 4), expected, 'fields absent from the patch are kept');
    await store.updateContainer(report.id, 4, { attachments: [], durationMs: null });
    expected = { ...expected, attachments: [], durationMs: null };
    t.strictSame(await store.getContainer(report.id, 4), expected, 'empty list and null are values');
    t.strictSame(
      await store.getContainer(other.id, 1),
      container(other.id, 1, null),
      'same seq in another report untouched',
    );
  });

  group('containers: nested fields round-trip exactly', async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const report = await store.createReport({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    const rich = richContainers(report.id);
    await store.insertContainers(rich);
    for (const c of rich) t.strictSame(await store.getContainer(report.id, c.seq), c, `seq ${c.seq} via getContainer`);
    t.strictSame(
      await store.listContainers(report.id, { parentSeq: 1, limit: 10 }),
      rich.filter((c) => c.parentSeq === 1),
      'via listContainers',
    );
  });

  group('blobs', async (t, h, store) => {
    const chunks = [...Array.from({ length: 5 }, () => randomBytes(64 * 1024)), randomBytes(1), randomBytes(100_003)];
    const bytes = Buffer.concat(chunks);
    const ref = await store.putBlob(Readable.from(chunks), { name: 'out ü.log', contentType: 'text/plain' });
    t.equal(ref.size, bytes.length, 'size counted as bytes pass');
    t.equal(ref.sha256, sha256(bytes), 'sha256 of the bytes');
    t.ok((await readAll(await store.openBlob(ref.id)))?.equals(bytes), 'the bytes read back are the bytes written');

    const empty = await store.putBlob(Readable.from([]), { name: 'empty', contentType: null });
    t.strictSame(
      { size: empty.size, sha256: empty.sha256 },
      { size: 0, sha256: sha256(Buffer.alloc(0)) },
      'an empty blob',
    );
    t.equal((await readAll(await store.openBlob(empty.id)))?.length, 0);
    t.not(empty.id, ref.id);

    const filesBefore = await h.listBlobFiles?.();
    async function* breaksMidway(): AsyncGenerator<Buffer> {
      yield randomBytes(64 * 1024);
      yield randomBytes(64 * 1024);
      throw new Error('source broke');
    }
    await t.rejects(
      store.putBlob(Readable.from(breaksMidway()), { name: 'x', contentType: null }),
      { message: 'source broke' },
      'a source that throws rejects with its error',
    );
    const destroyed = new Readable({ read() {} });
    destroyed.push(randomBytes(1000));
    setImmediate(() => destroyed.destroy(new Error('client went away')));
    await t.rejects(
      store.putBlob(destroyed, { name: 'y', contentType: null }),
      { message: 'client went away' },
      'a destroyed source rejects with its error',
    );
    if (h.listBlobFiles)
      t.strictSame(await h.listBlobFiles(), filesBefore, 'a failed put leaves no file, temporary or not');
    const after = await store.putBlob(Readable.from([Buffer.from('still works')]), { name: 'z', contentType: null });
    t.equal(
      (await readAll(await store.openBlob(after.id)))?.toString(),
      'still works',
      'the store works after a failed put',
    );

    t.equal(await store.openBlob(randomUUID()), null, 'unknown id');
    t.equal(await store.openBlob('no-such-blob'), null, 'an id of another shape');
    t.equal(await store.openBlob('../../etc/passwd'), null, 'an id is never a path');

    await store.deleteBlob(ref.id);
    t.equal(await store.openBlob(ref.id), null, 'deleted');
    await store.deleteBlob(ref.id);
    await store.deleteBlob(randomUUID());
    t.pass('deleting a missing blob is not an error');
    t.ok((await readAll(await store.openBlob(empty.id))) !== null, 'other blobs stay');
  });

  group('ping', async (t, h, store) => {
    await t.resolves(store.ping(), 'an open store answers');
    await store.close();
    await t.rejects(store.ping(), 'a closed store does not');
    await store.close();
    t.pass('close is idempotent');
    if (!h.reopen) {
      await store.init();
      await t.resolves(store.ping(), 'answers again after init');
    }
  });

  group('queued imports are claimed once each, oldest first', async (t, _h, store) => {
    const { account, profile } = await seed(store);
    t.equal(await store.claimQueuedImport(), null, 'nothing queued');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const imp = await store.createImport({
        profileId: profile.id,
        accountId: account.id,
        endpoint: 'import',
        formatter: null,
      });
      await store.updateImport(imp.id, {
        status: 'queued',
        contentType: 'application/xml',
        params: { 'tag[]': ['a:b'] },
      });
      ids.push(imp.id);
      await sleep(3);
    }
    const claimed = await Promise.all([
      store.claimQueuedImport(),
      store.claimQueuedImport(),
      store.claimQueuedImport(),
      store.claimQueuedImport(),
    ]);
    t.same(
      claimed
        .filter(Boolean)
        .map((r) => r!.id)
        .sort(),
      [...ids].sort(),
      'each queued import is claimed exactly once',
    );
    t.equal(claimed.filter((r) => r === null).length, 1);
    const first = claimed.find((r) => r?.id === ids[0])!;
    t.equal(first.status, 'processing');
    t.equal(first.contentType, 'application/xml', 'the request media type round-trips');
    t.same(first.params, { 'tag[]': ['a:b'] });
    t.equal(await store.claimQueuedImport(), null);
  });

  group('stale imports are ended, with their report and blobs', async (t, _h, store) => {
    const { account, profile, imp: stale } = await seed(store);
    const report = await store.createReport({
      profileId: profile.id,
      importId: stale.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.updateImport(stale.id, {
      reportId: report.id,
      status: 'processing',
      messages: [{ severity: 'warning', code: 'specify_formatter', message: 'w' }],
    });
    await store.insertContainers([container(report.id, 1, null), container(report.id, 2, 1)]);
    const blob = await store.putBlob(Readable.from([Buffer.from('raw upload')]), {
      name: 'a.xml',
      contentType: null,
      importId: stale.id,
    });
    const other = await store.putBlob(Readable.from([Buffer.from('kept')]), { name: 'b.xml', contentType: null });
    const done = await store.createImport({
      profileId: profile.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    await store.updateImport(done.id, { status: 'completed' });
    const fresh = await store.createImport({
      profileId: profile.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });

    const ended = { severity: 'error' as const, code: 'store_unavailable', message: 'ended by the sweep' };
    const cutoff = new Date(Date.parse((await store.getImport(fresh.id))!.createdAt)).toISOString();
    await sleep(5);
    t.equal(await store.failStaleImports(cutoff, ended), 1, 'only imports older than the cutoff');
    const after = (await store.getImport(stale.id))!;
    t.equal(after.status, 'failed');
    t.ok(after.finishedAt);
    t.same(
      after.messages.map((m) => m.code),
      ['specify_formatter', 'store_unavailable'],
      'the message is appended',
    );
    t.equal((await store.getReport(report.id))!.status, 'failed');
    t.strictSame(await store.listContainers(report.id, { parentSeq: null, limit: 10 }), []);
    t.equal(await store.openBlob(blob.id), null, 'its blob is deleted');
    t.ok(await readAll(await store.openBlob(other.id)), 'other blobs stay');
    t.equal((await store.getImport(done.id))!.status, 'completed', 'finished imports are untouched');
    t.equal((await store.getImport(fresh.id))!.status, 'receiving', 'younger imports are untouched');
    t.equal(
      await store.failStaleImports(new Date(Date.now() + 60_000).toISOString(), ended),
      1,
      'a later cutoff takes the fresh one',
    );
  });

  group('users and sessions', async (t, _h, store) => {
    const a = await store.createAccount('A');
    const b = await store.createAccount('B');
    const ann = await store.createUser({
      accountId: a.id,
      email: 'Ann@Example.com',
      passwordHash: 'scrypt$x',
      mustChangePassword: true,
    });
    t.ok(ann, 'created');
    t.strictSame(
      ann,
      {
        id: ann!.id,
        accountId: a.id,
        email: 'ann@example.com',
        passwordHash: 'scrypt$x',
        mustChangePassword: true,
        createdAt: ann!.createdAt,
      },
      'the address is kept lower-cased',
    );
    t.ok(isIsoTime(ann!.createdAt));
    t.equal(
      await store.createUser({
        accountId: b.id,
        email: 'ANN@example.com',
        passwordHash: 'y',
        mustChangePassword: false,
      }),
      null,
      'an address is taken once across Tally',
    );
    const bob = await store.createUser({
      accountId: a.id,
      email: 'bob@example.com',
      passwordHash: 'z',
      mustChangePassword: false,
    });
    const cy = await store.createUser({
      accountId: b.id,
      email: 'cy@example.com',
      passwordHash: 'w',
      mustChangePassword: false,
    });
    t.strictSame(await store.getUser(ann!.id), ann);
    t.equal(await store.getUser(randomUUID()), null);
    t.strictSame(await store.findUserByEmail('ANN@EXAMPLE.COM'), ann, 'found whatever the case');
    t.equal(await store.findUserByEmail('nobody@example.com'), null);
    t.strictSame(byId(await store.listUsers(a.id)), byId([ann!, bob!]));
    t.strictSame(await store.listUsers(b.id), [cy]);
    await store.setUserPassword(ann!.id, 'scrypt$new', false);
    t.strictSame(await store.getUser(ann!.id), { ...ann!, passwordHash: 'scrypt$new', mustChangePassword: false });

    const session = (userId: string, idHash: string, expiresAt: string) => ({
      idHash,
      userId,
      accountId: a.id,
      csrfToken: `csrf-${idHash}`,
      createdAt: new Date().toISOString(),
      expiresAt,
    });
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const s1 = session(ann!.id, 'h1', later);
    const s2 = session(ann!.id, 'h2', later);
    const s3 = session(bob!.id, 'h3', later);
    const old = session(bob!.id, 'h4', past);
    for (const x of [s1, s2, s3, old]) await store.createSession(x);
    t.strictSame(await store.findSession('h1'), s1);
    t.strictSame(await store.findSession('h4'), old, 'an expired session is still found: the caller decides');
    t.equal(await store.findSession('nope'), null);
    t.equal(await store.deleteExpiredSessions(new Date().toISOString()), 1, 'expired sessions are removed');
    t.equal(await store.findSession('h4'), null);
    t.equal(await store.deleteUserSessions(ann!.id, 'h1'), 1, "the user's other sessions end");
    t.strictSame(await store.findSession('h1'), s1, 'the kept one stays');
    t.equal(await store.findSession('h2'), null);
    t.strictSame(await store.findSession('h3'), s3, "another user's sessions are untouched");
    await store.deleteSession('h1');
    t.equal(await store.findSession('h1'), null);
    t.equal(await store.deleteUserSessions(bob!.id), 1);
  });

  group('reports: date filter', async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const made: Report[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await store.createReport({
        profileId: profile.id,
        importId: imp.id,
        tags: [],
        date: new Date().toISOString(),
      });
      await store.completeReport(r.id, {
        date: r.date,
        totals: zeroTotals(),
        files: [],
        messages: [],
        tags: i === 2 ? ['x'] : [],
      });
      made.push((await store.getReport(r.id))!);
      await sleep(5);
    }
    const ids = (list: Report[]) => list.map((r) => r.id);
    t.strictSame(
      ids(await store.listReports(profile.id, { limit: 10, since: made[1]!.createdAt })),
      [made[2]!.id, made[1]!.id],
      'since is inclusive',
    );
    t.strictSame(
      ids(await store.listReports(profile.id, { limit: 10, since: made[1]!.createdAt, before: made[2]!.createdAt })),
      [made[1]!.id],
      'with before',
    );
    t.strictSame(
      ids(await store.listReports(profile.id, { limit: 10, since: made[0]!.createdAt, tags: ['x'] })),
      [made[2]!.id],
      'with tags',
    );
  });

  group('containers: search by status and title', async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const r = await store.createReport({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.insertContainers([
      container(r.id, 1, null, { type: 'suite', title: 'Login Suite', status: 'failed' }),
      container(r.id, 2, 1, { title: 'logs in (50% faster) [x]', status: 'failed' }),
      container(r.id, 3, 1, { title: 'LOGS OUT', status: 'passed' }),
      container(r.id, 4, 2, { type: 'step', title: 'types the password', status: 'failed' }),
      container(r.id, 5, 1, { title: 'errs', status: 'errored' }),
    ]);
    const seqs = (list: StoredContainer[]) => list.map((c) => c.seq);
    t.strictSame(
      seqs(await store.findContainers(r.id, { statuses: ['failed', 'errored'], limit: 10 })),
      [1, 2, 4, 5],
      'any depth, by seq',
    );
    t.strictSame(
      seqs(await store.findContainers(r.id, { statuses: ['failed', 'errored'], testsOnly: true, limit: 10 })),
      [2, 5],
      'tests only',
    );
    t.strictSame(
      seqs(await store.findContainers(r.id, { text: 'logs', limit: 10 })),
      [2, 3],
      'title contains, any case',
    );
    t.strictSame(
      seqs(await store.findContainers(r.id, { text: '(50% faster) [', limit: 10 })),
      [2],
      'the text is literal, not a pattern',
    );
    t.strictSame(seqs(await store.findContainers(r.id, { text: 'o', afterSeq: 2, limit: 1 })), [3], 'keyset paging');
    t.strictSame(await store.findContainers(r.id, { text: 'nothing like it', limit: 10 }), []);
    t.strictSame(
      (await store.findContainers(r.id, { statuses: ['errored'], limit: 10 }))[0],
      container(r.id, 5, 1, { title: 'errs', status: 'errored' }),
      'whole containers',
    );
  });

  group('history columns', async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const first = await store.createReport({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    // seq order does not follow the tree: a suite may close (and be numbered) after its tests.
    await store.insertContainers([
      container(first.id, 1, 4, { title: 'adds', status: 'passed', durationMs: 5 }),
      container(first.id, 2, 4, { title: 'divides', status: 'failed', durationMs: null, flaky: true }),
      container(first.id, 3, 2, { type: 'step', title: 'a step', status: 'failed' }),
      container(first.id, 4, 6, { type: 'suite', title: 'Calc', status: 'failed' }),
      container(first.id, 5, 4, { title: 'adds', status: 'failed' }),
      container(first.id, 6, null, { type: 'suite', title: 'math.xml', status: 'failed' }),
      container(first.id, 7, 6, { type: 'scenario', title: 'outline', status: 'skipped', durationMs: 1.5 }),
    ]);
    t.strictSame(await store.historyColumns([first.id]), [], 'a building report has no column');
    await store.completeReport(first.id, { date: first.date, totals: zeroTotals(), files: [], messages: [], tags: [] });
    const second = await store.createReport({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.insertContainers([
      container(second.id, 1, null, { type: 'suite', title: 'math.xml' }),
      container(second.id, 2, 1, { type: 'suite', title: 'Calc' }),
      container(second.id, 3, 2, { title: 'divides', status: 'passed', durationMs: 7 }),
    ]);
    await store.completeReport(second.id, {
      date: second.date,
      totals: zeroTotals(),
      files: [],
      messages: [],
      tags: [],
    });
    const empty = await store.createReport({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.completeReport(empty.id, { date: empty.date, totals: zeroTotals(), files: [], messages: [], tags: [] });

    const columns = await store.historyColumns([second.id, randomUUID(), first.id, empty.id]);
    t.strictSame(
      columns.map((c) => c.reportId),
      [second.id, first.id, empty.id],
      'in the order asked, unknown reports left out',
    );
    const [c2, c1, c0] = columns;
    const rows = (c: HistoryColumn) =>
      [...c.keys].map((key, i) => ({
        key,
        seq: c.seqs[i],
        status: statusOf(c.flags[i]!),
        flaky: isFlakyFlag(c.flags[i]!),
        duration: Number.isNaN(c.durations[i]!) ? null : c.durations[i],
      }));
    const adds = historyKey(['math.xml', 'Calc', 'adds']);
    const divides = historyKey(['math.xml', 'Calc', 'divides']);
    const outline = historyKey(['math.xml', 'outline']);
    t.strictSame(
      rows(c1!),
      [
        { key: adds, seq: 1, status: 'passed', flaky: false, duration: 5 },
        { key: divides, seq: 2, status: 'failed', flaky: true, duration: null },
        { key: adds, seq: 5, status: 'failed', flaky: false, duration: 12 },
        { key: outline, seq: 7, status: 'skipped', flaky: false, duration: 1.5 },
      ],
      'tests and scenarios by title path in id order, a second test with the same path too (readers take the first); steps are not tests',
    );
    t.strictSame(
      rows(c2!),
      [{ key: divides, seq: 3, status: 'passed', flaky: false, duration: 7 }],
      'the same path gives the same key in another report',
    );
    t.equal(c0!.keys.length, 0, 'an empty report has an empty column');
    t.strictSame(
      [0, 1, 2, 3].map((i) => c1!.pathOf(i)),
      [
        ['math.xml', 'Calc', 'adds'],
        ['math.xml', 'Calc', 'divides'],
        ['math.xml', 'Calc', 'adds'],
        ['math.xml', 'outline'],
      ],
      'each entry keeps its title path',
    );
    t.strictSame(c2!.pathOf(0), ['math.xml', 'Calc', 'divides']);

    // The comparison reads one row per path: the first test of it in each report.
    const cmp = await compareHistory(store, profile.id, { n: 10, tags: [], show: 'all', offset: 0, limit: 100 });
    const addsRow = cmp.tests.find((x) => x.key === adds);
    t.match(
      addsRow?.cells.at(-1),
      { status: 'passed', seq: 1, duration_ms: 5 },
      'of two tests with one path, the first is the row (not seq 5, failed)',
    );
    t.equal(cmp.tests.filter((x) => x.key === adds).length, 1, 'one row for the path');
  });

  group('reopen keeps data', async (t, h, store) => {
    await store.init();
    const { account, profile, imp } = await seed(store);
    const key = apiKey(`key-${randomUUID()}`, account.id);
    await store.addApiKey(key);
    const report = await store.createReport({
      profileId: profile.id,
      importId: imp.id,
      tags: ['t'],
      date: new Date().toISOString(),
    });
    const rich = richContainers(report.id);
    await store.insertContainers(rich);
    await store.completeReport(report.id, {
      date: report.date,
      totals: zeroTotals(),
      files: [],
      messages: sampleMessages(),
      tags: ['t'],
    });
    const bytes = randomBytes(10_000);
    const blob = await store.putBlob(Readable.from([bytes]), { name: 'b', contentType: null });
    const completed = await store.getReport(report.id);

    await store.close();
    const again = h.reopen ? await h.reopen() : store;
    await again.init();
    await again.init();
    t.strictSame(await again.getAccount(account.id), account);
    t.strictSame(await again.findApiKey(key.keyId), key);
    t.strictSame(await again.getProfile(profile.id), profile);
    t.strictSame(await again.getImport(imp.id), imp);
    t.strictSame(await again.listReports(profile.id, { limit: 10, tags: ['t'] }), [completed]);
    t.strictSame(
      await again.listContainers(report.id, { parentSeq: 1, limit: 10 }),
      rich.filter((c) => c.parentSeq === 1),
    );
    t.ok((await readAll(await again.openBlob(blob.id)))?.equals(bytes), 'blob bytes');
    t.equal(await again.countAccounts(), 1);
  });
}

/** An account, a profile and an import: what every report needs. */
export async function seed(store: Store) {
  const account = await store.createAccount('Acme');
  const profile = await store.createProfile(account.id, 'main');
  const imp = await store.createImport({
    profileId: profile.id,
    accountId: account.id,
    endpoint: 'import',
    formatter: null,
  });
  return { account, profile, imp };
}

function apiKey(keyId: string, accountId: string) {
  return {
    keyId,
    accountId,
    secretHash: sha256(Buffer.from(keyId)),
    createdAt: new Date().toISOString(),
    revokedAt: null,
  };
}

function container(
  reportId: string,
  seq: number,
  parentSeq: number | null,
  extra: Partial<StoredContainer> = {},
): StoredContainer {
  return {
    reportId,
    seq,
    parentSeq,
    fileIndex: 0,
    type: 'test',
    title: `container ${seq}`,
    status: 'passed',
    durationMs: 12,
    startedAt: null,
    failure: null,
    output: null,
    properties: [],
    attachmentRefs: [],
    attachments: [],
    flaky: false,
    attempts: [],
    meta: {},
    ...extra,
  };
}

/** Every nested field filled, emptied or nulled, with text that trips naive encodings. */
export function richContainers(reportId: string): StoredContainer[] {
  return [
    container(reportId, 1, null, {
      type: 'suite',
      title: 'Suite ü 日本語 🚀 עברית',
      status: 'failed',
      durationMs: 1234.5,
      startedAt: '2024-05-01T10:00:00.000Z',
      output: { stdout: 'line 1\nline 2 — ✓\r\n', stderr: null },
      meta: { file: 'src/ü.test.ts' },
    }),
    container(reportId, 2, 1, {
      fileIndex: 3,
      title: `quotes " ' \\ and a tab\t and e\u0301`,
      status: 'failed',
      durationMs: 0,
      failure: {
        message: 'expected <1> but was <2> 💥',
        type: 'java.lang.AssertionError',
        stack: 'at a.B.c(B.java:1)\n\tat …',
      },
      properties: [
        { name: 'ключ', value: '' },
        { name: 'k', value: 'v=1; "x"' },
      ],
      attachmentRefs: ['shots/a b.png', 'C:\\tmp\\x.txt'],
      attachments: [
        { name: 'a b.png', blobId: randomUUID(), contentType: 'image/png', size: 12 },
        { name: 'x.txt', blobId: randomUUID(), contentType: null, size: 0 },
      ],
      flaky: true,
      attempts: [
        { status: 'failed', durationMs: 10.25, failure: { message: null, type: null, stack: null } },
        { status: 'passed', durationMs: null, failure: null },
      ],
      meta: { classname: 'a.B', line: '42', empty: '' },
    }),
    container(reportId, 3, 1, {
      type: 'step',
      title: '',
      status: 'unknown',
      durationMs: null,
      startedAt: '1999-12-31T23:59:59.999Z',
      failure: { message: '', type: null, stack: null },
      output: { stdout: null, stderr: null },
      properties: [],
    }),
    container(reportId, 4, 1, {
      type: 'hook',
      status: 'skipped',
      durationMs: 123456789.125,
      output: { stdout: '', stderr: 'ⓔ'.repeat(5000) },
    }),
  ];
}

function sampleMessages(): Message[] {
  return [
    {
      severity: 'error',
      code: 'ZIP_ENTRY_TOO_LARGE',
      message: 'Entry is too large.',
      file: 'r.zip',
      details: { entry: 'a/b.xml', limit: 1024, nested: [1, null, 'ü'] },
    },
    { severity: 'warning', code: null, message: 'Unused parameters: x, y' },
    { severity: 'notice', code: 'N1', message: '✓', at: '2024-01-01T00:00:00.000Z' },
  ];
}

function zeroTotals(): Totals {
  return { containers: 0, tests: 0, passed: 0, failed: 0, errored: 0, skipped: 0, pending: 0, unknown: 0, flaky: 0 };
}

function byId<T extends { id: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function isIsoTime(value: string): boolean {
  return !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function readAll(stream: Readable | null): Promise<Buffer | null> {
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}
