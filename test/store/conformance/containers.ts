/** Conformance cases for containers: bulk writes, paging, finalize's changes, search, the row writer. */
import { randomUUID } from 'node:crypto';
import type { AttachmentLink, StoredContainer } from '../../../lib/store/types.js';
import type { OpenRowWriter } from '../../../lib/store/containers.js';
import { container, placed, richContainers, seed, type Cases } from './fixtures.js';

export const containerCases: Cases = {
  'containers: batches, paging, top level': async (t, _h, store) => {
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
  },

  'containers: reparent, delete, update': async (t, _h, store) => {
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
  },

  'containers: nested fields round-trip exactly': async (t, _h, store) => {
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
      t.strictSame(await store.containers.get(report.id, c.seq), c, `seq ${c.seq} via containers.get`);
    t.strictSame(
      await store.containers.list(report.id, { parentSeq: 1, limit: 10 }),
      rich.filter((c) => c.parentSeq === 1),
      'via containers.list',
    );
  },

  'containers: search by status and title': async (t, _h, store) => {
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
  },

  'containers: the row writer, loaded from its description as a parse thread does': async (t, _h, store) => {
    const description = store.containers.rowWriter();
    if (description === null) {
      t.pass('no row writer: containers go back to the import thread (containers.insert)');
      return;
    }
    t.strictSame(structuredClone(description), description, 'plain data: it crosses to a thread by structured clone');
    const { profile, imp } = await seed(store);
    const report = await store.reports.create({
      profileId: profile.id,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    const { openRowWriter } = (await import(description.module)) as { openRowWriter: OpenRowWriter };
    const writer = openRowWriter(description.options);
    t.teardown(() => writer.close());
    // A file's containers as its thread has them (seqs from 1), encoded while the file waits for its
    // turn, then placed where the turn puts the file: after 10 ids, as the report's file 2.
    const file = richContainers(report.id);
    const rows = file.map((c) => writer.encode(c));
    for (const row of rows) writer.place(row, 10, 2);
    writer.write(rows);
    for (const c of file)
      t.strictSame(
        await store.containers.get(report.id, c.seq + 10),
        placed(c, 10, 2),
        `seq ${c.seq} at ${c.seq + 10}`,
      );
    t.strictSame(await store.containers.get(report.id, 1), null, "nothing at the file's own ids");
    await t.rejects(
      async () => writer.write([writer.encode(placed(file[0]!, 10, 2))]),
      'a row the store already has is refused, as the store refuses it',
    );
  },
};
