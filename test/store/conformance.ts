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
  StoredContainer,
  StoredFile,
  Totals,
} from '../../lib/store/types.js';
import type { Store } from '../../lib/store/store.js';
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
    t.equal(await store.accounts.count(), 0, 'a fresh store has no accounts');
    const a = await store.accounts.create('Acme ü');
    const b = await store.accounts.create('Other');
    t.equal(await store.accounts.count(), 2);
    t.strictSame(await store.accounts.get(a.id), a);
    t.equal(await store.accounts.get(randomUUID()), null);
    t.not(a.id, b.id);
    t.ok(isIsoTime(a.createdAt), 'createdAt is an ISO time');

    const keys = ['k1', 'k2', 'k3'].map((keyId) => apiKey(keyId, a.id));
    for (const key of keys) await store.keys.add(key);
    const other = apiKey('k4', b.id);
    await store.keys.add(other);
    t.strictSame(await store.keys.find('k2'), keys[1]);
    t.strictSame((await store.keys.list(a.id)).map((k) => k.keyId).sort(), ['k1', 'k2', 'k3'], "an account's keys");
    t.strictSame(await store.keys.list(b.id), [other]);
    t.equal(await store.keys.find('nope'), null);

    t.equal(await store.keys.revoke(a.id, 'k1'), 2, 'revokes the live keys except the kept one');
    t.equal((await store.keys.find('k1'))?.revokedAt, null, 'the kept key stays live');
    for (const keyId of ['k2', 'k3']) {
      const found = await store.keys.find(keyId);
      t.ok(found && isIsoTime(found.revokedAt ?? ''), `${keyId} stays findable with revokedAt set`);
      t.strictSame(
        { ...found, revokedAt: null },
        keys.find((k) => k.keyId === keyId),
        `${keyId} is otherwise unchanged`,
      );
    }
    t.strictSame(await store.keys.find('k4'), other, "another account's keys are untouched");
    t.equal(await store.keys.revoke(a.id, 'k1'), 0, 'revoked keys are not revoked again');
    const k2 = await store.keys.find('k2');
    t.equal(await store.keys.revoke(a.id), 1, 'without a kept key every live key goes');
    t.ok((await store.keys.find('k1'))?.revokedAt);
    t.equal((await store.keys.find('k2'))?.revokedAt, k2?.revokedAt, 'an earlier revocation time is kept');
  });

  group('profiles', async (t, _h, store) => {
    const a = await store.accounts.create('A');
    const b = await store.accounts.create('B');
    const p1 = await store.profiles.create(a.id, 'web');
    const p2 = await store.profiles.create(a.id, 'api — ✓');
    const p3 = await store.profiles.create(b.id, 'web');
    t.strictSame(p1, { id: p1.id, accountId: a.id, name: 'web', createdAt: p1.createdAt });
    t.ok(isIsoTime(p1.createdAt));
    t.strictSame(await store.profiles.get(p2.id), p2);
    t.equal(await store.profiles.get(randomUUID()), null);
    t.strictSame(byId(await store.profiles.list(a.id)), byId([p1, p2]));
    t.strictSame(await store.profiles.list(b.id), [p3]);
    t.strictSame(await store.profiles.list(randomUUID()), []);
  });

  group('imports', async (t, _h, store) => {
    const { account, profile } = await seed(store);
    const created = await store.imports.create({
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
    t.strictSame(await store.imports.get(created.id), created);
    t.equal(await store.imports.get(randomUUID()), null);

    await store.imports.update(created.id, {
      status: 'processing',
      progress: { bytes: 1024, files: 1, containers: 7 },
    });
    let expected: ImportRecord = {
      ...created,
      status: 'processing',
      progress: { bytes: 1024, files: 1, containers: 7 },
    };
    t.strictSame(await store.imports.get(created.id), expected, 'a partial update keeps the other fields');

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
    await store.imports.update(created.id, patch);
    expected = { ...expected, ...patch };
    t.strictSame(await store.imports.get(created.id), expected, 'every patched field round-trips');

    await store.imports.update(created.id, { finishedAt: null, formatter: null, reportId: null });
    expected = { ...expected, finishedAt: null, formatter: null, reportId: null };
    t.strictSame(await store.imports.get(created.id), expected, 'null is a value a patch can set');

    await store.imports.update(created.id, {});
    t.strictSame(await store.imports.get(created.id), expected, 'an empty patch changes nothing');
  });

  group('reports: lifecycle and visibility', async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const date = '2024-03-01T12:00:00.000Z';
    const report = await store.reports.create({ profileId: profile.id, importId: imp.id, tags: ['nightly'], date });
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
    t.strictSame(await store.reports.get(report.id), report);
    t.equal(await store.reports.get(randomUUID()), null);

    await store.containers.insert([container(report.id, 1, null), container(report.id, 2, 1)]);
    t.strictSame(await store.reports.list(profile.id, { limit: 10 }), [], 'a building report is invisible');

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
    await store.reports.complete(report.id, final);
    const completed: Report = { ...report, ...final, status: 'completed' };
    t.strictSame(await store.reports.get(report.id), completed);
    t.strictSame(await store.reports.list(profile.id, { limit: 10 }), [completed], 'a completed report is visible');

    const doomed = await store.reports.create({ profileId: profile.id, importId: imp.id, tags: ['nightly'], date });
    await store.containers.insert([
      container(doomed.id, 1, null),
      container(doomed.id, 2, 1),
      container(doomed.id, 3, 1),
    ]);
    await store.reports.fail(doomed.id);
    t.equal((await store.reports.get(doomed.id))?.status, 'failed');
    t.strictSame(await store.reports.list(profile.id, { limit: 10 }), [completed], 'a failed report is invisible');
    t.strictSame(
      await store.containers.list(doomed.id, { parentSeq: null, limit: 10 }),
      [],
      "a failed report's containers are gone",
    );
    t.strictSame(await store.containers.list(doomed.id, { parentSeq: 1, limit: 10 }), []);
    t.equal(await store.containers.get(doomed.id, 2), null);
    t.equal(
      (await store.containers.list(report.id, { parentSeq: 1, limit: 10 })).length,
      1,
      "other reports' containers stay",
    );
  });

  group('reports: tag filter, newest first, paging', async (t, _h, store) => {
    const { account, profile, imp } = await seed(store);
    const tagSets = [['nightly', 'linux'], ['nightly'], ['linux', 'x', 'nightly'], [], ['linux']];
    const reports: Report[] = [];
    for (const tags of tagSets) {
      const r = await store.reports.create({
        profileId: profile.id,
        importId: imp.id,
        tags,
        date: new Date().toISOString(),
      });
      await store.reports.complete(r.id, { date: r.date, totals: zeroTotals(), files: [], messages: [], tags });
      reports.push((await store.reports.get(r.id))!);
      // createdAt has millisecond resolution; distinct times keep the expected order unambiguous.
      await sleep(5);
    }
    t.equal(new Set(reports.map((r) => r.createdAt)).size, reports.length, 'reports have distinct createdAt');
    const [r0, r1, r2, r3, r4] = reports as [Report, Report, Report, Report, Report];

    // Noise that must never show up: building, failed, another profile.
    await store.reports.create({ profileId: profile.id, importId: imp.id, tags: ['nightly'], date: r0.date });
    const failed = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: ['nightly'],
      date: r0.date,
    });
    await store.reports.fail(failed.id);
    const elsewhere = await store.profiles.create(account.id, 'other');
    const otherImport = await store.imports.create({
      profileId: elsewhere.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    const foreign = await store.reports.create({
      profileId: elsewhere.id,
      importId: otherImport.id,
      tags: ['nightly'],
      date: r0.date,
    });
    await store.reports.complete(foreign.id, {
      date: r0.date,
      totals: zeroTotals(),
      files: [],
      messages: [],
      tags: ['nightly'],
    });

    const ids = async (query: Parameters<Store['reports']['list']>[1]) =>
      (await store.reports.list(profile.id, query)).map((r) => r.id);
    t.strictSame(
      await store.reports.list(profile.id, { limit: 10 }),
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
      (await store.reports.list(elsewhere.id, { limit: 10 })).map((r) => r.id),
      [foreign.id],
      'profiles are separate',
    );
    // Reports of one millisecond: the (createdAt, id) cursor walks them all, one page at a time.
    const burst = await store.profiles.create(account.id, 'burst');
    const burstImport = await store.imports.create({
      profileId: burst.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    for (let i = 0; i < 6; i++) {
      const r = await store.reports.create({ profileId: burst.id, importId: burstImport.id, tags: [], date: r0.date });
      await store.reports.complete(r.id, { date: r0.date, totals: zeroTotals(), files: [], messages: [], tags: [] });
    }
    const walked: string[] = [];
    let cursor: { before?: string; beforeId?: string } = {};
    for (let page = 0; page < 10; page++) {
      const got = await store.reports.list(burst.id, { limit: 2, ...cursor });
      walked.push(...got.map((r) => r.id));
      const last = got[got.length - 1];
      if (got.length < 2 || !last) break;
      cursor = { before: last.createdAt, beforeId: last.id };
    }
    t.equal(new Set(walked).size, 6, 'keyset paging by (createdAt, id) skips no report and repeats none');

    const retagged = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: ['old'],
      date: r0.date,
    });
    await store.reports.complete(retagged.id, {
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
    const report = await store.reports.create({
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
    for (let i = 0; i < all.length; i += 2500) await store.containers.insert(all.slice(i, i + 2500));
    await store.containers.insert([]);

    const pages: StoredContainer[][] = [];
    let afterSeq: number | undefined;
    for (;;) {
      const page = await store.containers.list(report.id, {
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
      (await store.containers.list(report.id, { parentSeq: null, limit: 10 })).map((c) => c.seq),
      [1, 2],
      'top level',
    );
    t.strictSame(
      (await store.containers.list(report.id, { parentSeq: null, afterSeq: 1, limit: 10 })).map((c) => c.seq),
      [2],
    );
    t.strictSame(
      (await store.containers.list(report.id, { parentSeq: 2, afterSeq: 7000, limit: 3 })).map((c) => c.seq),
      [7002, 7004, 7006],
    );
    t.strictSame(await store.containers.list(report.id, { parentSeq: 7502, limit: 10 }), [], 'a leaf has no children');
    t.strictSame(await store.containers.get(report.id, 4242), all[4241]);
    t.equal(await store.containers.get(report.id, 9999), null);
    t.equal(await store.containers.get(randomUUID(), 1), null);

    const second = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.containers.insert([1, 2, 3].map((seq) => container(second.id, seq, null)));
    t.strictSame(
      (await store.containers.list(second.id, { parentSeq: null, limit: 10 })).map((c) => c.seq),
      [1, 2, 3],
      'reports are separate',
    );
    t.strictSame(
      (await store.containers.list(report.id, { parentSeq: null, limit: 10 })).map((c) => c.seq),
      [1, 2],
    );
  });

  group('containers: reparent, delete, update', async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const report = await store.reports.create({
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
    await store.containers.insert(rows);
    const other = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.containers.insert([container(other.id, 1, null), container(other.id, 2, 1)]);

    await store.containers.reparent(report.id, [1, 2], 3);
    const seqsUnder = async (reportId: string, parentSeq: number | null) =>
      (await store.containers.list(reportId, { parentSeq, limit: 100 })).map((c) => c.seq);
    t.strictSame(await seqsUnder(report.id, 3), [4, 5, 6, 7, 8, 9, 10], 'children of both parents moved, in seq order');
    t.strictSame(await seqsUnder(report.id, 1), []);
    t.strictSame(await seqsUnder(report.id, 2), []);
    t.equal((await store.containers.get(report.id, 4))?.parentSeq, 3);
    t.strictSame(await seqsUnder(other.id, 1), [2], "another report's tree is untouched");
    await store.containers.reparent(report.id, [], 1);

    await store.containers.delete(report.id, [1, 2, 5]);
    t.equal(await store.containers.get(report.id, 5), null);
    t.strictSame(await seqsUnder(report.id, null), [3]);
    t.strictSame(await seqsUnder(report.id, 3), [4, 6, 7, 8, 9, 10]);
    t.strictSame(await seqsUnder(other.id, null), [1], "another report's containers stay");
    await store.containers.delete(report.id, []);

    const links: AttachmentLink[] = [
      { name: 'screen shot ü.png', blobId: randomUUID(), contentType: 'image/png', size: 1234 },
      { name: 'log', blobId: randomUUID(), contentType: null, size: 0 },
    ];
    const before = (await store.containers.get(report.id, 4))!;
    await store.containers.update(report.id, 4, { attachments: links, durationMs: 99.5, status: 'errored' });
    let expected: StoredContainer = { ...before, attachments: links, durationMs: 99.5, status: 'errored' };
    t.strictSame(await store.containers.get(report.id, 4), expected, 'selected fields replaced, the rest kept');
    await store.containers.update(report.id, 4, { status: 'passed' });
    expected = { ...expected, status: 'passed' };
    t.strictSame(await store.containers.get(report.id, 4), expected, 'fields absent from the patch are kept');
    await store.containers.update(report.id, 4, { attachments: [], durationMs: null });
    expected = { ...expected, attachments: [], durationMs: null };
    t.strictSame(await store.containers.get(report.id, 4), expected, 'empty list and null are values');
    t.strictSame(
      await store.containers.get(other.id, 1),
      container(other.id, 1, null),
      'same seq in another report untouched',
    );
  });

  group('containers: nested fields round-trip exactly', async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const report = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    const rich = richContainers(report.id);
    await store.containers.insert(rich);
    for (const c of rich)
      t.strictSame(await store.containers.get(report.id, c.seq), c, `seq ${c.seq} via getContainer`);
    t.strictSame(
      await store.containers.list(report.id, { parentSeq: 1, limit: 10 }),
      rich.filter((c) => c.parentSeq === 1),
      'via listContainers',
    );
  });

  group('blobs', async (t, h, store) => {
    const chunks = [...Array.from({ length: 5 }, () => randomBytes(64 * 1024)), randomBytes(1), randomBytes(100_003)];
    const bytes = Buffer.concat(chunks);
    const ref = await store.blobs.put(Readable.from(chunks), { name: 'out ü.log', contentType: 'text/plain' });
    t.equal(ref.size, bytes.length, 'size counted as bytes pass');
    t.equal(ref.sha256, sha256(bytes), 'sha256 of the bytes');
    t.ok((await readAll(await store.blobs.open(ref.id)))?.equals(bytes), 'the bytes read back are the bytes written');

    const empty = await store.blobs.put(Readable.from([]), { name: 'empty', contentType: null });
    t.strictSame(
      { size: empty.size, sha256: empty.sha256 },
      { size: 0, sha256: sha256(Buffer.alloc(0)) },
      'an empty blob',
    );
    t.equal((await readAll(await store.blobs.open(empty.id)))?.length, 0);
    t.not(empty.id, ref.id);

    const filesBefore = await h.listBlobFiles?.();
    async function* breaksMidway(): AsyncGenerator<Buffer> {
      yield randomBytes(64 * 1024);
      yield randomBytes(64 * 1024);
      throw new Error('source broke');
    }
    await t.rejects(
      store.blobs.put(Readable.from(breaksMidway()), { name: 'x', contentType: null }),
      { message: 'source broke' },
      'a source that throws rejects with its error',
    );
    const destroyed = new Readable({ read() {} });
    destroyed.push(randomBytes(1000));
    setImmediate(() => destroyed.destroy(new Error('client went away')));
    await t.rejects(
      store.blobs.put(destroyed, { name: 'y', contentType: null }),
      { message: 'client went away' },
      'a destroyed source rejects with its error',
    );
    if (h.listBlobFiles)
      t.strictSame(await h.listBlobFiles(), filesBefore, 'a failed put leaves no file, temporary or not');
    const after = await store.blobs.put(Readable.from([Buffer.from('still works')]), { name: 'z', contentType: null });
    t.equal(
      (await readAll(await store.blobs.open(after.id)))?.toString(),
      'still works',
      'the store works after a failed put',
    );

    t.equal(await store.blobs.open(randomUUID()), null, 'unknown id');
    t.equal(await store.blobs.open('no-such-blob'), null, 'an id of another shape');
    t.equal(await store.blobs.open('../../etc/passwd'), null, 'an id is never a path');

    await store.blobs.delete(ref.id);
    t.equal(await store.blobs.open(ref.id), null, 'deleted');
    await store.blobs.delete(ref.id);
    await store.blobs.delete(randomUUID());
    t.pass('deleting a missing blob is not an error');
    t.ok((await readAll(await store.blobs.open(empty.id))) !== null, 'other blobs stay');
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
    t.equal(await store.imports.claimQueued(), null, 'nothing queued');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const imp = await store.imports.create({
        profileId: profile.id,
        accountId: account.id,
        endpoint: 'import',
        formatter: null,
      });
      await store.imports.update(imp.id, {
        status: 'queued',
        contentType: 'application/xml',
        params: { 'tag[]': ['a:b'] },
      });
      ids.push(imp.id);
      await sleep(3);
    }
    const claimed = await Promise.all([
      store.imports.claimQueued(),
      store.imports.claimQueued(),
      store.imports.claimQueued(),
      store.imports.claimQueued(),
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
    t.equal(await store.imports.claimQueued(), null);
  });

  group('stale imports are ended, with their report and blobs', async (t, _h, store) => {
    const { account, profile, imp: stale } = await seed(store);
    const report = await store.reports.create({
      profileId: profile.id,
      importId: stale.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.imports.update(stale.id, {
      reportId: report.id,
      status: 'processing',
      messages: [{ severity: 'warning', code: 'specify_formatter', message: 'w' }],
    });
    await store.containers.insert([container(report.id, 1, null), container(report.id, 2, 1)]);
    const blob = await store.blobs.put(Readable.from([Buffer.from('raw upload')]), {
      name: 'a.xml',
      contentType: null,
      importId: stale.id,
    });
    const other = await store.blobs.put(Readable.from([Buffer.from('kept')]), { name: 'b.xml', contentType: null });
    const done = await store.imports.create({
      profileId: profile.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });
    await store.imports.update(done.id, { status: 'completed' });
    const fresh = await store.imports.create({
      profileId: profile.id,
      accountId: account.id,
      endpoint: 'import',
      formatter: null,
    });

    const ended = { severity: 'error' as const, code: 'store_unavailable', message: 'ended by the sweep' };
    const cutoff = new Date(Date.parse((await store.imports.get(fresh.id))!.createdAt)).toISOString();
    await sleep(5);
    t.equal(await store.imports.failStale(cutoff, ended), 1, 'only imports older than the cutoff');
    const after = (await store.imports.get(stale.id))!;
    t.equal(after.status, 'failed');
    t.ok(after.finishedAt);
    t.same(
      after.messages.map((m) => m.code),
      ['specify_formatter', 'store_unavailable'],
      'the message is appended',
    );
    t.equal((await store.reports.get(report.id))!.status, 'failed');
    t.strictSame(await store.containers.list(report.id, { parentSeq: null, limit: 10 }), []);
    t.equal(await store.blobs.open(blob.id), null, 'its blob is deleted');
    t.ok(await readAll(await store.blobs.open(other.id)), 'other blobs stay');
    t.equal((await store.imports.get(done.id))!.status, 'completed', 'finished imports are untouched');
    t.equal((await store.imports.get(fresh.id))!.status, 'receiving', 'younger imports are untouched');
    t.equal(
      await store.imports.failStale(new Date(Date.now() + 60_000).toISOString(), ended),
      1,
      'a later cutoff takes the fresh one',
    );
  });

  group('users and sessions', async (t, _h, store) => {
    const a = await store.accounts.create('A');
    const b = await store.accounts.create('B');
    const ann = await store.users.create({
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
      await store.users.create({
        accountId: b.id,
        email: 'ANN@example.com',
        passwordHash: 'y',
        mustChangePassword: false,
      }),
      null,
      'an address is taken once across Tally',
    );
    const bob = await store.users.create({
      accountId: a.id,
      email: 'bob@example.com',
      passwordHash: 'z',
      mustChangePassword: false,
    });
    const cy = await store.users.create({
      accountId: b.id,
      email: 'cy@example.com',
      passwordHash: 'w',
      mustChangePassword: false,
    });
    t.strictSame(await store.users.get(ann!.id), ann);
    t.equal(await store.users.get(randomUUID()), null);
    t.strictSame(await store.users.findByEmail('ANN@EXAMPLE.COM'), ann, 'found whatever the case');
    t.equal(await store.users.findByEmail('nobody@example.com'), null);
    t.strictSame(byId(await store.users.list(a.id)), byId([ann!, bob!]));
    t.strictSame(await store.users.list(b.id), [cy]);
    await store.users.setPassword(ann!.id, 'scrypt$new', false);
    t.strictSame(await store.users.get(ann!.id), { ...ann!, passwordHash: 'scrypt$new', mustChangePassword: false });

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
    for (const x of [s1, s2, s3, old]) await store.sessions.add(x);
    t.strictSame(await store.sessions.find('h1'), s1);
    t.strictSame(await store.sessions.find('h4'), old, 'an expired session is still found: the caller decides');
    t.equal(await store.sessions.find('nope'), null);
    t.equal(await store.sessions.deleteExpired(new Date().toISOString()), 1, 'expired sessions are removed');
    t.equal(await store.sessions.find('h4'), null);
    t.equal(await store.sessions.deleteOfUser(ann!.id, 'h1'), 1, "the user's other sessions end");
    t.strictSame(await store.sessions.find('h1'), s1, 'the kept one stays');
    t.equal(await store.sessions.find('h2'), null);
    t.strictSame(await store.sessions.find('h3'), s3, "another user's sessions are untouched");
    await store.sessions.delete('h1');
    t.equal(await store.sessions.find('h1'), null);
    t.equal(await store.sessions.deleteOfUser(bob!.id), 1);
  });

  group('reports: date filter', async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const made: Report[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await store.reports.create({
        profileId: profile.id,
        importId: imp.id,
        tags: [],
        date: new Date().toISOString(),
      });
      await store.reports.complete(r.id, {
        date: r.date,
        totals: zeroTotals(),
        files: [],
        messages: [],
        tags: i === 2 ? ['x'] : [],
      });
      made.push((await store.reports.get(r.id))!);
      await sleep(5);
    }
    const ids = (list: Report[]) => list.map((r) => r.id);
    t.strictSame(
      ids(await store.reports.list(profile.id, { limit: 10, since: made[1]!.createdAt })),
      [made[2]!.id, made[1]!.id],
      'since is inclusive',
    );
    t.strictSame(
      ids(await store.reports.list(profile.id, { limit: 10, since: made[1]!.createdAt, before: made[2]!.createdAt })),
      [made[1]!.id],
      'with before',
    );
    t.strictSame(
      ids(await store.reports.list(profile.id, { limit: 10, since: made[0]!.createdAt, tags: ['x'] })),
      [made[2]!.id],
      'with tags',
    );
  });

  group('containers: search by status and title', async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const r = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.containers.insert([
      container(r.id, 1, null, { type: 'suite', title: 'Login Suite', status: 'failed' }),
      container(r.id, 2, 1, { title: 'logs in (50% faster) [x]', status: 'failed' }),
      container(r.id, 3, 1, { title: 'LOGS OUT', status: 'passed' }),
      container(r.id, 4, 2, { type: 'step', title: 'types the password', status: 'failed' }),
      container(r.id, 5, 1, { title: 'errs', status: 'errored' }),
    ]);
    const seqs = (list: StoredContainer[]) => list.map((c) => c.seq);
    t.strictSame(
      seqs(await store.containers.find(r.id, { statuses: ['failed', 'errored'], limit: 10 })),
      [1, 2, 4, 5],
      'any depth, by seq',
    );
    t.strictSame(
      seqs(await store.containers.find(r.id, { statuses: ['failed', 'errored'], testsOnly: true, limit: 10 })),
      [2, 5],
      'tests only',
    );
    t.strictSame(
      seqs(await store.containers.find(r.id, { text: 'logs', limit: 10 })),
      [2, 3],
      'title contains, any case',
    );
    t.strictSame(
      seqs(await store.containers.find(r.id, { text: '(50% faster) [', limit: 10 })),
      [2],
      'the text is literal, not a pattern',
    );
    t.strictSame(seqs(await store.containers.find(r.id, { text: 'o', afterSeq: 2, limit: 1 })), [3], 'keyset paging');
    t.strictSame(await store.containers.find(r.id, { text: 'nothing like it', limit: 10 }), []);
    t.strictSame(
      (await store.containers.find(r.id, { statuses: ['errored'], limit: 10 }))[0],
      container(r.id, 5, 1, { title: 'errs', status: 'errored' }),
      'whole containers',
    );
  });

  group('history columns', async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const first = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    // seq order does not follow the tree: a suite may close (and be numbered) after its tests.
    await store.containers.insert([
      container(first.id, 1, 4, { title: 'adds', status: 'passed', durationMs: 5 }),
      container(first.id, 2, 4, { title: 'divides', status: 'failed', durationMs: null, flaky: true }),
      container(first.id, 3, 2, { type: 'step', title: 'a step', status: 'failed' }),
      container(first.id, 4, 6, { type: 'suite', title: 'Calc', status: 'failed' }),
      container(first.id, 5, 4, { title: 'adds', status: 'failed' }),
      container(first.id, 6, null, { type: 'suite', title: 'math.xml', status: 'failed' }),
      container(first.id, 7, 6, { type: 'scenario', title: 'outline', status: 'skipped', durationMs: 1.5 }),
    ]);
    t.strictSame(await store.history.columns([first.id]), [], 'a building report has no column');
    await store.reports.complete(first.id, {
      date: first.date,
      totals: zeroTotals(),
      files: [],
      messages: [],
      tags: [],
    });
    const second = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.containers.insert([
      container(second.id, 1, null, { type: 'suite', title: 'math.xml' }),
      container(second.id, 2, 1, { type: 'suite', title: 'Calc' }),
      container(second.id, 3, 2, { title: 'divides', status: 'passed', durationMs: 7 }),
    ]);
    await store.reports.complete(second.id, {
      date: second.date,
      totals: zeroTotals(),
      files: [],
      messages: [],
      tags: [],
    });
    const empty = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    await store.reports.complete(empty.id, {
      date: empty.date,
      totals: zeroTotals(),
      files: [],
      messages: [],
      tags: [],
    });

    const columns = await store.history.columns([second.id, randomUUID(), first.id, empty.id]);
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
    await store.keys.add(key);
    const report = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: ['t'],
      date: new Date().toISOString(),
    });
    const rich = richContainers(report.id);
    await store.containers.insert(rich);
    await store.reports.complete(report.id, {
      date: report.date,
      totals: zeroTotals(),
      files: [],
      messages: sampleMessages(),
      tags: ['t'],
    });
    const bytes = randomBytes(10_000);
    const blob = await store.blobs.put(Readable.from([bytes]), { name: 'b', contentType: null });
    const completed = await store.reports.get(report.id);

    await store.close();
    const again = h.reopen ? await h.reopen() : store;
    await again.init();
    await again.init();
    t.strictSame(await again.accounts.get(account.id), account);
    t.strictSame(await again.keys.find(key.keyId), key);
    t.strictSame(await again.profiles.get(profile.id), profile);
    t.strictSame(await again.imports.get(imp.id), imp);
    t.strictSame(await again.reports.list(profile.id, { limit: 10, tags: ['t'] }), [completed]);
    t.strictSame(
      await again.containers.list(report.id, { parentSeq: 1, limit: 10 }),
      rich.filter((c) => c.parentSeq === 1),
    );
    t.ok((await readAll(await again.blobs.open(blob.id)))?.equals(bytes), 'blob bytes');
    t.equal(await again.accounts.count(), 1);
  });
}

/** An account, a profile and an import: what every report needs. */
export async function seed(store: Store) {
  const account = await store.accounts.create('Acme');
  const profile = await store.profiles.create(account.id, 'main');
  const imp = await store.imports.create({
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
