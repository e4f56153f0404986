/**
 * The webhook address guard and the POST it guards (lib/notify/address-guard.ts, webhook.ts): every
 * loopback, link-local, private and reserved range refused in IPv4 and IPv6 (IPv4-mapped too), public
 * addresses allowed, the operator's allowances; a name refused when any of its addresses is, checked
 * again on the address actually dialled (a name that rebinds between the check and the connection);
 * and redirects never followed. Names are answered by a resolver the test hands in, so no test
 * sends a packet anywhere but to its own receivers on 127.0.0.1.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { addressGuard, AddressRefused, type Resolve } from '../../lib/notify/address-guard.js';
import { parseCidrs } from '../../lib/notify/config.js';
import { DeliveryFailure, postWebhook } from '../../lib/notify/webhook.js';

const closed = { allowPrivate: false, allowCidrs: null };

t.test('refused ranges and public addresses', async (t) => {
  const guard = addressGuard(closed);
  const refused: [string, RegExp][] = [
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['10.1.2.3', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.254', /private/],
    ['192.168.1.1', /private/],
    ['169.254.169.254', /link-local/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['0.0.0.0', /unspecified/],
    ['224.0.0.1', /multicast/],
    ['255.255.255.255', /reserved/],
    ['198.18.0.1', /benchmarking/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['fe80::1', /link-local/],
    ['fc00::1', /unique local/],
    ['fd12:3456::1', /unique local/],
    ['ff02::1', /multicast/],
    ['::ffff:127.0.0.1', /loopback/],
    ['::ffff:10.0.0.1', /private/],
    ['::ffff:a9fe:a9fe', /link-local/],
    ['64:ff9b::a00:1', /NAT64/],
    ['::127.0.0.1', /IPv4-compatible/],
  ];
  for (const [address, kind] of refused) t.match(guard.refusal(address), kind, address);
  for (const address of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450::1'])
    t.equal(guard.refusal(address), null, `${address} is public`);
});

t.test("the operator's allowances", async (t) => {
  t.equal(addressGuard({ allowPrivate: true, allowCidrs: null }).refusal('127.0.0.1'), null, 'everything');
  const some = addressGuard({ allowPrivate: false, allowCidrs: parseCidrs('127.0.0.0/8, fd00::/8, 10.9.9.9').list });
  t.equal(some.refusal('127.0.0.1'), null);
  t.equal(some.refusal('fd00::5'), null);
  t.equal(some.refusal('10.9.9.9'), null, 'a lone address');
  t.match(some.refusal('10.9.9.8'), /private/, 'its neighbour is not');
  t.match(some.refusal('::1'), /loopback/, 'IPv6 loopback is another range');
  t.throws(() => parseCidrs('10.0.0.0/33'), /TALLY_WEBHOOK_ALLOW_CIDRS: "10.0.0.0\/33"/);
  t.throws(() => parseCidrs('intranet'), /not an address or CIDR/);
});

t.test('a name is refused when any of its addresses is', async (t) => {
  const names: Record<string, string[]> = {
    'public.test': ['93.184.216.34'],
    'inside.test': ['10.0.0.7'],
    'mixed.test': ['93.184.216.34', '::1'],
  };
  const resolve: Resolve = async (h) =>
    (names[h] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const guard = addressGuard(closed, resolve);
  await t.resolves(guard.checkHost('public.test'));
  await t.rejects(guard.checkHost('inside.test'), new AddressRefused('10.0.0.7', 'private'));
  await t.rejects(guard.checkHost('mixed.test'), new AddressRefused('::1', 'loopback'));
  await t.rejects(guard.checkHost('[::1]'), new AddressRefused('::1', 'loopback'), 'an IPv6 literal as URLs write it');
  await t.rejects(addressGuard(closed).checkHost('localhost'), AddressRefused, 'localhost, resolved by the system');
});

async function receiver(
  t: { teardown(f: () => unknown): void },
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise((r) => server.close(r)));
  return { port: (server.address() as AddressInfo).port, hits };
}

t.test('the address dialled is checked: a name that rebinds after the check is refused', async (t) => {
  const { port, hits } = await receiver(t, (_q, s) => s.end('ok'));
  let calls = 0;
  // The first answer (the check before the request) is public; the connection's own lookup gets loopback.
  const rebinding: Resolve = async () => [{ address: ++calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
  const guard = addressGuard(closed, rebinding);
  const f = await postWebhook(new URL(`http://rebind.test:${port}/hook`), '{}', {
    guard,
    timeoutMs: 5_000,
    headers: {},
  }).catch((e: unknown) => e);
  t.type(f, DeliveryFailure);
  t.match((f as DeliveryFailure).message, /refused: rebind\.test resolves to 127\.0\.0\.1, a loopback address/);
  t.equal((f as DeliveryFailure).retry, false);
  t.equal(calls, 2, 'resolved again for the connection');
  t.strictSame(hits, [], 'the receiver was never reached');

  const literal = await postWebhook(new URL(`http://127.0.0.1:${port}/`), '{}', {
    guard,
    timeoutMs: 5_000,
    headers: {},
  }).catch((e: unknown) => e);
  t.match((literal as DeliveryFailure).message, /refused: 127\.0\.0\.1 is a loopback address/);
  t.strictSame(hits, []);
});

t.test('allowed, it posts; a redirect is not followed; a 4xx is final, a 503 is retried', async (t) => {
  const target = await receiver(t, (_q, s) => s.end('never'));
  const { port, hits } = await receiver(t, (req, res) => {
    if (req.url === '/moved') res.writeHead(302, { location: `http://127.0.0.1:${target.port}/` }).end();
    else if (req.url === '/gone') res.writeHead(410).end();
    else if (req.url === '/busy') res.writeHead(503, { 'retry-after': '7' }).end();
    else res.writeHead(204).end();
  });
  const guard = addressGuard({ allowPrivate: false, allowCidrs: parseCidrs('127.0.0.0/8').list });
  const post = (p: string) =>
    postWebhook(new URL(`http://localhost:${port}${p}`), '{"a":1}', {
      guard,
      timeoutMs: 5_000,
      headers: { 'x-tally-delivery': 'd1' },
    });
  t.equal(await post('/ok'), 204);
  const moved = (await post('/moved').catch((e: unknown) => e)) as DeliveryFailure;
  t.match(moved, { retry: false, status: 302 });
  t.match(moved.message, /redirect, which Tally does not follow/);
  t.strictSame(target.hits, [], 'the redirect target was never asked');
  t.match(await post('/gone').catch((e: unknown) => e), { retry: false, status: 410 });
  t.match(await post('/busy').catch((e: unknown) => e), { retry: true, status: 503, retryAfterMs: 7000 });
  t.strictSame(hits, ['POST /ok', 'POST /moved', 'POST /gone', 'POST /busy']);
});
