/**
 * A profile's reports, newest first: date and, under it, the CI build (number linking to the run,
 * branch, short commit), tags, totals, status; filter by tag, branch and date; paged.
 */
import type { Request, ServerRoute } from '@hapi/hapi';
import type { ContainerStatus } from '../../../lib/formatter/api.js';
import { passRate, reportStatus, TOLD_STATUSES, toldInAny } from '../../../lib/totals.js';
import type { Report, ReportQuery } from '../../../lib/store/types.js';
import { passFailTrend } from '../charts.js';
import type { WebContext } from '../context.js';
import { takeFlash } from '../flash.js';
import { percent, when } from '../format.js';
import { html, query } from '../html.js';
import { page } from '../layout.js';
import { credentialsOf } from '../session.js';
import { errorPage, ownProfile, respond } from './common.js';

export const REPORTS_PER_PAGE = 50;

export interface ReportFilter {
  tags: string[];
  /** Only reports whose CI context names this branch. */
  branch: string | null;
  /** YYYY-MM-DD: reports imported on or after this day (UTC). */
  from: string | null;
  /** YYYY-MM-DD: reports imported on or before this day (UTC). */
  to: string | null;
  /** The `next_before` cursor of the previous page. */
  before: string | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function tagsOfQuery(request: Request): string[] {
  const url = new URL(request.raw.req.url ?? '/', 'http://x');
  return [...url.searchParams.getAll('tag[]'), ...url.searchParams.getAll('tag')]
    .flatMap((t) => t.split(/[\s,]+/))
    .map((t) => t.trim())
    .filter(Boolean)
    .slice(0, 20);
}

export function reportFilterOf(request: Request): ReportFilter {
  const q = request.query as Record<string, unknown>;
  const day = (v: unknown) => (typeof v === 'string' && DAY.test(v) && !Number.isNaN(Date.parse(v)) ? v : null);
  const before = typeof q.before === 'string' && /^[0-9T:.+Z-]+(~[0-9a-f-]{36})?$/.test(q.before) ? q.before : null;
  const branch = typeof q.branch === 'string' && q.branch.trim() ? q.branch.trim().slice(0, 256) : null;
  return { tags: tagsOfQuery(request), branch, from: day(q.from), to: day(q.to), before };
}

/** The store query of a filter: `to` is inclusive, so the bound is the next midnight. */
export function storeQuery(f: ReportFilter, limit: number): ReportQuery {
  const q: ReportQuery = {
    limit,
    ...(f.tags.length ? { tags: f.tags } : {}),
    ...(f.branch ? { branch: f.branch } : {}),
  };
  if (f.from) q.since = `${f.from}T00:00:00.000Z`;
  let before: string | null = f.to ? new Date(Date.parse(`${f.to}T00:00:00.000Z`) + 86_400_000).toISOString() : null;
  if (f.before) {
    const [time, id] = f.before.split('~');
    if (time && !Number.isNaN(Date.parse(time)) && (!before || new Date(time).toISOString() < before)) {
      before = new Date(time).toISOString();
      if (id) q.beforeId = id;
    }
  }
  if (before) q.before = before;
  return q;
}

function cellClass(s: ContainerStatus): string {
  return s === 'passed' ? 'num pass' : s === 'failed' || s === 'errored' ? 'num fail' : 'num';
}

/**
 * The CI build of a report: its number linking to the run, its branch (a link to the reports of the
 * branch when `profile` is given), its short commit.
 */
export function ciBuild(r: Report, profile: number | null) {
  const ci = r.ci;
  if (!ci) return '';
  const number = ci.buildNumber ? `#${ci.buildNumber}` : 'run';
  const title = [ci.provider, ci.job].filter(Boolean).join(' · ');
  // buildUrl is http(s) only (checked at import): never a javascript: link.
  return html`${
    ci.buildUrl
      ? html`<a class="build" href="${ci.buildUrl}" rel="noopener noreferrer" title="${title}">${number}</a>`
      : ci.buildNumber
        ? html`<span class="build" title="${title}">${number}</span>`
        : ''
  }${
    ci.branch
      ? profile === null
        ? html` <span class="branch">${ci.branch}</span>`
        : html` <a class="branch" href="/profiles/${profile}${query({ branch: ci.branch })}">${ci.branch}</a>`
      : ''
  }${ci.commit ? html` <code class="commit" title="${ci.commit}">${ci.commit.slice(0, 7)}</code>` : ''}`;
}

export function nextCursor(reports: Report[], limit: number): string | null {
  const last = reports[reports.length - 1];
  return reports.length === limit && last ? `${last.createdAt}~${last.id}` : null;
}

export function reportsRoutes(ctx: WebContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/profiles/{id}',
      options: { auth: 'session', plugins: { 'tally-web': {} } },
      handler: async (request, h) => {
        const user = credentialsOf(request);
        const profile = await ownProfile(ctx, request, (request.params as { id: string }).id);
        if (!profile) return errorPage(ctx, request, h, 'not_found');
        const f = reportFilterOf(request);
        const reports = await ctx.store.reports.list(profile.id, storeQuery(f, REPORTS_PER_PAGE));
        const next = nextCursor(reports, REPORTS_PER_PAGE);
        const trendSource = f.before ? [] : [...reports].slice(0, 50).reverse();
        // A column per status, as the totals count them; errored, skipped, pending and unknown only
        // when a report of the page has some (lib/totals.ts).
        const columns = TOLD_STATUSES.filter((s) =>
          toldInAny(
            s,
            reports.map((r) => r.totals),
          ),
        );
        const rows = reports.map((r) => {
          const status = reportStatus(r.totals);
          const t = r.totals;
          return html`<tr>
            <td>
              <a href="/reports/${r.number}">${when(r.date)}</a>
              <div class="muted small">imported ${when(r.createdAt)}</div>
              ${r.ci ? html`<div class="small ci">${ciBuild(r, profile.number)}</div>` : ''}
            </td>
            <td>${r.tags.map((tag) => html`<a class="tag" href="${query({ tag })}">${tag}</a> `)}</td>
            <td class="num">${t.tests}</td>
            ${columns.map((s) => html`<td class="${cellClass(s)}">${t[s]}</td>`)}
            <td class="num">${percent(passRate(t))}</td>
            <td>
              <span class="status status-${status}">${status}</span
              >${t.flaky ? html` <span class="badge flaky">${t.flaky} flaky</span>` : ''}${
                r.pinned ? html` <span class="badge pinned" title="retention keeps it">pinned</span>` : ''
              }
            </td>
            <td class="actions"><a class="danger-link" href="/reports/${r.number}/delete">Delete</a></td>
          </tr>`;
        });
        const older = query({ tag: f.tags, branch: f.branch, from: f.from, to: f.to, before: next });
        const filtered = f.tags.length > 0 || f.branch !== null || f.from !== null || f.to !== null;
        const body = html` <form class="filters" method="get" action="/profiles/${profile.number}">
            <label>Tag <input type="text" name="tag" value="${f.tags.join(' ')}" placeholder="branch:main" /></label>
            <label>Branch <input type="text" name="branch" value="${f.branch ?? ''}" placeholder="main" /></label>
            <label>From <input type="date" name="from" value="${f.from ?? ''}" /></label>
            <label>To <input type="date" name="to" value="${f.to ?? ''}" /></label>
            <button type="submit">Filter</button>
            ${filtered ? html`<a href="/profiles/${profile.number}">Clear</a>` : ''}
          </form>
          ${
            trendSource.length
              ? html`<figure class="trend">
                  ${passFailTrend(
                    trendSource.map((r) => ({
                      passed: r.totals.passed,
                      failed: r.totals.failed + r.totals.errored,
                      label: when(r.date),
                    })),
                    {
                      width: 600,
                      height: 60,
                      title: 'Passed and failed or errored tests per report, oldest to newest',
                    },
                  )}
                  <figcaption class="muted small">
                    Passed (green) and failed or errored (red) share of the tests that ran to a result, per report,
                    oldest to newest
                  </figcaption>
                </figure>`
              : ''
          }
          ${
            reports.length === 0
              ? html`<p>No reports${filtered ? ' match this filter' : ' yet: see the Upload tab'}.</p>`
              : html`<table class="grid reports">
                  <thead>
                    <tr>
                      <th>Date</th>
                      <th>Tags</th>
                      <th class="num">Tests</th>
                      ${columns.map((s) => html`<th class="num">${s[0]!.toUpperCase()}${s.slice(1)}</th>`)}
                      <th class="num">Pass rate</th>
                      <th>Status</th>
                      <th></th>
                    </tr>
                  </thead>
                  <tbody>
                    ${rows}
                  </tbody>
                </table>`
          }
          ${next ? html`<p><a class="more" href="${older}">Older reports</a></p>` : ''}`;
        const flash = takeFlash(request, h);
        return respond(h, page(ctx, { title: profile.name, user, profile, tab: 'reports', flash }, body));
      },
    },
  ];
}
