/** Conformance cases for reports: lifecycle, visibility, listing and paging. */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Report, ReportCi, ReportFile, ReportQuery } from '../../../lib/store/types.js';
import { container, sampleMessages, seed, zeroTotals, type Cases } from './fixtures.js';

const isoNow = (): string => new Date().toISOString();

export const reportCases: Cases = {
  'reports: lifecycle and visibility': async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const date = '2024-03-01T12:00:00.000Z';
    const report = await store.reports.create({ profileId: profile.id, importId: imp.id, tags: ['nightly'], date });
    t.strictSame(report, {
      id: report.id,
      number: report.number,
      profileId: profile.id,
      importId: imp.id,
      status: 'building',
      createdAt: report.createdAt,
      date,
      tags: ['nightly'],
      totals: zeroTotals(),
      files: [],
      messages: [],
      ci: null,
      pinned: false,
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
  },

  'reports: tag filter, newest first, paging': async (t, _h, store) => {
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

    const ids = async (query: ReportQuery) => (await store.reports.list(profile.id, query)).map((r) => r.id);
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
    t.strictSame(await ids({ limit: 10, tags: ['old'] }), [], 'reports.complete replaces the tags');
    t.strictSame(await ids({ limit: 10, tags: ['new'] }), [retagged.id]);
  },

  'reports: date filter': async (t, _h, store) => {
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
  },

  'reports: CI context, branch filter': async (t, _h, store) => {
    const { profile, imp } = await seed(store);
    const ci = (branch: string | null): ReportCi => ({
      provider: 'gitlab',
      buildNumber: '311',
      buildUrl: 'https://gitlab.example.com/grp/app/-/pipelines/1000123',
      branch,
      commit: '9fceb02d0ae598e95dc970b74767f19372d61af8',
      job: 'rspec 1/3',
      pullRequest: branch === 'feature/x' ? 42 : null,
    });
    const made: Report[] = [];
    for (const context of [ci('main'), ci('feature/x'), null, ci(null), ci('main')]) {
      const r = await store.reports.create({ profileId: profile.id, importId: imp.id, tags: [], date: isoNow() });
      await store.reports.complete(r.id, {
        date: r.date,
        totals: zeroTotals(),
        files: [],
        messages: [],
        tags: [],
        ci: context,
      });
      made.push((await store.reports.get(r.id))!);
      await sleep(5);
    }
    t.strictSame(made[0]!.ci, ci('main'), 'kept as given');
    t.equal(made[2]!.ci, null, 'none given: null');
    t.strictSame(made[3]!.ci, ci(null));
    const ids = (list: Report[]) => list.map((r) => r.id);
    t.strictSame(
      ids(await store.reports.list(profile.id, { limit: 10, branch: 'main' })),
      [made[4]!.id, made[0]!.id],
      'the reports of one branch, newest first',
    );
    t.strictSame(ids(await store.reports.list(profile.id, { limit: 10, branch: 'feature/x' })), [made[1]!.id]);
    t.strictSame(await store.reports.list(profile.id, { limit: 10, branch: 'nope' }), []);
    t.strictSame(
      ids(await store.reports.list(profile.id, { limit: 1, branch: 'main', before: made[4]!.createdAt })),
      [made[0]!.id],
      'with paging',
    );
    t.equal((await store.reports.list(profile.id, { limit: 10 })).length, 5, 'no branch: all');
  },
};
