/**
 * The `api-key` auth scheme: `x-api-key` on every API request. Missing and invalid keys get 401
 * with a coded message; the key is never logged nor echoed.
 */
import type { Plugin, ServerAuthScheme } from '@hapi/hapi';
import { verifyKey } from '../lib/api-keys.js';
import type { Store } from '../lib/store/store.js';
import { fault } from './replies.js';
import { FailureWindow } from '../lib/limits/rate.js';

export interface TallyCredentials {
  accountId: string;
}

export const authPlugin: Plugin<{ store: Store; maxFailuresPerMinute: number }> = {
  name: 'tally-auth',
  register(server, { store, maxFailuresPerMinute }) {
    // Brute-force protection: an address that keeps sending wrong keys waits out the window.
    const failures = new FailureWindow(maxFailuresPerMinute, 60_000);
    const scheme: ServerAuthScheme = () => ({
      async authenticate(request, h) {
        const address = request.info.remoteAddress;
        const wait = failures.blockedFor(address);
        if (wait > 0)
          return fault(h, 'too_many_attempts')
            .header('retry-after', String(Math.ceil(wait / 1000)))
            .takeover();
        const header = request.headers['x-api-key'];
        const key = Array.isArray(header) ? header[0] : header;
        if (!key) return fault(h, 'missing_api_key').takeover();
        const accountId = await verifyKey(store, key.trim());
        if (!accountId) {
          failures.fail(address);
          return fault(h, 'invalid_api_key').takeover();
        }
        return h.authenticated({ credentials: { accountId } satisfies TallyCredentials });
      },
    });
    server.auth.scheme('tally-api-key', scheme);
    server.auth.strategy('api-key', 'tally-api-key');
  },
};
