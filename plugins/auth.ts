/**
 * The `api-key` auth scheme: `x-api-key` on every API request. Missing and invalid keys get 401
 * with a coded message; the key is never logged nor echoed.
 */
import type { Plugin, ServerAuthScheme } from '@hapi/hapi';
import { verifyKey } from '../lib/api-keys.js';
import type { Store } from '../lib/store/store.js';
import { fault } from './replies.js';

export interface TallyCredentials {
  accountId: string;
}

export const authPlugin: Plugin<{ store: Store }> = {
  name: 'tally-auth',
  register(server, { store }) {
    const scheme: ServerAuthScheme = () => ({
      async authenticate(request, h) {
        const header = request.headers['x-api-key'];
        const key = Array.isArray(header) ? header[0] : header;
        if (!key) return fault(h, 'missing_api_key').takeover();
        const accountId = await verifyKey(store, key.trim());
        if (!accountId) return fault(h, 'invalid_api_key').takeover();
        return h.authenticated({ credentials: { accountId } satisfies TallyCredentials });
      },
    });
    server.auth.scheme('tally-api-key', scheme);
    server.auth.strategy('api-key', 'tally-api-key');
  },
};
