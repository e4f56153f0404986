/**
 * Picks the store from config: MongoDB when MONGODB_URL is set, else the embedded store. A MongoDB
 * that does not answer at start is said so and retried, never a crash. Part of the composition
 * root: the only place outside tests that names a concrete adapter.
 */
import type { Config } from '../lib/config.js';
import type { Logger } from '../lib/log.js';
import { createEmbeddedStore } from '../lib/store/embedded/index.js';
import type { Store } from '../lib/store/store.js';

const RETRY_MAX_MS = 30_000;

export async function openStore(config: Config, log: Logger = () => undefined, signal?: AbortSignal): Promise<Store> {
  if (!config.mongodbUrl) {
    const store = createEmbeddedStore({ dataDir: config.dataDir, reserveBytes: config.storageReserveBytes });
    await store.init();
    return store;
  }
  // Loaded only here: the driver is ~20 MiB of a server that runs on the embedded store.
  const { createMongoStore } = await import('../lib/store/mongo/index.js');
  const store = createMongoStore({ url: config.mongodbUrl });
  let wait = 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      await store.init();
      if (attempt > 1) log('store.connected', { store: 'mongo', attempts: attempt });
      return store;
    } catch (e) {
      if (signal?.aborted) throw e;
      log('store.unavailable', {
        store: 'mongo',
        server: redact(config.mongodbUrl),
        error: (e as Error).message,
        retryInMs: wait,
      });
      await store.close().catch(() => undefined);
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(wait * 2, RETRY_MAX_MS);
    }
  }
}

/** The connection string without its password, for logs. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
