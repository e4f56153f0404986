/**
 * Retention as JSON: a profile's policy (`GET`/`PUT /api/v2/profiles/{id}/retention`), its dry run
 * (`POST …/retention/dry-run`: what it would delete now, changing nothing), and pins
 * (`PUT`/`DELETE /api/v2/reports/{report_id}/pin`). A saved policy is applied at once, then after each
 * import and at every sweep (lib/retention/runner.ts). A profile of another account answers 403 and an
 * unknown one 404; a report of another account, or one not completed, 404.
 */
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { checkRetentionPolicy } from '../lib/retention/policy.js';
import { previewRetention, type RetentionPreview } from '../lib/retention/preview.js';
import type { RetentionRunner } from '../lib/retention/runner.js';
import type { RetentionPolicy } from '../lib/store/retention.js';
import type { Store } from '../lib/store/store.js';
import type { Profile } from '../lib/store/types.js';
import { reportOfAccount } from './manage.js';
import { accountOf, profileFor } from './profiles.js';
import { fault, jsonBody } from './replies.js';

export interface RetentionPluginOptions {
  store: Store;
  runner: Pick<RetentionRunner, 'profileChanged'>;
}

export function policyJson(profile: Profile, policy: RetentionPolicy) {
  return { profile_id: profile.number, keep_reports: policy.keepReports, keep_days: policy.keepDays };
}

/** A dry run as the API answers it: the counts of all the reports that would go, the first ones by id. */
export function previewJson(profile: Profile, policy: RetentionPolicy, preview: RetentionPreview) {
  return {
    ...policyJson(profile, policy),
    would_delete: {
      reports: preview.count,
      tests: preview.tests,
      bytes: preview.fileBytes + preview.rowBytes,
      file_bytes: preview.fileBytes,
      row_bytes: preview.rowBytes,
    },
    pinned_kept: preview.pinned,
    reports: preview.reports.map((r) => ({
      report_id: r.number,
      created_at: r.createdAt,
      date: r.date,
      tests: r.totals.tests,
      tags: r.tags,
    })),
  };
}

export const retentionPlugin: Plugin<RetentionPluginOptions> = {
  name: 'tally-retention',
  register(server, o) {
    const path = '/api/v2/profiles/{id}/retention';
    const profileOf = (request: Request, h: ResponseToolkit) =>
      profileFor(o.store, request, h, (request.params as { id: string }).id);

    server.route({
      method: 'GET',
      path,
      options: { auth: 'api-key' },
      handler: async (request, h) => {
        const profile = await profileOf(request, h);
        if (!('accountId' in profile)) return profile;
        return policyJson(profile, await o.store.retention.get(profile.id));
      },
    });

    server.route({
      method: 'PUT',
      path,
      options: { auth: 'api-key', payload: jsonBody('retention_policy_invalid') },
      handler: async (request, h) => {
        const profile = await profileOf(request, h);
        if (!('accountId' in profile)) return profile;
        const given = checkRetentionPolicy(request.payload);
        if ('problem' in given) return fault(h, 'retention_policy_invalid', given.problem);
        await o.store.retention.put(profile.id, given.policy);
        o.runner.profileChanged(profile.id);
        return policyJson(profile, given.policy);
      },
    });

    server.route({
      method: 'POST',
      path: `${path}/dry-run`,
      options: { auth: 'api-key', payload: jsonBody('retention_policy_invalid') },
      handler: async (request, h) => {
        const profile = await profileOf(request, h);
        if (!('accountId' in profile)) return profile;
        // Without a body, the saved policy; a body of `null` is one, and is refused.
        const sent =
          Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
        const given = sent
          ? checkRetentionPolicy(request.payload)
          : { policy: await o.store.retention.get(profile.id) };
        if ('problem' in given) return fault(h, 'retention_policy_invalid', given.problem);
        const preview = await previewRetention(o.store, profile.id, given.policy, new Date());
        return previewJson(profile, given.policy, preview);
      },
    });

    for (const method of ['PUT', 'DELETE'] as const)
      server.route({
        method,
        path: '/api/v2/reports/{report_id}/pin',
        options: { auth: 'api-key' },
        handler: async (request, h) => {
          const id = (request.params as { report_id: string }).report_id;
          const found = await reportOfAccount(o.store, id, accountOf(request));
          const pinned = method === 'PUT';
          if (!found || !(await o.store.reports.pin(found.report.id, pinned))) return fault(h, 'not_found');
          return { report_id: found.report.number, pinned };
        },
      });
  },
};
