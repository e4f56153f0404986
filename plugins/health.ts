/** GET /healthz: 200 when the store answers, 503 otherwise. */
import type { Plugin } from '@hapi/hapi';
import type { Store } from '../lib/store/store.js';

export const healthPlugin: Plugin<{ store: Store }> = {
  name: 'tally-health',
  register(server, { store }) {
    server.route({
      method: 'GET',
      path: '/healthz',
      options: { auth: false },
      handler: async (_request, h) => {
        try {
          await store.ping();
          return { status: 'ok', store: store.kind };
        } catch {
          return h.response({ status: 'unavailable', store: store.kind }).code(503);
        }
      },
    });
  },
};
