/**
 * The read API: what was stored, as JSON, with the same key. A report or import of another
 * account answers 404 (its existence is not revealed).
 */
import type { Plugin, Request } from '@hapi/hapi';
import Joi from 'joi';
import type { Registry } from '../lib/formatter/registry.js';
import type { Store } from '../lib/store/store.js';
import { accountOf, baseUrl, profileFor, profileJson } from './profiles.js';
import { progressPercent, reportPageUrl } from '../lib/import/index.js';
import { queryFailAction } from './query-fault.js';
import { snakeCaseAnswers } from './api-json.js';
import { fault } from './replies.js';
import { idOrNumber } from '../lib/store/numbers.js';
import { containerJson, importJson, reportJson } from './public-ids.js';

interface ReadDeps {
  store: Store;
  registry: Registry;
  publicUrl: string | null;
}

const MAX_PAGE = 1000;

function tagsOf(request: Request): string[] {
  const url = new URL(request.raw.req.url ?? '/', 'http://x');
  return [...url.searchParams.getAll('tag[]'), ...url.searchParams.getAll('tag')].map((t) => t.trim()).filter(Boolean);
}

/** A completed report of the caller's account, by number or UUID, with its profile. */
async function ownedReport(store: Store, request: Request, id: string) {
  const report = await store.reports.get(idOrNumber(id));
  if (!report || report.status !== 'completed') return null;
  const profile = await store.profiles.get(report.profileId);
  return profile && profile.accountId === accountOf(request) ? { report, profile } : null;
}

export const readPlugin: Plugin<ReadDeps> = {
  name: 'tally-read',
  register(server, { store, registry, publicUrl }) {
    // Field names are snake_case on the way out (plugins/api-json.ts).
    server.ext('onPreResponse', snakeCaseAnswers, { sandbox: 'plugin' });
    server.route({
      method: 'GET',
      path: '/api/v2/formatters',
      options: { auth: false },
      handler: () => ({
        formatters: registry.all().map((f) => ({
          key: f.key,
          title: f.title,
          extensions: f.extensions,
          media_types: f.mediaTypes,
          merge_containers_by_default: f.mergeContainersByDefault ?? false,
        })),
      }),
    });

    server.route({
      method: 'GET',
      path: '/api/v2/profile/{profile_id}/reports',
      options: {
        auth: 'api-key',
        validate: {
          // `before` is a time, or the `next_before` cursor of the previous page (`<time>~<report id>`).
          query: Joi.object({
            limit: Joi.number().integer().min(1).max(MAX_PAGE).default(50),
            before: Joi.string()
              .pattern(/^[0-9T:.+Z-]+(~[0-9a-f-]{36})?$/)
              .description('a time, or the next_before cursor of the previous page'),
            branch: Joi.string().trim().min(1).max(256).description("only reports of this branch (their CI context's)"),
          }).unknown(true),
          failAction: queryFailAction,
        },
      },
      handler: async (request, h) => {
        const profile = await profileFor(store, request, h, (request.params as { profile_id: string }).profile_id);
        if (!('accountId' in profile)) return profile;
        const q = request.query as { limit: number; before?: string; branch?: string };
        const tags = tagsOf(request);
        const [before, beforeId] = (q.before ?? '').split('~');
        if (before && Number.isNaN(Date.parse(before)))
          return fault(h, 'invalid_query', `before must be a time, or the next_before cursor of the previous page.`, {
            parameter: 'before',
            allowed: 'a time, or the next_before cursor of the previous page',
          });
        const reports = await store.reports.list(profile.id, {
          limit: q.limit,
          ...(before ? { before } : {}),
          ...(beforeId ? { beforeId } : {}),
          ...(tags.length ? { tags } : {}),
          ...(q.branch ? { branch: q.branch } : {}),
        });
        const last = reports[reports.length - 1];
        return {
          profile_id: profile.number,
          reports: reports.map((r) => reportJson(r, profile)),
          next_before: reports.length === q.limit && last ? `${last.createdAt}~${last.id}` : null,
        };
      },
    });

    server.route({
      method: 'GET',
      path: '/api/v2/profile/{profile_id}',
      options: { auth: 'api-key' },
      handler: async (request, h) => {
        // Clients call this to check their settings: the key may use the profile.
        const profile = await profileFor(store, request, h, (request.params as { profile_id: string }).profile_id);
        if (!('accountId' in profile)) return profile;
        return profileJson(profile);
      },
    });

    server.route({
      method: 'GET',
      path: '/api/v2/reports/{report_id}/status',
      options: { auth: 'api-key' },
      handler: async (request, h) => {
        const report = await store.reports.get(idOrNumber((request.params as { report_id: string }).report_id));
        // A report being deleted is gone already.
        const record = report && report.status !== 'deleting' ? await store.imports.get(report.importId) : null;
        if (!report || !record || record.accountId !== accountOf(request)) return fault(h, 'not_found');
        const finished = record.status === 'completed' || record.status === 'failed';
        return {
          report_id: report.number,
          import_id: record.id,
          import_status: record.status,
          import_progress: progressPercent(record.status, record.progress),
          progress: record.progress,
          report_url: record.status === 'failed' ? null : reportPageUrl(baseUrl(request, publicUrl), report.number),
          messages: finished ? record.messages : [],
          totals: record.status === 'completed' ? report.totals : null,
        };
      },
    });

    server.route({
      method: 'GET',
      path: '/api/v2/reports/{report_id}',
      options: { auth: 'api-key' },
      handler: async (request, h) => {
        const owned = await ownedReport(store, request, (request.params as { report_id: string }).report_id);
        return owned ? reportJson(owned.report, owned.profile) : fault(h, 'not_found');
      },
    });

    server.route({
      method: 'GET',
      path: '/api/v2/reports/{report_id}/containers',
      options: {
        auth: 'api-key',
        validate: {
          query: Joi.object({
            parent: Joi.number().integer().min(1),
            after: Joi.number().integer().min(0),
            limit: Joi.number().integer().min(1).max(MAX_PAGE).default(100),
          }),
          failAction: queryFailAction,
        },
      },
      handler: async (request, h) => {
        const report = (await ownedReport(store, request, (request.params as { report_id: string }).report_id))?.report;
        if (!report) return fault(h, 'not_found');
        const q = request.query as { parent?: number; after?: number; limit: number };
        const containers = await store.containers.list(report.id, {
          parentSeq: q.parent ?? null,
          limit: q.limit,
          ...(q.after !== undefined ? { afterSeq: q.after } : {}),
        });
        const last = containers[containers.length - 1];
        return {
          report_id: report.number,
          parent: q.parent ?? null,
          containers: containers.map((c) => containerJson(c, report)),
          next_after: containers.length === q.limit && last ? last.seq : null,
        };
      },
    });

    server.route({
      method: 'GET',
      path: '/api/v2/imports/{import_id}',
      options: { auth: 'api-key' },
      handler: async (request, h) => {
        const record = await store.imports.get((request.params as { import_id: string }).import_id);
        if (!record || record.accountId !== accountOf(request)) return fault(h, 'not_found');
        const [profile, report] = await Promise.all([
          store.profiles.get(record.profileId),
          record.reportId ? store.reports.get(record.reportId) : null,
        ]);
        return importJson(record, profile, report);
      },
    });

    server.route({
      method: 'GET',
      path: '/api/v2/imports/{import_id}/blobs/{blob_id}',
      options: { auth: 'api-key' },
      handler: async (request, h) => {
        const { import_id, blob_id } = request.params as { import_id: string; blob_id: string };
        const record = await store.imports.get(import_id);
        if (!record || record.accountId !== accountOf(request)) return fault(h, 'not_found');
        const file = [...record.files, ...record.attachments].find((f) => f.blobId === blob_id);
        const stream = file ? await store.blobs.open(file.blobId) : null;
        if (!file || !stream) return fault(h, 'not_found');
        // Served as a download with its type never sniffed: an uploaded HTML file must not run in Tally's origin.
        return h
          .response(stream)
          .type(
            file.contentType && !/html|javascript|svg|xml/i.test(file.contentType)
              ? file.contentType
              : 'application/octet-stream',
          )
          .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
          .header('x-content-type-options', 'nosniff')
          .header('content-length', String(file.size));
      },
    });
  },
};
