/** Picks the store from config: MongoDB when MONGODB_URL is set, else the embedded store. */
import type { Config } from '../config.js';
import { createEmbeddedStore } from './embedded/index.js';
import type { Store } from './store.js';

export async function openStore(config: Config): Promise<Store> {
  if (config.mongodbUrl) {
    throw new Error('MONGODB_URL is set, but this build of Tally has no MongoDB adapter yet; unset it to use the embedded store');
  }
  const store = createEmbeddedStore({ dataDir: config.dataDir });
  await store.init();
  return store;
}
