/**
 * A profile's notification rules and delivery log as JSON: `GET/POST /api/v2/profiles/{id}/notifications`,
 * `DELETE …/notifications/{rule_id}`, `POST …/notifications/{rule_id}/test` and
 * `GET …/notifications/deliveries`. A webhook's URL is write-only: sealed before the store sees it
 * (lib/notify/rules.ts) and answered as its hint; a profile of another account answers 403 and an
 * unknown one 404, as every profile route does. The page (plugins/web/pages/notifications.ts) shares
 * `saveRule` and the JSON shapes.
 */
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import Joi from 'joi';
import type { RuleSaving } from '../lib/notify/rules.js';
import { ruleJson, saveRule } from '../lib/notify/rules.js';
import type { NotificationSender } from '../lib/notify/sender.js';
import type { Delivery, DeliveryCursor } from '../lib/store/notifications.js';
import type { Store } from '../lib/store/store.js';
import { profileFor } from './profiles.js';
import { queryFailAction } from './query-fault.js';
import { fault, jsonBody } from './replies.js';

export interface NotifyPluginOptions {
  saving: RuleSaving;
  sender: NotificationSender;
}

export const DEFAULT_DELIVERIES = 50;
export const MAX_DELIVERIES = 200;

const JSON_BODY = jsonBody('notification_rule_invalid');

/** The log's cursor: the last delivery of a page, `<created_at>~<id>`. */
const cursorText = (d: DeliveryCursor) => `${d.createdAt}~${d.id}`;
const CURSOR = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)~([0-9a-f-]{36})$/;

/** A delivery as the log shows it, with its report's public number when the report is still there. */
export async function deliveriesJson(store: Store, deliveries: readonly Delivery[]) {
  const numbers = new Map<string, number | null>();
  for (const d of deliveries)
    if (d.reportId && !numbers.has(d.reportId))
      numbers.set(d.reportId, (await store.reports.get(d.reportId))?.number ?? null);
  return deliveries.map((d) => ({
    id: d.id,
    rule_id: d.ruleId,
    trigger: d.trigger,
    events: d.events,
    target: d.target,
    status: d.status,
    attempts: d.attempts,
    last_error: d.lastError,
    response_status: d.responseStatus,
    import_id: d.importId,
    report_id: d.reportId ? (numbers.get(d.reportId) ?? null) : null,
    created_at: d.createdAt,
    next_attempt_at: d.status === 'pending' || d.status === 'sending' ? d.nextAttemptAt : null,
    finished_at: d.finishedAt,
  }));
}

export const notificationsPlugin: Plugin<NotifyPluginOptions> = {
  name: 'tally-notifications',
  register(server, o) {
    const { store } = o.saving;
    const path = '/api/v2/profiles/{id}/notifications';
    const profileOf = (request: Request, h: ResponseToolkit) =>
      profileFor(store, request, h, (request.params as { id: string }).id);
    const ruleOf = async (request: Request, h: ResponseToolkit) => {
      const profile = await profileOf(request, h);
      if (!('accountId' in profile)) return { reply: profile };
      const rule = await store.notificationRules.get((request.params as { rule: string }).rule);
      return rule && rule.profileId === profile.id
        ? { profile, rule }
        : { reply: fault(h, 'notification_rule_not_found') };
    };

    server.route({
      method: 'GET',
      path,
      options: { auth: 'api-key' },
      handler: async (request, h) => {
        const profile = await profileOf(request, h);
        if (!('accountId' in profile)) return profile;
        const rules = await store.notificationRules.list(profile.id);
        return { profile_id: profile.number, rules: rules.map(ruleJson) };
      },
    });

    server.route({
      method: 'POST',
      path,
      options: { auth: 'api-key', payload: JSON_BODY },
      handler: async (request, h) => {
        const profile = await profileOf(request, h);
        if (!('accountId' in profile)) return profile;
        const saved = await saveRule(o.saving, profile, request.payload);
        if ('code' in saved) return fault(h, saved.code, saved.problem);
        return h.response(ruleJson(saved.rule)).code(201);
      },
    });

    server.route({
      method: 'DELETE',
      path: `${path}/{rule}`,
      options: { auth: 'api-key' },
      handler: async (request, h) => {
        const found = await ruleOf(request, h);
        if ('reply' in found) return found.reply;
        await store.notificationRules.delete(found.profile.id, found.rule.id);
        return { profile_id: found.profile.number, rule_id: found.rule.id, deleted: true };
      },
    });

    server.route({
      method: 'POST',
      path: `${path}/{rule}/test`,
      options: { auth: 'api-key' },
      handler: async (request, h) => {
        const found = await ruleOf(request, h);
        if ('reply' in found) return found.reply;
        const delivery = await o.sender.test(found.rule);
        return h.response((await deliveriesJson(store, [delivery]))[0]).code(202);
      },
    });

    server.route({
      method: 'GET',
      path: `${path}/deliveries`,
      options: {
        auth: 'api-key',
        validate: {
          query: Joi.object({
            limit: Joi.number().integer().min(1).max(MAX_DELIVERIES).default(DEFAULT_DELIVERIES),
            before: Joi.string().pattern(CURSOR).description('the next_before of the previous page'),
          }),
          failAction: queryFailAction,
        },
      },
      handler: async (request, h) => {
        const profile = await profileOf(request, h);
        if (!('accountId' in profile)) return profile;
        const q = request.query as { limit: number; before?: string };
        const m = q.before ? CURSOR.exec(q.before)! : null;
        const page = await store.deliveries.list(profile.id, {
          limit: q.limit,
          ...(m ? { before: { createdAt: m[1]!, id: m[2]! } } : {}),
        });
        return {
          profile_id: profile.number,
          deliveries: await deliveriesJson(store, page),
          next_before: page.length === q.limit ? cursorText(page.at(-1)!) : null,
        };
      },
    });
  },
};
