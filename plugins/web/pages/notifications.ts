/**
 * A profile's notifications page: its rules (events → a webhook or e-mail addresses), a form to add
 * one, and per rule a button that sends a test and one that removes it, all forms carrying the
 * session's CSRF token; under them the delivery log. The JSON twin is plugins/notifications.ts, and
 * both save through lib/notify/rules.ts. A saved webhook shows only its hint; a refused form is shown
 * again with what was typed, the URL left out.
 */
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { message, type MessageCode } from '../../../lib/messages.js';
import { MAX_RECIPIENTS } from '../../../lib/notify/rule-input.js';
import { ruleJson, saveRule } from '../../../lib/notify/rules.js';
import { NOTIFY_EVENTS, WEBHOOK_FORMATS, type NotificationRule } from '../../../lib/store/notifications.js';
import type { Profile } from '../../../lib/store/types.js';
import { DEFAULT_DELIVERIES, deliveriesJson } from '../../notifications.js';
import type { WebContext } from '../context.js';
import { redirectWithFlash, takeFlash } from '../flash.js';
import { html, type Html } from '../html.js';
import { messageList, page } from '../layout.js';
import { credentialsOf } from '../session.js';
import { FORM_PAYLOAD, errorPage, ownProfile, respond } from './common.js';

const EVENT_LABELS: Record<(typeof NOTIFY_EVENTS)[number], string> = {
  import: 'Every import',
  new_failure: 'A new failure',
  fixed: 'A fix',
  newly_flaky: 'Newly flaky',
  import_failed: 'An import that failed',
};

const FORMAT_LABELS: Record<(typeof WEBHOOK_FORMATS)[number], string> = {
  json: 'Tally JSON',
  slack: 'Slack',
  teams: 'Microsoft Teams',
};

interface Typed {
  events: string[];
  format?: string;
  email?: string;
}

export function notificationRoutes(ctx: WebContext): ServerRoute[] {
  const web = { 'tally-web': {} };
  const base = (p: Profile) => `/profiles/${p.number}/notifications`;
  const load = async (request: Request, h: ResponseToolkit) =>
    (await ownProfile(ctx, request, (request.params as { id: string }).id)) ?? errorPage(ctx, request, h, 'not_found');

  const notificationsPage = async (
    request: Request,
    h: ResponseToolkit,
    profile: Profile,
    problem?: { code: MessageCode; detail?: string },
    typed?: Typed,
  ) => {
    const user = credentialsOf(request);
    const rules = await ctx.store.notificationRules.list(profile.id);
    const deliveries = await deliveriesJson(
      ctx.store,
      await ctx.store.deliveries.list(profile.id, { limit: DEFAULT_DELIVERIES }),
    );
    const { saving } = ctx.notify;
    const csrf = html`<input type="hidden" name="csrf" value="${user.csrfToken}" />`;
    const chosen = new Set(typed?.events ?? []);
    const body = html`<h2>Notifications</h2>
      <p class="muted">
        When an import of this profile ends, each rule whose events happened sends one message to its target.
      </p>
      ${problem ? messageList([message(problem.code, problem.detail ? { detail: problem.detail } : {})]) : ''}
      ${
        rules.length === 0
          ? html`<p class="muted">No rules yet.</p>`
          : html`<table class="grid compact notify-rules">
              <thead>
                <tr>
                  <th>Events</th>
                  <th>Target</th>
                  <th>Added</th>
                  <th></th>
                </tr>
              </thead>
              <tbody>
                ${rules.map((r) => ruleRow(base(profile), r, csrf))}
              </tbody>
            </table>`
      }
      <h3>Add a rule</h3>
      <form method="post" action="${base(profile)}" class="ci-form" id="notify-add">
        ${csrf}
        <fieldset>
          <legend>When</legend>
          ${NOTIFY_EVENTS.map(
            (e) =>
              html`<label class="check"
                ><input type="checkbox" name="events" value="${e}" ${chosen.has(e) ? html`checked` : ''} />
                ${EVENT_LABELS[e]}</label
              >`,
          )}
        </fieldset>
        <fieldset>
          <legend>Send to a webhook…</legend>
          ${saving.box ? '' : messageList([message('notification_secret_key_missing')])}
          <label
            >Webhook URL <input type="url" name="webhook" autocomplete="off" maxlength="2048" />
            <span class="muted">Encrypted when saved, and never shown again in full.</span></label
          >
          <label
            >Body
            <select name="format">
              ${WEBHOOK_FORMATS.map(
                (f) =>
                  html`<option value="${f}" ${typed?.format === f ? html`selected` : ''}>${FORMAT_LABELS[f]}</option>`,
              )}
            </select></label
          >
        </fieldset>
        <fieldset>
          <legend>…or by e-mail</legend>
          ${saving.smtp ? '' : messageList([message('notification_smtp_missing')])}
          <label
            >Addresses <input type="text" name="email" maxlength="4000" value="${typed?.email ?? ''}" />
            <span class="muted">Up to ${MAX_RECIPIENTS}, separated by commas.</span></label
          >
        </fieldset>
        <button type="submit">Add the rule</button>
      </form>
      <h3>Deliveries</h3>
      ${deliveryTable(deliveries)}`;
    return respond(
      h,
      page(
        ctx,
        {
          title: `Notifications · ${profile.name}`,
          user,
          profile,
          tab: 'notifications',
          flash: problem ? null : takeFlash(request, h),
        },
        body,
      ),
      problem ? 400 : 200,
    );
  };

  const ruleParams = { params: Joi.object({ id: Joi.string().required(), rule: Joi.string().max(64).required() }) };
  /** The signed-in account's profile and one of its rules, or the page that says there is none. */
  const profileAndRule = async (request: Request, h: ResponseToolkit) => {
    const profile = await load(request, h);
    if (!('accountId' in profile)) return { reply: profile };
    const rule = await ctx.store.notificationRules.get((request.params as { rule: string }).rule);
    if (!rule || rule.profileId !== profile.id)
      return { reply: errorPage(ctx, request, h, 'notification_rule_not_found') };
    return { profile, rule };
  };

  /** A rule's button (`delete`, `test`): done, then back to the page with what it did. */
  const ruleAction = (
    name: string,
    act: (profile: Profile, rule: NotificationRule) => Promise<string>,
  ): ServerRoute => ({
    method: 'POST',
    path: `/profiles/{id}/notifications/{rule}/${name}`,
    options: { auth: 'session', plugins: web, payload: FORM_PAYLOAD, validate: ruleParams },
    handler: async (request, h) => {
      const found = await profileAndRule(request, h);
      if ('reply' in found) return found.reply;
      return redirectWithFlash(h, base(found.profile), await act(found.profile, found.rule));
    },
  });

  return [
    {
      method: 'GET',
      path: '/profiles/{id}/notifications',
      options: { auth: 'session', plugins: web },
      handler: async (request, h) => {
        const profile = await load(request, h);
        return 'accountId' in profile ? notificationsPage(request, h, profile) : profile;
      },
    },
    {
      method: 'POST',
      path: '/profiles/{id}/notifications',
      options: { auth: 'session', plugins: web, payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        const profile = await load(request, h);
        if (!('accountId' in profile)) return profile;
        const form = (request.payload ?? {}) as Record<string, string | string[] | undefined>;
        const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
        const events = ([] as string[]).concat(form.events ?? []);
        const webhook = one(form.webhook);
        const email = one(form.email);
        // The form always sends a format; it belongs to the rule only when a webhook is given.
        const fields = {
          events,
          ...(webhook ? { webhook, format: one(form.format) } : {}),
          ...(email ? { email } : {}),
        };
        const saved = await saveRule(ctx.notify.saving, profile, fields);
        if ('code' in saved) {
          const typed: Typed = {
            events,
            ...(one(form.format) ? { format: one(form.format)! } : {}),
            ...(email ? { email } : {}),
          };
          return notificationsPage(request, h, profile, { code: saved.code, detail: saved.problem }, typed);
        }
        return redirectWithFlash(h, base(profile), 'Notification rule added.');
      },
    },
    ruleAction('delete', async (profile, rule) => {
      await ctx.store.notificationRules.delete(profile.id, rule.id);
      return 'Notification rule removed.';
    }),
    ruleAction('test', async (_profile, rule) => {
      await ctx.notify.sender.test(rule);
      return 'A test message is on its way: see the deliveries below.';
    }),
  ];
}

function ruleRow(base: string, r: NotificationRule, csrf: Html): Html {
  const j = ruleJson(r);
  const target = j.webhook
    ? html`${FORMAT_LABELS[j.format!]} webhook <code>${j.webhook}</code>`
    : html`e-mail to ${j.email!.join(', ')}`;
  return html`<tr data-rule="${r.id}">
    <td>${r.events.map((e) => EVENT_LABELS[e]).join(', ')}</td>
    <td>${target}</td>
    <td>${r.createdAt.slice(0, 10)}</td>
    <td>
      <form method="post" action="${base}/${r.id}/test" class="inline-form">
        ${csrf}<button type="submit">Send a test</button>
      </form>
      <form method="post" action="${base}/${r.id}/delete" class="inline-form">
        ${csrf}<button type="submit" class="danger">Remove</button>
      </form>
    </td>
  </tr>`;
}

function deliveryTable(deliveries: Awaited<ReturnType<typeof deliveriesJson>>): Html {
  if (deliveries.length === 0) return html`<p class="muted">Nothing sent yet.</p>`;
  return html`<table class="grid compact notify-deliveries">
    <thead>
      <tr>
        <th>Queued</th>
        <th>Events</th>
        <th>Target</th>
        <th>Status</th>
        <th>Attempts</th>
        <th>Answer</th>
        <th>Last error</th>
        <th>Report</th>
      </tr>
    </thead>
    <tbody>
      ${deliveries.map(
        (d) =>
          html`<tr data-delivery="${d.id}">
            <td>${d.created_at.slice(0, 19).replace('T', ' ')}</td>
            <td>${d.events.length ? d.events.join(', ') : d.trigger}</td>
            <td><code>${d.target}</code></td>
            <td>
              <span class="ci-status notify-${d.status}">${d.status}</span>${
                d.next_attempt_at && d.status === 'pending'
                  ? html` <span class="muted">next ${d.next_attempt_at.slice(11, 19)}</span>`
                  : ''
              }
            </td>
            <td>${d.attempts}</td>
            <td>${d.response_status ?? '–'}</td>
            <td>${d.last_error ?? '–'}</td>
            <td>${d.report_id !== null ? html`<a href="/reports/${d.report_id}">#${d.report_id}</a>` : '–'}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
