/**
 * What a linked profile's CI page shows of its job (a "Start a run" form, the recent runs with the
 * reports they produced, the schedules) and a run's log page, `/profiles/{id}/ci/runs/{run}`. The
 * log is read one chunk at a time, never whole: the page renders the chunk from `?offset=` with its
 * ANSI colours as classes (lib/ci/ansi.ts; every character escaped) and a "more" link to the next
 * offset, so it reads without JavaScript; tally.js follows a running log from the JSON route
 * `/profiles/{id}/ci/runs/{run}/log`, which hands out the same chunks already converted. A
 * provider's fault is its coded message on the page, never a 500.
 */
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import { ansiRuns, classesOf, styleOf, type AnsiRun } from '../../../lib/ci/ansi.js';
import { entry, message } from '../../../lib/messages.js';
import type { Profile } from '../../../lib/store/types.js';
import {
  LOG_QUERY,
  PAGE_LOG_CHUNK_BYTES,
  RUN_PARAMS,
  problemReply,
  queryOrParamsFail,
  readLog,
  recentRuns,
  schedules,
  startRun,
  type CiProblem,
  type CiRunsDeps,
  type MatchedRun,
} from '../../ci-runs.js';
import { fault } from '../../replies.js';
import type { WebContext } from '../context.js';
import { redirectWithFlash, takeFlash } from '../flash.js';
import { duration, when } from '../format.js';
import { html, query, type Html } from '../html.js';
import { messageList, page } from '../layout.js';
import { credentialsOf } from '../session.js';
import { FORM_PAYLOAD, errorPage, ownProfile, respond } from './common.js';

/** Runs the CI page lists. */
const PAGE_RUNS = 20;

const depsOf = (ctx: WebContext): CiRunsDeps => ({ store: ctx.store, ...ctx.ci });

const problemList = (p: CiProblem): Html => messageList([message(p.code, p.detail ? { detail: p.detail } : {})]);

/** The linked job's part of the CI page: start, runs, schedules; each call's fault shown in place. */
export async function jobSection(ctx: WebContext, request: Request, profile: Profile): Promise<Html> {
  const deps = depsOf(ctx);
  const [runs, plan] = await Promise.all([recentRuns(deps, profile, PAGE_RUNS), schedules(deps, profile)]);
  const started = typeof request.query.started === 'string' ? request.query.started : null;
  const base = `/profiles/${profile.number}/ci`;
  return html`<section class="ci-job" id="ci-runs">
      <h2>Runs</h2>
      <form method="post" action="${base}/runs" class="inline-form" id="ci-start">
        <input type="hidden" name="csrf" value="${credentialsOf(request).csrfToken}" />
        <button type="submit">Start a run</button>
      </form>
      ${'problem' in runs ? problemList(runs.problem) : runsTable(base, runs.ok, started)}
    </section>
    <section class="ci-job" id="ci-schedules">
      <h2>Schedules</h2>
      ${
        'problem' in plan
          ? problemList(plan.problem)
          : plan.ok.length === 0
            ? html`<p class="muted">The job has no schedule.</p>`
            : html`<table class="grid compact ci-schedules">
                <thead>
                  <tr>
                    <th>Cron</th>
                    <th>Branch</th>
                    <th>Next run</th>
                    <th>Description</th>
                  </tr>
                </thead>
                <tbody>
                  ${plan.ok.map(
                    (s) =>
                      html`<tr>
                        <td><code>${s.cron}</code></td>
                        <td>${s.branch ?? '–'}</td>
                        <td>${when(s.nextRunAt)}</td>
                        <td>${s.description ?? ''}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
      }
    </section>`;
}

function runsTable(base: string, runs: MatchedRun[], started: string | null): Html {
  if (runs.length === 0) return html`<p class="muted">No runs yet.</p>`;
  return html`<table class="grid compact ci-runs">
    <thead>
      <tr>
        <th>Status</th>
        <th>Run</th>
        <th>Branch</th>
        <th>Commit</th>
        <th>Started</th>
        <th>Duration</th>
        <th>Log</th>
        <th>Report</th>
      </tr>
    </thead>
    <tbody>
      ${runs.map(({ run, report }) => {
        const label = run.number !== null ? `#${run.number}` : run.id;
        return html`<tr data-run="${run.id}" ${run.id === started ? html`class="started"` : ''}>
          <td><span class="ci-status ci-${run.status}">${run.status}</span></td>
          <td>
            ${safeUrl(run.webUrl) ? html`<a href="${run.webUrl!}" rel="noopener noreferrer">${label}</a>` : label}
          </td>
          <td>${run.branch ?? '–'}</td>
          <td>${run.commit ? html`<code>${run.commit.slice(0, 10)}</code>` : '–'}</td>
          <td>${when(run.startedAt)}</td>
          <td>${duration(run.durationMs)}</td>
          <td><a href="${base}/runs/${encodeURIComponent(run.id)}">log</a></td>
          <td>${report !== null ? html`<a href="/reports/${report}">#${report}</a>` : '–'}</td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

/** Only an http(s) link from a provider becomes a link on the page. */
const safeUrl = (u: string | null): boolean => u !== null && /^https?:\/\//i.test(u);

/** A chunk as the page shows it: one span per style, text escaped; where it starts, to read it again. */
const chunkHtml = (runs: AnsiRun[], offset: number, from: LogState): Html =>
  html`<span class="ci-chunk" data-offset="${offset}" data-style="${from.style}" data-carry="${from.carry}"
    >${runs.map((r) => (r.classes ? html`<span class="${r.classes}">${r.text}</span>` : r.text))}</span
  >`;

/**
 * What the page carries from one chunk to the next: the style in force (class names) and an escape
 * cut at the chunk's end (its text, read again in front of the next chunk). Offsets are the
 * provider's own (bytes for most, lines for some), so a cut escape cannot be read again by moving
 * the offset back.
 */
/** The log routes' query, once validated. */
type LogQuery = { offset: number; max_bytes: number } & LogState;

interface LogState {
  style: string;
  carry: string;
}

/** A cut escape longer than this is dropped rather than carried (an unended OSC string). */
const MAX_CARRY = 512;

function convert(text: string, complete: boolean, from: LogState): { runs: AnsiRun[] } & LogState {
  const whole = from.carry + text;
  let out = ansiRuns(whole, styleOf(from.style), complete);
  if (out.pending > MAX_CARRY) out = ansiRuns(whole, styleOf(from.style), true);
  return {
    runs: out.runs,
    style: classesOf(out.style),
    carry: out.pending ? whole.slice(whole.length - out.pending) : '',
  };
}

/** The log's element: its text kept exactly (no white space of the template inside the <pre>). */
const logPre = (url: string, c: { next: number; complete: boolean } & LogState, chunk: Html): Html =>
  html`<pre
    class="ci-log"
    id="ci-log"
    data-log="${url}"
    data-next="${c.next}"
    data-style="${c.style}"
    data-carry="${c.carry}"
    data-complete="${c.complete ? 'true' : 'false'}"
  >
${chunk}</pre>`;

const PAGE_QUERY = LOG_QUERY.keys({
  style: Joi.string().max(200).allow('').default('').description('the style the log is in, as class names'),
  carry: Joi.string()
    .max(MAX_CARRY)
    // eslint-disable-next-line no-control-regex
    .pattern(/^\u001b/)
    .allow('')
    .default('')
    .description('an escape cut at the end of the previous chunk'),
});

export function ciRunRoutes(ctx: WebContext): ServerRoute[] {
  const web = { 'tally-web': {} };
  const deps = depsOf(ctx);
  const load = async (request: Request, h: ResponseToolkit) =>
    (await ownProfile(ctx, request, (request.params as { id: string }).id)) ?? errorPage(ctx, request, h, 'not_found');

  return [
    {
      method: 'POST',
      path: '/profiles/{id}/ci/runs',
      options: { auth: 'session', plugins: web, payload: FORM_PAYLOAD },
      handler: async (request, h) => {
        const profile = await load(request, h);
        if (!('accountId' in profile)) return profile;
        const run = await startRun(deps, profile);
        if ('problem' in run) {
          const { code, detail } = run.problem;
          return errorPage(ctx, request, h, code, detail);
        }
        const label = run.ok.number !== null ? `#${run.ok.number}` : run.ok.id;
        return redirectWithFlash(
          h,
          `/profiles/${profile.number}/ci${query({ started: run.ok.id })}#ci-runs`,
          `Run ${label} started.`,
        );
      },
    },
    {
      method: 'GET',
      path: '/profiles/{id}/ci/runs/{run}',
      options: {
        auth: 'session',
        plugins: web,
        validate: {
          params: RUN_PARAMS,
          query: PAGE_QUERY,
          failAction: (request, h, err) => {
            const source = (err as { output?: { payload?: { validation?: { source?: string } } } } | undefined)?.output
              ?.payload?.validation?.source;
            return source === 'params'
              ? errorPage(ctx, request, h, 'not_found').takeover()
              : errorPage(ctx, request, h, 'invalid_query', 'offset and max_bytes are whole numbers').takeover();
          },
        },
      },
      handler: async (request, h) => {
        const profile = await load(request, h);
        if (!('accountId' in profile)) return profile;
        const run = (request.params as { run: string }).run;
        const q = request.query as unknown as LogQuery;
        const user = credentialsOf(request);
        const base = `/profiles/${profile.number}/ci`;
        const options = { title: `Run ${run} · ${profile.name}`, user, profile, tab: 'ci' as const };
        const chunk = await readLog(deps, profile, run, q.offset, Math.min(q.max_bytes, PAGE_LOG_CHUNK_BYTES));
        if ('problem' in chunk) {
          const body = html`<h2>Run ${run}</h2>
            ${problemList(chunk.problem)}
            <p><a href="${base}">Back to the CI page</a></p>`;
          return respond(h, page(ctx, options, body), entry(chunk.problem.code).status);
        }
        const c = {
          ...convert(chunk.ok.text, chunk.ok.complete, q),
          next: chunk.ok.nextOffset,
          complete: chunk.ok.complete,
        };
        // The run's line (status, number, its page): from the recent runs, when it is among them.
        const listed = await recentRuns(deps, profile, PAGE_RUNS);
        const info = 'ok' in listed ? listed.ok.find((m) => m.run.id === run) : undefined;
        const next = query({ offset: c.next, style: c.style, carry: c.carry });
        const more = `${base}/runs/${encodeURIComponent(run)}${next}`;
        const body = html`<h2>
            Run ${info?.run.number != null ? `#${info.run.number}` : run}
            ${
              info
                ? html`<span class="ci-status ci-${info.run.status}" id="ci-run-status">${info.run.status}</span>`
                : ''
            }
          </h2>
          <p class="muted">
            ${
              info && safeUrl(info.run.webUrl)
                ? html`<a href="${info.run.webUrl!}" rel="noopener noreferrer">On the CI provider</a> · `
                : ''
            }
            ${info?.run.branch ? html`<code>${info.run.branch}</code> · ` : ''}
            ${info?.report != null ? html`<a href="/reports/${info.report}">Report #${info.report}</a> · ` : ''}
            <a href="${base}">Back to the CI page</a>
          </p>
          ${
            q.offset > 0
              ? html`<p class="ci-log-note">
                  The log from offset ${q.offset}.
                  <a href="${base}/runs/${encodeURIComponent(run)}">Read it from the start</a>
                </p>`
              : ''
          }
          <p class="ci-log-note" id="ci-log-dropped" hidden>
            Earlier parts of the log were dropped from this page to keep it light.
            <a href="#">Read them from an earlier offset</a>
          </p>
          ${logPre(`${base}/runs/${encodeURIComponent(run)}/log`, c, chunkHtml(c.runs, q.offset, q))}
          <p class="ci-log-state" id="ci-log-state" role="status">
            ${c.complete ? 'End of the log.' : html`<a href="${more}" id="ci-log-more">More of the log</a>`}
          </p>`;
        return respond(h, page(ctx, { ...options, flash: takeFlash(request, h) }, body));
      },
    },
    {
      method: 'GET',
      path: '/profiles/{id}/ci/runs/{run}/log',
      options: {
        auth: 'session',
        plugins: web,
        validate: {
          params: RUN_PARAMS,
          query: PAGE_QUERY,
          failAction: queryOrParamsFail((request, h) => errorPage(ctx, request, h, 'not_found').takeover()),
        },
      },
      handler: async (request, h) => {
        const profile = await ownProfile(ctx, request, (request.params as { id: string }).id);
        if (!profile) return fault(h, 'not_found');
        const q = request.query as unknown as LogQuery;
        const run = (request.params as { run: string }).run;
        const chunk = await readLog(deps, profile, run, q.offset, Math.min(q.max_bytes, PAGE_LOG_CHUNK_BYTES));
        if ('problem' in chunk) return problemReply(h, chunk.problem);
        const c = convert(chunk.ok.text, chunk.ok.complete, q);
        // Runs as [classes, text] pairs: the script builds spans from them with text nodes only.
        return {
          offset: q.offset,
          runs: c.runs.map((r) => [r.classes, r.text]),
          style: c.style,
          carry: c.carry,
          next_offset: chunk.ok.nextOffset,
          complete: chunk.ok.complete,
        };
      },
    },
  ];
}
