/**
 * History comparison: the profile's tests × its last N reports (N chosen on the page), a status
 * cell each, flaky tests marked, first failed and last passed per test, a tag filter so
 * `branch:main` compares with itself; tests are paged, 100 rows at a time. And one test's history,
 * with its duration trend.
 */
import type { Request, ServerRoute } from '@hapi/hapi';
import {
  DEFAULT_HISTORY_REPORTS,
  MAX_HISTORY_REPORTS,
  compareHistory,
  testHistory,
  type HistoryShow,
  type HistoryTest,
  type ReportPointer,
} from '../../../lib/history/compare.js';
import { counted } from '../../../lib/totals.js';
import { durationTrend, statusMark } from '../charts.js';
import type { WebContext } from '../context.js';
import { duration, when } from '../format.js';
import { html, query, type Html } from '../html.js';
import { page } from '../layout.js';
import { credentialsOf } from '../session.js';
import { errorPage, ownProfile, respond } from './common.js';
import { reportFilterOf, tagsOfQuery } from './reports.js';

export const HISTORY_ROWS_PER_PAGE = 100;

export interface HistoryParams {
  n: number;
  tags: string[];
  branch: string | null;
  show: HistoryShow;
  offset: number;
}

export function historyParamsOf(request: Request): HistoryParams {
  const q = request.query as Record<string, unknown>;
  const int = (v: unknown, d: number, max: number) =>
    typeof v === 'string' && /^\d{1,7}$/.test(v) ? Math.min(Number(v), max) : d;
  const show = q.show === 'failing' || q.show === 'flaky' ? q.show : 'all';
  return {
    n: Math.max(1, int(q.n, DEFAULT_HISTORY_REPORTS, MAX_HISTORY_REPORTS)),
    tags: tagsOfQuery(request),
    branch: reportFilterOf(request).branch,
    show,
    offset: int(q.offset, 0, 10_000_000),
  };
}

function pointerLink(p: ReportPointer | null): Html {
  return p ? html`<a href="/reports/${p.report_id}">${when(p.date)}</a>` : html`<span class="muted">–</span>`;
}

function cellLinks(t: HistoryTest, reportIds: number[], dates: string[]): Html {
  return html`${t.cells.map((c, j) =>
    c
      ? html`<td class="cell">
          <a
            href="/reports/${reportIds[j]!}/nodes/${c.seq}"
            title="${when(dates[j]!)}: ${c.status}${c.flaky ? ' (flaky)' : ''}, ${duration(c.duration_ms)}"
            >${statusMark(c.status)}<span class="sr">${c.status}</span></a
          >
        </td>`
      : html`<td class="cell"><span title="${when(dates[j]!)}: not in this report">${statusMark(null)}</span></td>`,
  )}`;
}

export function historyRoutes(ctx: WebContext): ServerRoute[] {
  const web = { 'tally-web': {} };
  return [
    {
      method: 'GET',
      path: '/profiles/{id}/history',
      options: { auth: 'session', plugins: web },
      handler: async (request, h) => {
        const profile = await ownProfile(ctx, request, (request.params as { id: string }).id);
        if (!profile) return errorPage(ctx, request, h, 'not_found');
        const p = historyParamsOf(request);
        const cmp = await compareHistory(ctx.store, profile.id, { ...p, limit: HISTORY_ROWS_PER_PAGE });
        const ids = cmp.reports.map((r) => r.id);
        const dates = cmp.reports.map((r) => r.date);
        const base = `/profiles/${profile.number}/history`;
        const link = (o: Partial<HistoryParams>) => {
          const x = { ...p, ...o };
          const show = x.show === 'all' ? null : x.show;
          return `${base}${query({ n: x.n, tag: x.tags, branch: x.branch, show, offset: x.offset || null })}`;
        };
        const rows = cmp.tests.map((t) => {
          const ancestors = t.path.slice(0, -1).map((s) => html`<span class="muted">${s} › </span>`);
          const flaky = t.flaky
            ? html` <span class="badge flaky" title="${t.flips} flips between passed and failed">flaky</span>`
            : '';
          return html`<tr class="${t.flaky ? 'is-flaky' : ''}">
            <th scope="row" class="test">
              <a href="${base}/${t.key}${query({ n: p.n, tag: p.tags, branch: p.branch })}"
                >${ancestors}${t.path[t.path.length - 1] ?? ''}</a
              >${flaky}
            </th>
            <td class="when">${pointerLink(t.first_failed)}</td>
            <td class="when">${pointerLink(t.last_passed)}</td>
            ${cellLinks(t, ids, dates)}
          </tr>`;
        });
        const pages = Math.ceil(cmp.total / HISTORY_ROWS_PER_PAGE);
        const at = Math.floor(p.offset / HISTORY_ROWS_PER_PAGE) + 1;
        const previous =
          at > 1 ? html`<a href="${link({ offset: p.offset - HISTORY_ROWS_PER_PAGE })}">Previous</a> ` : '';
        const next = at < pages ? html` <a href="${link({ offset: p.offset + HISTORY_ROWS_PER_PAGE })}">Next</a>` : '';
        const shows = (['all', 'failing', 'flaky'] as const).map((s) => {
          const label = s === 'all' ? 'all tests' : s === 'failing' ? 'failing now' : 'flaky';
          return html`<option value="${s}" ${p.show === s ? html` selected` : ''}>${label}</option>`;
        });
        const body = html` <form class="filters" method="get" action="${base}">
            <label
              >Reports to compare <input type="number" name="n" min="1" max="${MAX_HISTORY_REPORTS}" value="${p.n}"
            /></label>
            <label>Tag <input type="text" name="tag" value="${p.tags.join(' ')}" placeholder="branch:main" /></label>
            <label>Branch <input type="text" name="branch" value="${p.branch ?? ''}" placeholder="main" /></label>
            <label
              >Show
              <select name="show">
                ${shows}
              </select></label
            >
            <button type="submit">Compare</button>
          </form>
          <p class="summary">
            ${counted(cmp.reports.length, 'report')} compared · ${counted(cmp.counts.tests, 'test')} ·
            <a href="${link({ show: 'failing', offset: 0 })}">${cmp.counts.failing} failing now</a> ·
            <a href="${link({ show: 'flaky', offset: 0 })}" class="flaky-count">${cmp.counts.flaky} flaky</a>
          </p>
          <p class="muted small">
            Newest report first. A test is <span class="badge flaky">flaky</span> when it flips between passed and
            failed twice or more in these reports, or its format marked a retry. “First failed” is where its current run
            of failures began; “last passed” the newest report where it passed.
          </p>
          ${
            cmp.tests.length === 0
              ? html`<p>${cmp.reports.length === 0 ? 'No reports to compare yet.' : 'No test matches.'}</p>`
              : html`<div class="scroll">
                  <table class="grid history" id="history">
                    <thead>
                      <tr>
                        <th>Test</th>
                        <th>First failed</th>
                        <th>Last passed</th>
                        ${cmp.reports.map(
                          (r, j) =>
                            html`<th class="cell">
                              <a
                                href="/reports/${r.id}"
                                title="${when(r.date)}${r.tags.length ? ` · ${r.tags.join(' ')}` : ''}"
                                >${j + 1}</a
                              >
                            </th>`,
                        )}
                      </tr>
                    </thead>
                    <tbody>
                      ${rows}
                    </tbody>
                  </table>
                </div>`
          }
          ${
            pages > 1
              ? html`<nav class="pager">
                  ${previous}<span>page ${at} of ${pages} (${counted(cmp.total, 'test')})</span>${next}
                </nav>`
              : ''
          }`;
        return respond(
          h,
          page(
            ctx,
            { title: `History of ${profile.name}`, user: credentialsOf(request), profile, tab: 'history' },
            body,
          ),
        );
      },
    },
    {
      method: 'GET',
      path: '/profiles/{id}/history/{key}',
      options: { auth: 'session', plugins: web },
      handler: async (request, h) => {
        const profile = await ownProfile(ctx, request, (request.params as { id: string }).id);
        const key = Number((request.params as { key: string }).key);
        if (!profile || !Number.isSafeInteger(key)) return errorPage(ctx, request, h, 'not_found');
        const p = historyParamsOf(request);
        const found = await testHistory(ctx.store, profile.id, key, p);
        if (!found) return errorPage(ctx, request, h, 'not_found');
        const { test: t, reports } = found;
        const oldestFirst = t.cells.map((c, j) => ({ c, r: reports[j]! })).reverse();
        const body = html`<nav class="crumbs">
            <a href="/profiles/${profile.number}/history${query({ n: p.n, tag: p.tags, branch: p.branch })}">History</a>
            › ${t.path.join(' › ')}
          </nav>
          <h1>${t.path[t.path.length - 1] ?? ''} ${t.flaky ? html`<span class="badge flaky">flaky</span>` : ''}</h1>
          <dl class="facts">
            <dt>Latest</dt>
            <dd>${t.latest ?? '–'}</dd>
            <dt>First failed</dt>
            <dd>${pointerLink(t.first_failed)}</dd>
            <dt>Last passed</dt>
            <dd>${pointerLink(t.last_passed)}</dd>
            <dt>Flips</dt>
            <dd>${t.flips}</dd>
          </dl>
          <form class="filters" method="get">
            <label
              >Reports to compare
              <input type="number" name="n" min="1" max="${MAX_HISTORY_REPORTS}" value="${p.n}" /></label
            ><label>Tag <input type="text" name="tag" value="${p.tags.join(' ')}" /></label
            ><label>Branch <input type="text" name="branch" value="${p.branch ?? ''}" /></label
            ><button type="submit">Show</button>
          </form>
          <figure class="trend">
            ${durationTrend(
              oldestFirst.map(({ c, r }) => ({
                durationMs: c?.duration_ms ?? null,
                status: c?.status ?? null,
                label: when(r.date),
              })),
              { width: 720, height: 180, title: 'Duration per run, oldest to newest' },
            )}
            <figcaption class="muted small">Duration per run, oldest to newest; dots coloured by status</figcaption>
          </figure>
          <table class="grid">
            <thead>
              <tr>
                <th>Report</th>
                <th>Tags</th>
                <th>Status</th>
                <th class="num">Duration</th>
              </tr>
            </thead>
            <tbody>
              ${t.cells.map((c, j) => {
                const r = reports[j]!;
                const status = c
                  ? [
                      html`<a href="/reports/${r.id}/nodes/${c.seq}">${statusMark(c.status)} ${c.status}</a>`,
                      c.flaky ? html` <span class="badge flaky">flaky</span>` : '',
                    ]
                  : html`<span class="muted">not in this report</span>`;
                return html`<tr>
                  <td><a href="/reports/${r.id}">${when(r.date)}</a></td>
                  <td>${r.tags.join(' ')}</td>
                  <td>${status}</td>
                  <td class="num">${c ? duration(c.duration_ms) : ''}</td>
                </tr>`;
              })}
            </tbody>
          </table>`;
        return respond(
          h,
          page(
            ctx,
            { title: t.path[t.path.length - 1] ?? 'Test', user: credentialsOf(request), profile, tab: 'history' },
            body,
          ),
        );
      },
    },
  ];
}
