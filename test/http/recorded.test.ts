/**
 * Recorded requests (test/fixtures/requests/*.http) replayed byte for byte through a raw socket:
 * every one gets its documented answer, and the server stays healthy after each.
 */
import t from 'tap';
import net from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTally, storeKinds } from '../helpers/tally.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/requests');

interface Case {
  request: string;
  status: number;
  codes: string[];
  error: string | null;
  note: string;
}

function replay(port: number, raw: Buffer): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // write, not end: the answer comes with Connection: close, and a half-closed socket would not get one.
    const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const status = Number(head?.split(' ')[1]);
      let body = rest.join('\r\n\r\n');
      if (/transfer-encoding: chunked/i.test(head ?? '')) body = body.replace(/(^|\r\n)[0-9a-f]+\r\n/gi, '');
      try {
        resolve({ status, body: JSON.parse(body.trim()) });
      } catch {
        resolve({ status, body: null });
      }
    });
  });
}

for (const kind of storeKinds(t)) {
  t.test(`recorded requests (${kind} store)`, async (t) => {
    const h = await startTally(t, { store: kind });
    const port = Number(new URL(h.url).port);
    const { cases } = JSON.parse(await readFile(path.join(dir, 'requests.json'), 'utf8')) as { cases: Case[] };
    t.ok(cases.length >= 15);
    for (const c of cases) {
      const raw = (await readFile(path.join(dir, c.request)))
        .toString('latin1')
        .replaceAll('{{PROFILE}}', h.profileId)
        .replaceAll('{{KEY}}', h.apiKey);
      const answer = await replay(port, Buffer.from(raw, 'latin1'));
      t.equal(answer.status, c.status, `${c.request}: ${c.status}`, { body: answer.body });
      const codes = (answer.body?.messages ?? []).map((m: any) => m.code);
      for (const code of c.codes) t.ok(codes.includes(code), `${c.request}: ${code}`);
      if (c.error)
        t.equal(
          answer.body?.messages?.find((m: any) => m.severity === 'error')?.code,
          c.error,
          `${c.request}: error ${c.error}`,
        );
      const health = await h.send({ method: 'GET', path: '/healthz', noKey: true });
      t.equal(health.status, 200, `${c.request}: healthy afterwards`);
    }
  });
}
