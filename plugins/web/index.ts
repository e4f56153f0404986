/**
 * The web interface: server-rendered pages under a session (plugins/web/session.ts), one CSS and
 * one JS file, and the security headers of every page. Pages escape everything through `html`;
 * the CSP allows scripts, styles and images from Tally itself only — no inline script or style.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, Request, ResponseObject, ResponseToolkit } from '@hapi/hapi';
import type { Boom } from '@hapi/boom';
import type { MessageCode } from '../../lib/messages.js';
import type { ImportDeps } from '../../lib/import/index.js';
import type { Registry } from '../../lib/formatter/registry.js';
import type { Store } from '../../lib/store/store.js';
import type { Logger } from '../../lib/log.js';
import { fault } from '../replies.js';
import type { WebContext } from './context.js';
import { registerSessions, settingsOf } from './session.js';
import { registerFlash } from './flash.js';
import { errorPage } from './pages/common.js';
import { signinRoutes } from './pages/signin.js';
import { profilesRoutes } from './pages/profiles.js';
import { manageProfileRoutes } from './pages/manage-profile.js';
import { deleteReportRoutes } from './pages/delete-report.js';
import { reportsRoutes } from './pages/reports.js';
import { reportRoutes } from './pages/report.js';
import { historyRoutes } from './pages/history.js';
import { uploadRoutes } from './pages/upload.js';
import { accountRoutes } from './pages/account.js';
import { ciRoutes } from './pages/ci.js';
import { retentionRoutes } from './pages/retention.js';
import { notificationRoutes } from './pages/notifications.js';

export interface WebOptions {
  store: Store;
  registry: Registry;
  publicUrl: string | null;
  importDeps: ImportDeps;
  signinFailuresPerMinute: number;
  log: Logger;
  ci: WebContext['ci'];
  retention: WebContext['retention'];
  notify: WebContext['notify'];
}

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const STATIC_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The static folder: beside this module in a checkout (tsx), or in the source tree next to dist/. */
function staticDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const dir of [path.join(here, 'static'), path.resolve(here, '../../../plugins/web/static')])
    if (existsSync(path.join(dir, 'tally.css'))) return dir;
  throw new Error(`The web interface's static files (tally.css, tally.js) are missing: looked beside ${here}.`);
}

interface Asset {
  body: Buffer;
  type: string;
  version: string;
}

function loadAssets(): Map<string, Asset> {
  const dir = staticDir();
  const assets = new Map<string, Asset>();
  for (const name of ['tally.css', 'tally.js', 'favicon.svg']) {
    const body = readFileSync(path.join(dir, name));
    assets.set(name, {
      body,
      type: STATIC_TYPES[path.extname(name)]!,
      version: createHash('sha256').update(body).digest('hex').slice(0, 12),
    });
  }
  return assets;
}

export const webPlugin: Plugin<WebOptions> = {
  name: 'tally-web',
  register(server, o) {
    const assets = loadAssets();
    const ctx: WebContext = {
      store: o.store,
      registry: o.registry,
      publicUrl: o.publicUrl,
      importDeps: o.importDeps,
      assets: {
        css: `/static/tally.css?v=${assets.get('tally.css')!.version}`,
        js: `/static/tally.js?v=${assets.get('tally.js')!.version}`,
        icon: `/static/favicon.svg?v=${assets.get('favicon.svg')!.version}`,
      },
      signinFailuresPerMinute: o.signinFailuresPerMinute,
      ci: o.ci,
      retention: o.retention,
      notify: o.notify,
    };
    registerSessions(server, { store: o.store, publicUrl: o.publicUrl, fault });
    registerFlash(server, { publicUrl: o.publicUrl });

    server.route({
      method: 'GET',
      path: '/static/{name}',
      options: { auth: false, plugins: { 'tally-web': {} } },
      handler: (request, h) => {
        const asset = assets.get((request.params as { name: string }).name);
        if (!asset) return h.response('').code(404);
        // Versioned URLs: the content of a URL never changes, so it may be kept a year.
        return h.response(asset.body).type(asset.type).header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
    // Browsers ask for it whatever the page says.
    server.route({
      method: 'GET',
      path: '/favicon.ico',
      options: { auth: false, plugins: { 'tally-web': {} } },
      handler: (_r, h) => h.redirect(ctx.assets.icon).permanent(),
    });
    for (const routes of [
      signinRoutes,
      profilesRoutes,
      manageProfileRoutes,
      reportsRoutes,
      reportRoutes,
      deleteReportRoutes,
      historyRoutes,
      uploadRoutes,
      ciRoutes,
      retentionRoutes,
      notificationRoutes,
      accountRoutes,
    ])
      server.route(routes(ctx));

    server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
      if (!settingsOf(request)) return h.continue;
      let response = request.response as Boom | ResponseObject;
      if ('isBoom' in response && response.isBoom) {
        const status = response.output.statusCode;
        if (status >= 500)
          o.log('request.internal_error', { path: request.path, error: response.stack ?? response.message });
        response = errorPage(ctx, request, h, pageFault(response));
      }
      const r = response as ResponseObject;
      r.header('x-content-type-options', 'nosniff');
      r.header('referrer-policy', 'same-origin');
      r.header('x-frame-options', 'DENY');
      r.header('cross-origin-opener-policy', 'same-origin');
      r.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
      const type = String(r.headers['content-type'] ?? '');
      if (type.startsWith('text/html')) {
        r.header('content-security-policy', PAGE_CSP);
        // Pages show an account's data: no shared cache may keep them.
        if (!r.headers['cache-control']) r.header('cache-control', 'private, no-cache');
      }
      return r === request.response ? h.continue : r;
    });
  },
};

/**
 * The code a page shows for an answer hapi refused before the route ran: a query the route's schema
 * refuses, a form body too large, of another type or unreadable; never an import's code.
 */
function pageFault(response: Boom): MessageCode {
  const status = response.output.statusCode;
  if (status >= 500) return 'internal_error';
  if (status === 404) return 'not_found';
  if (status === 413) return 'payload_too_large';
  const source = (response.output.payload as { validation?: { source?: string } }).validation?.source;
  return source === 'query' ? 'invalid_query' : 'malformed_request';
}
