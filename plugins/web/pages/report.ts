/**
 * A report: its import messages, files and totals, and the container tree. The tree is never sent
 * whole: the page lists one level (100 at a time), and each container opens on demand
 * (`/reports/{id}/nodes/{seq}`: its failure, output, attachments and the first children), so a
 * report of 50,000 containers costs the same page as one of 50. A status filter or a title search
 * lists matching containers at any depth, also paged. Without JavaScript every link is a full page.
 */
import type { Request, ResponseObject, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { ContainerStatus } from '../../../lib/formatter/api.js';
import { counted, passRate, reportStatus, toldCounts } from '../../../lib/totals.js';
import type { AttachmentLink, ImportRecord, Report, StoredContainer } from '../../../lib/store/types.js';
import { statusMark } from '../charts.js';
import type { WebContext } from '../context.js';
import { bytes, duration, percent, when } from '../format.js';
import { html, query, type Html } from '../html.js';
import { messageList, page } from '../layout.js';
import { credentialsOf } from '../session.js';
import { errorPage, isFragmentRequest, ownReport, respond, type OwnReport } from './common.js';
import { ciBuild } from './reports.js';
import { inlineImageType, safeAttachment } from '../attachments.js';
import { takeFlash } from '../flash.js';
import { pinControl } from './retention.js';

export const CHILDREN_PER_PAGE = 100;
const STATUSES: readonly ContainerStatus[] = ['failed', 'errored', 'passed', 'skipped', 'pending', 'unknown'];

export interface ListFilter {
  parent: number | null;
  statuses: ContainerStatus[];
  text: string;
  after: number | null;
}

function listFilterOf(request: Request): ListFilter {
  const q = request.query as Record<string, unknown>;
  const int = (v: unknown) => (typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : null);
  const status = typeof q.status === 'string' ? q.status : '';
  const statuses =
    status === 'failing'
      ? (['failed', 'errored'] as ContainerStatus[])
      : STATUSES.includes(status as ContainerStatus)
        ? [status as ContainerStatus]
        : [];
  return {
    parent: int(q.parent),
    statuses,
    text: typeof q.q === 'string' ? q.q.trim().slice(0, 200) : '',
    after: int(q.after),
  };
}

function isSearch(f: ListFilter): boolean {
  return f.statuses.length > 0 || f.text !== '';
}

function statusParam(f: ListFilter): string | null {
  if (f.statuses.length === 2) return 'failing';
  return f.statuses[0] ?? null;
}

/** One page of a list: children of a parent, or the matches of a search. */
async function listPage(
  ctx: WebContext,
  reportId: string,
  f: ListFilter,
): Promise<{ items: StoredContainer[]; next: number | null }> {
  const limit = CHILDREN_PER_PAGE;
  const items = isSearch(f)
    ? await ctx.store.containers.find(reportId, {
        ...(f.statuses.length ? { statuses: f.statuses } : {}),
        ...(f.text ? { text: f.text } : {}),
        ...(f.after !== null ? { afterSeq: f.after } : {}),
        limit,
      })
    : await ctx.store.containers.list(reportId, {
        parentSeq: f.parent,
        limit,
        ...(f.after !== null ? { afterSeq: f.after } : {}),
      });
  const last = items[items.length - 1];
  return { items, next: items.length === limit && last ? last.seq : null };
}

function nodeSummary(c: StoredContainer): Html {
  return html`<span class="node-title"
      >${statusMark(c.status)}<span class="title">${c.title || html`<em class="muted">untitled</em>`}</span></span
    >
    <span class="node-facts"
      ><span class="type">${c.type}</span>
      <span class="status-text status-${c.status}">${c.status}</span
      >${c.flaky ? html` <span class="badge flaky">flaky</span>` : ''}
      <span class="dur">${duration(c.durationMs)}</span></span
    >`;
}

/** A collapsed container: `details` opens without script; the script fills it from data-node. */
function nodeItem(reportNumber: number, c: StoredContainer): Html {
  const url = `/reports/${reportNumber}/nodes/${c.seq}`;
  return html`<li>
    <details class="node node-${c.status}" data-node="${url}" id="c${c.seq}">
      <summary>${nodeSummary(c)}</summary>
      <div class="node-body"><a href="${url}">Open this ${c.type}</a></div>
    </details>
  </li>`;
}

function listItems(reportNumber: number, f: ListFilter, items: StoredContainer[], next: number | null): Html {
  const more = next === null ? '' : query({ parent: f.parent, status: statusParam(f), q: f.text || null, after: next });
  return html`${items.map((c) => nodeItem(reportNumber, c))}${
    next === null
      ? ''
      : html`<li class="more-row">
          <a class="more" href="/reports/${reportNumber}${more}" data-more="/reports/${reportNumber}/list${more}"
            >Show the next ${CHILDREN_PER_PAGE}</a
          >
        </li>`
  }`;
}

function textBlock(label: string, text: string | null | undefined): Html {
  if (!text) return html``;
  return html`<div class="block">
    <div class="block-label">${label}</div>
    <pre>${text}</pre>
  </div>`;
}

function attachmentView(reportNumber: number, a: AttachmentLink): Html {
  const url = `/reports/${reportNumber}/attachments/${encodeURIComponent(a.blobId)}`;
  const image = inlineImageType(a.contentType, a.name);
  return html`<figure class="attachment">
    ${image ? html`<a href="${url}"><img src="${url}" alt="${a.name}" loading="lazy" /></a>` : ''}
    <figcaption>
      <a href="${url}">${a.name}</a>
      <span class="muted small">${a.contentType ?? 'unknown type'}, ${bytes(a.size)}</span>
    </figcaption>
  </figure>`;
}

/** What a container holds: failure, attempts, output, attachments, properties, then its children. */
async function nodeDetail(ctx: WebContext, report: Report, c: StoredContainer, after: number | null): Promise<Html> {
  const f: ListFilter = { parent: c.seq, statuses: [], text: '', after };
  const { items, next } = await listPage(ctx, report.id, f);
  const file = report.files[c.fileIndex];
  const failure = c.failure && [
    c.failure.type ? html`<div class="failure-type">${c.failure.type}</div>` : '',
    c.failure.message ? html`<pre class="failure-message">${c.failure.message}</pre>` : '',
    textBlock('Stack', c.failure.stack),
  ];
  const attempts = c.attempts.map((a) => {
    const why = a.failure?.message ? html`: ${a.failure.message.slice(0, 300)}` : '';
    return html`<li>${statusMark(a.status)} ${a.status}, ${duration(a.durationMs)}${why}</li>`;
  });
  return html`<dl class="facts">
      <dt>Status</dt>
      <dd>
        <span class="status-text status-${c.status}">${c.status}</span
        >${c.flaky ? html` <span class="badge flaky">flaky</span>` : ''}
      </dd>
      <dt>Duration</dt>
      <dd>${duration(c.durationMs)}</dd>
      ${
        c.startedAt
          ? html`<dt>Started</dt>
              <dd>${when(c.startedAt)}</dd>`
          : ''
      }
      ${
        file
          ? html`<dt>File</dt>
              <dd>${file.name} <span class="muted">(${file.formatter})</span></dd>`
          : ''
      }
    </dl>
    ${c.failure ? html`<div class="failure">${failure}</div>` : ''}
    ${
      c.attempts.length > 1
        ? html`<div class="block">
            <div class="block-label">Attempts</div>
            <ol class="attempts">
              ${attempts}
            </ol>
          </div>`
        : ''
    }
    ${textBlock('stdout', c.output?.stdout)}${textBlock('stderr', c.output?.stderr)}
    ${
      c.attachments.length
        ? html`<div class="block">
            <div class="block-label">Attachments</div>
            <div class="attachments">${c.attachments.map((a) => attachmentView(report.number, a))}</div>
          </div>`
        : ''
    }
    ${
      c.properties.length
        ? html`<div class="block">
            <div class="block-label">Properties</div>
            <table class="props">
              ${c.properties.map(
                (p) =>
                  html`<tr>
                    <th>${p.name}</th>
                    <td>${p.value}</td>
                  </tr>`,
              )}
            </table>
          </div>`
        : ''
    }
    ${
      items.length
        ? html`<ul class="tree">
            ${listItems(report.number, f, items, next)}
          </ul>`
        : ''
    }`;
}

function countClass(s: ContainerStatus): string {
  return s === 'passed' ? 'pass' : s === 'failed' || s === 'errored' ? 'fail' : '';
}

function reportHeader(report: Report, record: ImportRecord | null, pin: Html): Html {
  const t = report.totals;
  const status = reportStatus(t);
  const files = report.files.map((f) => {
    const made = `${f.formatter}${f.producer ? ` (${f.producer})` : ''}`;
    return html`<li>${f.name} <span class="muted">${made}, ${counted(f.tests, 'test')}</span></li>`;
  });
  const attached = record?.attachments.length ?? 0;
  const build = report.ci ? html` · build ${ciBuild(report, null)}` : '';
  const tags = report.tags.length ? html` · ${report.tags.map((tag) => html`<span class="tag">${tag}</span> `)}` : '';
  return html`<section class="report-head">
    <h1>Report of ${when(report.date)} <span class="status status-${status}">${status}</span></h1>
    <p class="muted">
      Imported ${when(report.createdAt)} ·
      <code>#${report.number}</code>${build}${tags} ·
      <a class="danger-link" href="/reports/${report.number}/delete">Delete this report</a>
    </p>
    ${pin}
    <ul class="totals">
      <li><strong>${t.tests}</strong> ${t.tests === 1 ? 'test' : 'tests'}</li>
      ${toldCounts(t).map(
        ({ status, count }) => html`<li class="${countClass(status)}"><strong>${count}</strong> ${status}</li>`,
      )}
      ${t.flaky ? html`<li><strong>${t.flaky}</strong> flaky</li>` : ''}
      <li>pass rate <strong>${percent(passRate(t))}</strong></li>
    </ul>
    ${
      report.files.length
        ? html`<details class="files">
            <summary>${report.files.length} result file${report.files.length === 1 ? '' : 's'}</summary>
            <ul>
              ${files}
            </ul>
          </details>`
        : ''
    }
    ${
      attached
        ? html`<p class="muted small">${attached} attachment${attached === 1 ? '' : 's'} uploaded with the import.</p>`
        : ''
    }
    ${
      report.messages.length
        ? html`<details class="import-messages" open>
            <summary>Import messages (${report.messages.length})</summary>
            ${messageList(report.messages)}
          </details>`
        : ''
    }
  </section>`;
}

export function reportRoutes(ctx: WebContext): ServerRoute[] {
  const web = { 'tally-web': {} };
  /** The handler of a GET under /reports/{id}: another account's report, or one not completed, is "not found". */
  const ofOwnReport =
    (answer: (request: Request, h: ResponseToolkit, found: OwnReport) => Promise<ResponseObject>) =>
    async (request: Request, h: ResponseToolkit) => {
      const found = await ownReport(ctx, request, (request.params as { id: string }).id);
      return found ? answer(request, h, found) : errorPage(ctx, request, h, 'not_found');
    };

  return [
    {
      method: 'GET',
      path: '/reports/{id}',
      options: { auth: 'session', plugins: web },
      handler: ofOwnReport(async (request, h, { report, profile }) => {
        const f = listFilterOf(request);
        const { items, next } = await listPage(ctx, report.id, f);
        const record = await ctx.store.imports.get(report.importId);
        const search = isSearch(f);
        const parent = f.parent !== null ? await ctx.store.containers.get(report.id, f.parent) : null;
        const statuses = [['failing', 'failed or errored'], ...STATUSES.map((s) => [s, s])].map(
          ([v, label]) => html`<option value="${v}" ${statusParam(f) === v ? html` selected` : ''}>${label}</option>`,
        );
        const withStatus = f.statuses.length ? html`with status ${f.statuses.join(' or ')}` : '';
        const withText = f.text ? html`whose title contains “${f.text}”` : '';
        const heading = search
          ? html`Containers ${withStatus} ${withText}`
          : parent
            ? html`Inside ${parent.title}`
            : 'Containers';
        const user = credentialsOf(request);
        const body = html`${reportHeader(report, record, pinControl(report, user.csrfToken))}
          <form class="filters" method="get" action="/reports/${report.number}" role="search">
            <label
              >Status
              <select name="status">
                <option value="">all (tree)</option>
                ${statuses}
              </select></label
            >
            <label>Title contains <input type="search" name="q" value="${f.text}" placeholder="search titles" /></label>
            <button type="submit">Show</button
            >${search ? html` <a href="/reports/${report.number}">Back to the tree</a>` : ''}
          </form>
          <h2>${heading}</h2>
          ${
            items.length === 0
              ? html`<p class="muted">Nothing here.</p>`
              : html`<ul class="tree" id="tree">
                  ${listItems(report.number, f, items, next)}
                </ul>`
          }`;
        return respond(
          h,
          page(
            ctx,
            { title: `Report ${when(report.date)}`, user, profile, tab: 'reports', flash: takeFlash(request, h) },
            body,
          ),
        );
      }),
    },
    {
      // One page of a list, as list items: what "Show the next 100" appends.
      method: 'GET',
      path: '/reports/{id}/list',
      options: { auth: 'session', plugins: web },
      handler: ofOwnReport(async (request, h, { report }) => {
        const f = listFilterOf(request);
        const { items, next } = await listPage(ctx, report.id, f);
        return respond(h, listItems(report.number, f, items, next).text);
      }),
    },
    {
      method: 'GET',
      path: '/reports/{id}/nodes/{seq}',
      options: { auth: 'session', plugins: web },
      handler: ofOwnReport(async (request, h, { report, profile }) => {
        const seq = Number((request.params as { seq: string }).seq);
        const c = Number.isSafeInteger(seq) ? await ctx.store.containers.get(report.id, seq) : null;
        if (!c) return errorPage(ctx, request, h, 'not_found');
        const detail = await nodeDetail(ctx, report, c, listFilterOf(request).after);
        if (isFragmentRequest(request)) return respond(h, detail.text);
        // Without script: the container as a page of its own, with the way back up.
        const chain: StoredContainer[] = [];
        for (let up = c.parentSeq, depth = 0; up !== null && depth < 50; depth++) {
          const p = await ctx.store.containers.get(report.id, up);
          if (!p) break;
          chain.unshift(p);
          up = p.parentSeq;
        }
        const body = html`<nav class="crumbs">
            <a href="/reports/${report.number}">Report of ${when(report.date)}</a
            >${chain.map((p) => html` › <a href="/reports/${report.number}/nodes/${p.seq}">${p.title}</a>`)}
          </nav>
          <h1 class="node-heading">${nodeSummary(c)}</h1>
          ${detail}`;
        return respond(
          h,
          page(ctx, { title: c.title || 'Container', user: credentialsOf(request), profile, tab: 'reports' }, body),
        );
      }),
    },
    {
      method: 'GET',
      path: '/reports/{id}/attachments/{blob}',
      options: { auth: 'session', plugins: web },
      handler: ofOwnReport(async (request, h, { report }) => {
        const record = await ctx.store.imports.get(report.importId);
        const blobId = (request.params as { blob: string }).blob;
        const file = record ? [...record.attachments, ...record.files].find((f) => f.blobId === blobId) : undefined;
        if (!file) return errorPage(ctx, request, h, 'not_found');
        return safeAttachment(ctx.store, h, file);
      }),
    },
  ];
}
