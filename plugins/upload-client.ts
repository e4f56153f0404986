/**
 * GET /tally-upload.mjs: the upload command as one dependency-free file (built from lib/client/ by
 * `npm run build`), so a CI runner fetches it from the Tally it uploads to and runs it with `node`:
 *
 *   curl -fsSO "$TALLY/tally-upload.mjs" && node tally-upload.mjs --url "$TALLY" ...
 *
 * No key is needed: the file holds no secret. It may be cached for an hour, then revalidated by its
 * ETag, so a Tally that was upgraded hands out its new client soon enough.
 */
import type { Plugin } from '@hapi/hapi';
import Boom from '@hapi/boom';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../lib/log.js';

export const UPLOAD_CLIENT_PATH = '/tally-upload.mjs';

/** Where `npm run build` writes it: beside dist/plugins/ when run from dist, dist/client/ of a checkout under tsx. */
export function uploadClientFile(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const dir of [path.resolve(here, '../client'), path.resolve(here, '../dist/client')]) {
    const file = path.join(dir, 'tally-upload.mjs');
    if (existsSync(file)) return file;
  }
  return null;
}

export const uploadClientPlugin: Plugin<{ log: Logger }> = {
  name: 'tally-upload-client',
  register(server, { log }) {
    const file = uploadClientFile();
    const body = file ? readFileSync(file) : null;
    // A checkout run before `npm run build`: everything else works, the route says what is missing.
    if (!body) log('upload_client.missing', { hint: 'npm run build writes dist/client/tally-upload.mjs' });
    const etag = body ? createHash('sha256').update(body).digest('hex').slice(0, 32) : '';
    server.route({
      method: 'GET',
      path: UPLOAD_CLIENT_PATH,
      options: { auth: false },
      handler: (_request, h) => {
        if (!body) throw Boom.notFound('tally-upload.mjs was not built (npm run build)');
        return h
          .response(body)
          .type('text/javascript; charset=utf-8')
          .etag(etag)
          .header('cache-control', 'public, max-age=3600');
      },
    });
  },
};
