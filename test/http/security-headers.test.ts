/**
 * Security headers over HTTP on every kind of answer: API JSON, faults hapi answers itself, auth
 * faults, downloads, a web page; HSTS only behind an https public URL.
 */
import t from 'tap';
import { startTally } from '../helpers/tally.js';
import { file, multipart } from '../helpers/multipart.js';
import { junitXml } from '../helpers/junit.js';
import type { Reply } from '../helpers/tally.js';

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
  const blob = record.json.attachments[0].blobId;
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
