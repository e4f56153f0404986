/**
 * The start-up line (plugins/server.ts, `server.started`) names the address Tally listens on, as it
 * is, and the URLs to open: localhost and the machine's addresses when it listens on all of them.
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { builtinFormatters } from '../../formatters/index.js';
import { loadConfig } from '../../lib/config.js';
import { createEmbeddedStore } from '../../lib/store/embedded/index.js';
import { createTally } from '../../plugins/server.js';

async function started(t: { teardown(fn: () => unknown): void }, host: string, publicUrl?: string) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tally-startup-'));
  const config = {
    ...loadConfig({ TALLY_DATA_DIR: dataDir, TALLY_PUBLIC_URL: publicUrl }),
    port: 0,
    host,
    parseWorkers: 0,
  };
  const store = createEmbeddedStore({ dataDir, reserveBytes: 0 });
  await store.init();
  const lines: Record<string, any>[] = [];
  const tally = await createTally({
    config,
    store,
    formatters: builtinFormatters,
    log: (event, data) => lines.push({ event, ...data }),
  });
  await tally.start();
  t.teardown(async () => {
    await tally.stop();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const line = lines.find((l) => l.event === 'server.started');
  return { line, port: tally.server.info.port };
}

t.test('listening on every address: says so, and lists URLs that answer', async (t) => {
  const { line, port } = await started(t, '0.0.0.0');
  t.equal(line?.listening, `http://0.0.0.0:${port}`, 'the address it listens on, as it is');
  t.equal(line?.urls[0], `http://localhost:${port}`, 'localhost first');
  const own = Object.values(os.networkInterfaces())
    .flat()
    .filter((i) => i && !i.internal && i.family === 'IPv4')
    .map((i) => `http://${i!.address}:${port}`);
  t.strictSame(line?.urls.slice(1), own, "then the machine's addresses");
  t.notOk(
    line?.urls.some((u: string) => u.includes('0.0.0.0')),
    'no URL to open is 0.0.0.0',
  );
  for (const url of line?.urls ?? []) {
    const r = await fetch(`${url}/healthz`);
    t.equal(r.status, 200, `${url} answers`);
  }
  t.match(line, { store: 'embedded', data_dir: String });
});

t.test('listening on one address: that one; the public URL first when set', async (t) => {
  const one = await started(t, '127.0.0.1');
  t.equal(one.line?.listening, `http://127.0.0.1:${one.port}`);
  t.strictSame(one.line?.urls, [`http://127.0.0.1:${one.port}`]);
  const pub = await started(t, '127.0.0.1', 'https://tally.example.com/');
  t.strictSame(pub.line?.urls, ['https://tally.example.com', `http://127.0.0.1:${pub.port}`]);
});
