/**
 * The JSON twins of the web pages, in the read API with the same API key: what a person sees on a
 * page, a script gets here, from the same functions (lib/history/compare.ts, lib/page-data.ts).
 *
 *   /api/v2/profiles                              Profiles page
 *   /api/v2/profiles/{id}/reports                 a profile's Reports page (tag, from, to, before)
 *   /api/v2/reports/{id}/search                   the Report page's status filter and title search
 *   /api/v2/profiles/{id}/history                 History comparison (n, tag, show, offset, limit)
 *   /api/v2/profiles/{id}/history/{key}           one test's history
 *   /api/v2/profiles/{id}/upload                  Upload page (API Upload tab)
 *   /api/v2/account                               Account page
 * The Report page's tree is the existing /api/v2/reports/{id} and /api/v2/reports/{id}/containers.
 */
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import Joi from 'joi';
import type { ContainerStatus } from '../lib/formatter/api.js';
import { DEFAULT_HISTORY_REPORTS, MAX_HISTORY_REPORTS, compareHistory, testHistory } from '../lib/history/compare.js';
import { profileSummaries } from '../lib/history/profile-summary.js';
import type { Registry } from '../lib/formatter/registry.js';
import type { Store } from '../lib/store/store.js';
import type { Profile } from '../lib/store/types.js';
import { accountInfo, uploadInfo } from '../lib/page-data.js';
import { accountOf, baseUrl, profileFor } from './profiles.js';
import { queryFailAction as failAction } from './query-fault.js';
import { snakeCaseAnswers } from './api-json.js';
import { fault } from './replies.js';
import { idOrNumber } from '../lib/store/numbers.js';
import { containerJson, reportJson } from './public-ids.js';
import { nextCursor, reportFilterOf, storeQuery } from './web/pages/reports.js';

interface PageApiDeps {
  store: Store;
  registry: Registry;
  publicUrl: string | null;
}

const STATUSES: ContainerStatus[] = ['passed', 'failed', 'errored', 'skipped', 'pending', 'unknown'];

export const pageApiPlugin: Plugin<PageApiDeps> = {
  name: 'tally-page-api',
  register(server, { store, registry, publicUrl }) {
    // Field names are snake_case on the way out (plugins/api-json.ts).
    server.ext('onPreResponse', snakeCaseAnswers, { sandbox: 'plugin' });
    /** A GET under /api/v2/profiles/{id}: profileFor answers for a profile that is not the key's account's. */
    const profileRoute = (
      path: string,
      query: Joi.ObjectSchema | null,
      answer: (request: Request, h: ResponseToolkit, profile: Profile) => unknown,
    ): void =>
      server.route({
        method: 'GET',
        path,
        options: { auth: 'api-key', ...(query ? { validate: { query, failAction } } : {}) },
        handler: async (request, h) => {
          const profile = await profileFor(store, request, h, (request.params as { id: string }).id);
          return 'accountId' in profile ? answer(request, h, profile) : profile;
        },
      });

    server.route({
      method: 'GET',
      path: '/api/v2/profiles',
      options: { auth: 'api-key' },
      handler: async (request) => ({ profiles: await profileSummaries(store, accountOf(request)) }),
    });

    profileRoute(
      '/api/v2/profiles/{id}/reports',
      Joi.object({
        limit: Joi.number().integer().min(1).max(1000).default(50),
        from: Joi.string().isoDate(),
        to: Joi.string().isoDate(),
        before: Joi.string()
          .pattern(/^[0-9T:.+Z-]+(~[0-9a-f-]{36})?$/)
          .description('a time, or the next_before cursor of the previous page'),
        branch: Joi.string().trim().min(1).max(256).description("only reports of this branch (their CI context's)"),
      }).unknown(true),
      async (request, _h, profile) => {
        const limit = (request.query as { limit: number }).limit;
        const f = reportFilterOf(request);
        const reports = await store.reports.list(profile.id, storeQuery(f, limit));
        return {
          profile_id: profile.number,
          tags: f.tags,
          branch: f.branch,
          from: f.from,
          to: f.to,
          reports: reports.map((r) => reportJson(r, profile)),
          next_before: nextCursor(reports, limit),
        };
      },
    );

    server.route({
      method: 'GET',
      path: '/api/v2/reports/{id}/search',
      options: {
        auth: 'api-key',
        validate: {
          query: Joi.object({
            status: Joi.alternatives(
              Joi.string().valid(...STATUSES, 'failing'),
              Joi.array().items(Joi.string().valid(...STATUSES)),
            ).description(`failing, or one or more of ${STATUSES.join(', ')}`),
            q: Joi.string().max(200).allow(''),
            tests_only: Joi.boolean().default(false),
            after: Joi.number().integer().min(0),
            limit: Joi.number().integer().min(1).max(1000).default(100),
          }),
          failAction,
        },
      },
      handler: async (request, h) => {
        const report = await store.reports.get(idOrNumber((request.params as { id: string }).id));
        const profile = report && report.status === 'completed' ? await store.profiles.get(report.profileId) : null;
        if (!report || !profile || profile.accountId !== accountOf(request)) return fault(h, 'not_found');
        const q = request.query as {
          status?: string | string[];
          q?: string;
          tests_only: boolean;
          after?: number;
          limit: number;
        };
        const statuses = (
          q.status === 'failing' ? ['failed', 'errored'] : q.status === undefined ? [] : [q.status].flat()
        ) as ContainerStatus[];
        const containers = await store.containers.find(report.id, {
          ...(statuses.length ? { statuses } : {}),
          ...(q.q ? { text: q.q } : {}),
          testsOnly: q.tests_only,
          ...(q.after !== undefined ? { afterSeq: q.after } : {}),
          limit: q.limit,
        });
        const last = containers[containers.length - 1];
        return {
          report_id: report.number,
          containers: containers.map((c) => containerJson(c, report)),
          next_after: containers.length === q.limit && last ? last.seq : null,
        };
      },
    });

    const historyQuery = Joi.object({
      n: Joi.number().integer().min(1).max(MAX_HISTORY_REPORTS).default(DEFAULT_HISTORY_REPORTS),
      show: Joi.string().valid('all', 'failing', 'flaky').default('all'),
      offset: Joi.number().integer().min(0).default(0),
      limit: Joi.number().integer().min(1).max(10_000).default(500),
      branch: Joi.string().trim().min(1).max(256).description("only reports of this branch (their CI context's)"),
    }).unknown(true);

    profileRoute('/api/v2/profiles/{id}/history', historyQuery, (request, _h, profile) => {
      const q = request.query as { n: number; show: 'all' | 'failing' | 'flaky'; offset: number; limit: number };
      const { tags, branch } = reportFilterOf(request);
      return compareHistory(store, profile.id, { ...q, tags, branch });
    });

    profileRoute('/api/v2/profiles/{id}/history/{key}', historyQuery, async (request, h, profile) => {
      const key = Number((request.params as { key: string }).key);
      const found = Number.isSafeInteger(key)
        ? await testHistory(store, profile.id, key, {
            n: (request.query as { n: number }).n,
            tags: reportFilterOf(request).tags,
            branch: reportFilterOf(request).branch,
          })
        : null;
      return found ? { profile_id: profile.number, ...found } : fault(h, 'not_found');
    });

    profileRoute('/api/v2/profiles/{id}/upload', null, (request, _h, profile) =>
      uploadInfo(registry, profile, baseUrl(request, publicUrl)),
    );

    server.route({
      method: 'GET',
      path: '/api/v2/account',
      options: { auth: 'api-key' },
      handler: async (request, h) => (await accountInfo(store, accountOf(request))) ?? fault(h, 'not_found'),
    });
  },
};
