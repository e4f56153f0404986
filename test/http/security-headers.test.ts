/**
 * Security headers over HTTP on every kind of answer: API JSON, faults hapi answers itself, auth
 * faults, downloads, a web page; HSTS only behind an https public URL.
 */
import t from 'tap';
import { startTally } from '../helpers/tally.js';
import { file, multipart } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';
import type { Reply } from '../helpers/tally.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENT_SECURITY_POLICY, securityHeaders } from '../../plugins/security-headers.js';

const EVERY = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

function assertHeaders(t: any, name: string, r: Reply): void {
  for (const [header, value] of Object.entries(EVERY)) t.equal(r.headers[header], value, `${name}: ${header}`);
  const csp = String(r.headers['content-security-policy'] ?? '');
  t.match(csp, /(^|; )default-src 'self'(;|$)/, `${name}: CSP default-src 'self'`);
  t.match(csp, /frame-ancestors 'none'/, `${name}: CSP frame-ancestors 'none'`);
  t.notMatch(csp, /unsafe-inline|unsafe-eval|\*/, `${name}: no unsafe-inline, unsafe-eval or wildcard`);
}

t.test('every answer carries the security headers; no HSTS over http', async (t) => {
  const h = await startTally(t);
  // A page as the web interface serves them (text/html from a route), to check the CSP on HTML.
  h.tally.server.route({
    method: 'GET',
    path: '/security-headers-page',
    options: { auth: false },
    handler: (_r, rt) => rt.response('<!doctype html><title>x</title><script>alert(1)</script>').type('text/html'),
  });
  const m = multipart([
    file('file[]', 'a.xml', junitXml()),
    file('attachment[]', 'page.html', '<script>alert(1)</script>', 'text/html'),
  ]);
  const imported = await h.send({
    path: `/api/v2/profile/${h.profileId}/import/junit`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
  t.equal(imported.status, 201);
  const record = await h.send({ method: 'GET', path: `/api/v2/imports/${imported.json.import_id}` });
  const blob = record.json.attachments[0].blob_id;
  const answers: [string, Reply][] = [
    ['import 201', imported],
    ['healthz', await h.send({ method: 'GET', path: '/healthz', noKey: true })],
    ['openapi', await h.send({ method: 'GET', path: '/openapi.json', noKey: true })],
    ['unknown route 404', await h.send({ method: 'GET', path: '/no/such/thing', noKey: true })],
    ['missing key 401', await h.send({ method: 'GET', path: `/api/v2/profile/${h.profileId}/reports`, noKey: true })],
    ['wrong method 405', await h.send({ method: 'GET', path: `/api/v2/profile/${h.profileId}/import` })],
    ['download', await h.send({ method: 'GET', path: `/api/v2/imports/${imported.json.import_id}/blobs/${blob}` })],
    ['html page', await h.send({ method: 'GET', path: '/security-headers-page', noKey: true })],
  ];
  for (const [name, r] of answers) {
    assertHeaders(t, name, r);
    t.equal(r.headers['strict-transport-security'], undefined, `${name}: no HSTS without an https public URL`);
  }
  t.match(answers[7]![1].headers['content-type'], /text\/html/);
  t.equal(
    answers[6]![1].headers['content-disposition']?.startsWith('attachment'),
    true,
    'the uploaded HTML is a download',
  );
});

t.test('HSTS when TALLY_PUBLIC_URL is https', async (t) => {
  const h = await startTally(t, { publicUrl: 'https://tally.example.com' });
  for (const r of [
    await h.send({ method: 'GET', path: '/healthz', noKey: true }),
    await h.send({ method: 'GET', path: '/nowhere', noKey: true }),
  ]) {
    t.equal(r.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
    t.equal(r.headers['x-content-type-options'], 'nosniff');
  }
});

// The README once stated two different policies and referrers for pages; its table now says what is sent.
t.test("the README's security headers table is what Tally sends", async (t) => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const rows = new Map<string, { csp: string; referrer: string }>();
  for (const m of readme.matchAll(/^\| (API|page) \| `([^`]+)` \| `([^`]+)` \|$/gm))
    rows.set(m[1]!, { csp: m[2]!, referrer: m[3]! });
  t.strictSame([...rows.keys()], ['API', 'page'], 'one row for the API, one for pages');

  const h = await startTally(t);
  const api = await h.send({ method: 'GET', path: '/healthz', noKey: true });
  const page = await h.send({ method: 'GET', path: '/signin', noKey: true });
  t.match(page.headers['content-type'], /^text\/html/, '/signin is a page');
  for (const [name, r] of [
    ['API', api],
    ['page', page],
  ] as const) {
    t.equal(r.headers['content-security-policy'], rows.get(name)?.csp, `${name}: Content-Security-Policy`);
    t.equal(r.headers['referrer-policy'], rows.get(name)?.referrer, `${name}: Referrer-Policy`);
  }
  t.equal(rows.get('API')?.csp, CONTENT_SECURITY_POLICY, 'the API row is plugins/security-headers.ts');
  t.equal(rows.get('API')?.referrer, securityHeaders(null)['referrer-policy']);

  // Stated once: no other policy for pages or answers anywhere in the README (attachments have their own).
  const policies = [...readme.matchAll(/default-src [^`|]*/g)].map((m) => m[0].trim());
  t.strictSame(
    policies.filter((p) => !p.endsWith('sandbox')),
    [rows.get('API')?.csp, rows.get('page')?.csp],
    'each policy is stated once',
  );
  t.notMatch(readme, /Referrer-Policy:\s*no-referrer/, 'the referrers are stated in the table only');
});
