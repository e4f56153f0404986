/**
 * GET /openapi.json: the API contract, built from the route table once every plugin has registered
 * its routes (at start). A mismatch between routes and `OPERATIONS` is logged at start and fails
 * `test/openapi.test.ts`.
 */
import type { Plugin } from '@hapi/hapi';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../lib/log.js';
import { buildDocument } from './document.js';

/** Tally's version, from the package.json above this module (in a checkout and under dist/ alike). */
function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++, dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return '0.0.0';
}

const VERSION = packageVersion();

export const openapiPlugin: Plugin<{ log: Logger }> = {
  name: 'tally-openapi',
  register(server, { log }) {
    let document: Record<string, unknown> | null = null;
    server.ext('onPreStart', () => {
      const built = buildDocument(server.table(), VERSION);
      if (built.undocumented.length > 0 || built.unrouted.length > 0)
        log('openapi.mismatch', { undocumented: built.undocumented, unrouted: built.unrouted });
      document = built.document;
    });
    server.route({
      method: 'GET',
      path: '/openapi.json',
      options: { auth: false },
      handler: () => document ?? buildDocument(server.table(), VERSION).document,
    });
  },
};
