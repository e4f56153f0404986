/**
 * The web interface over plain HTTP on both stores: sign-in and its failures, the brute-force guard,
 * CSRF, cookie flags, redirects to sign-in, the one-time password, one account never seeing
 * another's data, security headers, and attachments served safely.
 */
import t from 'tap';
import { createUserWithPassword } from '../../lib/users.js';
import { demoJunit, demoRun, demoScreenshot } from '../../scripts/demo-data.js';
import { file, field, multipart } from '../helpers/multipart.js';
import { startTally, storeKinds, type Harness } from '../helpers/tally.js';
import { NEW_PASSWORD, WebClient, signedIn } from '../helpers/web.js';

async function importRun(
  h: Harness,
  i: number,
  o: { failLogin?: boolean; svg?: boolean; tags?: string[] } = {},
): Promise<number> {
  const parts = [
    ...(o.tags ?? []).map((tag) => field('tag[]', tag)),
    file(
      'file[]',
      `TEST-${i}.xml`,
      demoJunit(demoRun(i, { failLogin: o.failLogin ?? false }), new Date().toISOString()),
      'application/xml',
    ),
  ];
  if (o.failLogin)
    parts.push(
      file(
        'attachment[]',
        o.svg ? 'login-failed.png' : 'login-failed.png',
        o.svg ? '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' : demoScreenshot(),
        'image/png',
      ),
    );
  const { body, contentType } = multipart(parts);
  const r = await h.send({
    path: `/api/v2/profile/${h.profileId}/import/junit`,
    body,
    headers: { 'content-type': contentType },
  });
  if (r.status !== 201) throw new Error(`import answered ${r.status}: ${r.text}`);
  return r.json.report_id as number;
}

for (const kind of storeKinds(t)) {
  t.test(`${kind}: pages need a session; sign-in and its failures`, async (t) => {
    const h = await startTally(t, { store: kind, limits: { maxKeyFailuresPerMinute: 5 } });
    const anon = new WebClient(h.url);
    for (const path of ['/profiles', `/profiles/${h.profileId}`, `/profiles/${h.profileId}/history?n=5`, '/account']) {
      const r = await anon.get(path);
      t.equal(r.status, 302, `${path} without a session`);
      t.equal(r.headers.location, `/signin?next=${encodeURIComponent(path)}`, 'to sign-in, and back afterwards');
    }
    const xhr = await anon.get(`/reports/x/list`, { 'x-requested-with': 'tally' });
    t.equal(xhr.status, 401, 'a script gets 401, not a redirect');
    t.match(xhr.json, { messages: [{ code: 'session_required' }] });

    const { password } = await createUserWithPassword(h.store, h.accountId, 'Ann@Example.com');
    const client = new WebClient(h.url);
    const form = await client.get('/signin?next=/account');
    t.equal(form.status, 200);
    const csrf = WebClient.csrfOf(form);
    t.match(
      form.headers['set-cookie']?.[0],
      /^tally_signin=[^;]+; .*HttpOnly; SameSite=Lax; Path=\//,
      'the sign-in token cookie',
    );

    const wrong = await client.post('/signin', { email: 'ann@example.com', password: 'not it', csrf });
    t.equal(wrong.status, 401, 'a wrong password');
    t.match(wrong.text, 'signin_failed');
    t.notOk(
      wrong.headers['set-cookie']?.some((c) => c.startsWith('tally_session=') && !/Max-Age=0/.test(c)),
      'no session',
    );
    const unknown = await client.post('/signin', { email: 'nobody@example.com', password: 'x', csrf });
    t.equal(unknown.status, 401, 'an unknown address answers the same');
    t.match(unknown.text, 'signin_failed');

    const ok = await client.post('/signin', { email: 'ANN@example.com', password, csrf, next: '/account' });
    t.equal(ok.status, 302);
    t.equal(ok.headers.location, '/account/password', 'a one-time password leads to choosing a new one');
    const cookie = ok.headers['set-cookie']!.find((c) => c.startsWith('tally_session='))!;
    t.match(cookie, /HttpOnly/, 'HttpOnly');
    t.match(cookie, /SameSite=Lax/, 'SameSite=Lax');
    t.notMatch(cookie, /Secure/, 'not Secure on http');
    t.equal(
      (await client.get('/profiles')).headers.location,
      '/account/password',
      'every page waits for the new password',
    );

    const change = await client.get('/account/password');
    const c2 = WebClient.csrfOf(change);
    const short = await client.post('/account/password', {
      csrf: c2,
      current: password,
      password: 'short',
      confirm: 'short',
    });
    t.equal(short.status, 400, 'too short');
    t.match(short.text, 'password_rejected');
    t.equal(
      (
        await client.post('/account/password', {
          csrf: c2,
          current: password,
          password: NEW_PASSWORD,
          confirm: `${NEW_PASSWORD}!`,
        })
      ).status,
      400,
      'entries differ',
    );
    t.equal(
      (
        await client.post('/account/password', {
          csrf: c2,
          current: 'wrong',
          password: NEW_PASSWORD,
          confirm: NEW_PASSWORD,
        })
      ).status,
      401,
      'current password wrong',
    );
    const changed = await client.post('/account/password', {
      csrf: c2,
      current: password,
      password: NEW_PASSWORD,
      confirm: NEW_PASSWORD,
    });
    t.equal(changed.status, 302);
    t.equal((await client.get('/profiles')).status, 200, 'now the pages open');

    const again = new WebClient(h.url);
    const f2 = WebClient.csrfOf(await again.get('/signin'));
    t.equal(
      (await again.post('/signin', { email: 'ann@example.com', password, csrf: f2 })).status,
      401,
      'the one-time password works once only',
    );
    t.equal(
      (
        await again.post('/signin', {
          email: 'ann@example.com',
          password: NEW_PASSWORD,
          csrf: f2,
          next: '//evil.example/x',
        })
      ).headers.location,
      '/profiles',
      'next never leaves the site',
    );

    const stored = await h.store.users.findByEmail('ann@example.com');
    t.match(
      stored!.passwordHash,
      /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/,
      'scrypt, with its cost and salt',
    );

    // Brute force: the limit is 5 per minute here, per address (and per e-mail address); three
    // failures from this address happened above, so the fifth failure is two guesses away.
    const brute = new WebClient(h.url);
    const f3 = WebClient.csrfOf(await brute.get('/signin'));
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await brute.post('/signin', { email: 'ann@example.com', password: `guess ${i}`, csrf: f3 })).status,
      );
    const blocked = await brute.post('/signin', { email: 'ann@example.com', password: NEW_PASSWORD, csrf: f3 });
    t.strictSame(statuses, [401, 401, 429], 'wrong passwords until the limit, then 429');
    t.equal(blocked.status, 429, 'past the limit even the right password waits');
    t.match(blocked.text, 'too_many_attempts');
    t.ok(Number(blocked.headers['retry-after']) > 0, 'Retry-After');

    const out = await client.post('/signout', { csrf: WebClient.csrfOf(await client.get('/profiles')) });
    t.equal(out.status, 302);
    t.equal((await client.get('/profiles')).status, 302, 'signed out');
  });

  t.test(`${kind}: CSRF on every form`, async (t) => {
    const h = await startTally(t, { store: kind });
    const { client, csrf } = await signedIn(h);
    const before = (await h.store.keys.list(h.accountId)).filter((k) => !k.revokedAt).map((k) => k.keyId);

    for (const [path, form] of [
      ['/account/key', {}],
      ['/account/users', { email: 'x@example.com' }],
      ['/signout', {}],
      [
        '/account/password',
        { current: NEW_PASSWORD, password: 'another long password', confirm: 'another long password' },
      ],
    ] as [string, Record<string, string>][]) {
      const none = await client.post(path, form);
      t.equal(none.status, 403, `${path} without a token`);
      t.match(none.text, 'csrf_rejected');
      t.equal(
        (await client.post(path, { ...form, csrf: `${csrf.slice(0, -2)}xx` })).status,
        403,
        `${path} with a wrong token`,
      );
      t.equal(
        (await client.post(path, { ...form, csrf }, { origin: 'https://evil.example' })).status,
        403,
        `${path} from another origin`,
      );
    }
    const upload = multipart([
      file('file[]', 'a.xml', demoJunit(demoRun(0), new Date().toISOString()), 'application/xml'),
    ]);
    const noToken = await client.post(`/profiles/${h.profileId}/upload`, {}, { 'content-type': upload.contentType });
    t.equal(noToken.status, 403, 'the upload form without a token');
    t.strictSame(
      (await h.store.keys.list(h.accountId)).filter((k) => !k.revokedAt).map((k) => k.keyId),
      before,
      'nothing changed',
    );
    t.equal((await client.get('/profiles')).status, 200, 'still signed in');

    const signinForm = new WebClient(h.url);
    await signinForm.get('/signin');
    const noCookie = new WebClient(h.url);
    t.equal(
      (await noCookie.post('/signin', { email: 'a@example.com', password: 'x', csrf: 'made-up' })).status,
      403,
      'sign-in without its cookie',
    );
    t.equal(
      (await signinForm.post('/signin', { email: 'a@example.com', password: 'x', csrf: 'made-up' })).status,
      403,
      'sign-in with a token that is not the cookie',
    );

    const rotated = await client.post('/account/key', { csrf });
    t.equal(rotated.status, 200, 'with the token it works');
    // `tly_` + a 12-character key id + `_` + the secret (which may itself hold `_`).
    const key = /id="new-key">([^<]+)</.exec(rotated.text)?.[1];
    t.match(key, /^tly_/, 'the new key is shown once');
    t.equal(rotated.headers['cache-control'], 'no-store', 'and never cached');
    t.equal((await h.send({ method: 'GET', path: '/api/v2/account' })).status, 401, 'the old key stopped working');
    const account = await h.send({ method: 'GET', path: '/api/v2/account', headers: { 'x-api-key': key! } });
    t.equal(account.status, 200);
    t.notMatch(account.text, key!.slice(17), 'the twin never shows the secret');
    t.notMatch((await client.get('/account')).text, key!.slice(17), 'nor does the page after');
  });

  t.test(`${kind}: one account never sees another's data`, async (t) => {
    const h = await startTally(t, { store: kind });
    const mine = await importRun(h, 0);
    const foreignProfile = await h.store.profiles.get(h.foreignProfileId);
    const other = await signedIn(h, 'other@example.com', foreignProfile!.accountId);
    const list = await other.client.get('/profiles');
    t.match(list.text, 'theirs');
    t.notMatch(list.text, `href="/profiles/${h.profileNumber}"`, 'the profiles page lists only its own account');
    const mineByUuid = (await h.store.reports.get(mine))!.id;
    for (const path of [
      `/profiles/${h.profileNumber}`,
      `/profiles/${h.profileNumber}/history`,
      `/reports/${mineByUuid}`,
      `/profiles/${h.profileId}`,
      `/profiles/${h.profileId}/history`,
      `/profiles/${h.profileId}/upload`,
      `/reports/${mine}`,
      `/reports/${mine}/nodes/1`,
      `/reports/${mine}/list?parent=1`,
    ]) {
      const r = await other.client.get(path);
      t.equal(r.status, 404, `${path} is not found for another account`);
      t.match(r.headers['content-type'], /text\/html/);
    }
    const upload = multipart([
      file('file[]', 'a.xml', demoJunit(demoRun(0), new Date().toISOString()), 'application/xml'),
    ]);
    const posted = await other.client.post(
      `/profiles/${h.profileId}/upload?csrf=${other.csrf}`,
      {},
      { 'content-type': upload.contentType, 'x-requested-with': 'tally' },
    );
    t.equal(posted.status, 403, "uploading into another account's profile");
    t.equal(
      (await h.send({ method: 'GET', path: `/api/v2/profiles/${h.foreignProfileId}/history` })).status,
      403,
      'nor through the twins',
    );
  });

  t.test(`${kind}: pages, headers, attachments`, async (t) => {
    const h = await startTally(t, { store: kind });
    const first = await importRun(h, 0, { tags: ['branch:main'] });
    const report = await importRun(h, 1, { failLogin: true, tags: ['branch:main'] });
    const svgReport = await importRun(h, 2, { failLogin: true, svg: true });
    const { client, email: own } = await signedIn(h);

    const page = await client.get(`/reports/${report}`);
    t.equal(page.status, 200);
    t.equal(
      page.headers['content-security-policy'],
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action " +
        "'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    t.equal(page.headers['x-content-type-options'], 'nosniff');
    t.equal(page.headers['x-frame-options'], 'DENY');
    t.equal(page.headers['referrer-policy'], 'same-origin');
    t.notMatch(page.text, /<script>|<style|style="|\son[a-z]+="/i, 'no inline script, style or handler');
    t.match(page.text, 'shop.auth.LoginTest');

    const failing = await client.get(`/reports/${report}?status=failing`);
    t.match(failing.text, 'logs in with a password', 'the status filter lists failed tests at any depth');
    t.match(failing.text, 'applies a coupon');
    t.notMatch(failing.text, 'logs out');
    const search = await client.get(`/reports/${report}?q=COUPON`);
    t.match(search.text, 'applies a coupon', 'title search, any case');
    t.notMatch(search.text, 'computes the tax');

    const found = await h.store.containers.find((await h.store.reports.get(report))!.id, {
      text: 'logs in with a password',
      limit: 1,
    });
    const node = await client.get(`/reports/${report}/nodes/${found[0]!.seq}`, { 'x-requested-with': 'tally' });
    t.match(node.text, 'Timed out after 5000 ms', 'failure message');
    t.match(node.text, 'LoginTest.java:31', 'stack');
    const img = /<img src="([^"]+)"/.exec(node.text)?.[1];
    t.ok(img, 'the screenshot is shown inline');
    const png = await client.get(img!);
    t.equal(png.status, 200);
    t.equal(png.headers['content-type'], 'image/png', 'a real PNG is an image');
    t.match(png.headers['content-disposition'], /^inline;/);
    t.equal(png.headers['x-content-type-options'], 'nosniff');

    const [svgTest] = await h.store.containers.find((await h.store.reports.get(svgReport))!.id, {
      text: 'logs in with a password',
      limit: 1,
    });
    const svgNode = await client.get(`/reports/${svgReport}/nodes/${svgTest!.seq}`, { 'x-requested-with': 'tally' });
    const svgUrl = /<img src="([^"]+)"/.exec(svgNode.text)?.[1];
    const svg = await client.get(svgUrl!);
    t.equal(svg.headers['content-type'], 'application/octet-stream', 'an SVG claiming to be a PNG is a download');
    t.match(svg.headers['content-disposition'], /^attachment;/);
    t.match(svg.headers['content-security-policy'], /sandbox/);

    const history = await client.get(`/profiles/${h.profileId}/history?n=10&tag=branch:main`);
    t.equal(history.status, 200);
    t.match(history.text, '2 reports compared', 'the tag filter compares branch:main with itself');
    const ofBranch = await client.get(`/profiles/${h.profileId}/history?n=10&branch=release%2F1.0`);
    t.match(ofBranch.text, 'No reports to compare yet.', 'the branch filter: no report came from that branch');
    t.match(ofBranch.text, 'name="branch" value="release/1.0"', 'the form keeps the branch');
    t.equal((await client.get(`/profiles/${h.profileId}?tag=branch:main&from=2000-01-01&to=2999-12-31`)).status, 200);
    const reports = await client.get(`/profiles/${h.profileId}?tag=branch:main`);
    // Report numbers are short: /reports/3 must not match inside /reports/31.
    const link = (n: number) => new RegExp(`/reports/${n}(?![0-9])`);
    t.match(reports.text, link(first));
    t.notMatch(reports.text, link(svgReport), 'the reports page filters by tag');
    t.notMatch((await client.get(`/profiles/${h.profileId}?to=2000-01-01`)).text, link(first), 'and by date');
    const upload = await client.get(`/profiles/${h.profileId}/upload`);
    t.match(upload.text, `/api/v2/profile/${h.profileNumber}/import`, 'the personalised command, with the integer id');
    t.notMatch(upload.text, h.apiKey, 'never the key');
    t.match(upload.text, '<code>junit</code>', 'the formatter keys');

    // A form hapi refuses before the route runs: the page names what went wrong, never with an import's code.
    const notAForm = await client.post('/account/users', { email: 'x@example.com' }, { 'content-type': 'text/plain' });
    t.equal(notAForm.status, 400);
    t.match(notAForm.text, 'malformed_request', 'a form body of another type is malformed_request');
    const tooLarge = await client.post('/account/users', { email: 'x'.repeat(20_000) });
    t.equal(tooLarge.status, 413);
    t.match(tooLarge.text, 'payload_too_large');
    for (const refused of [notAForm, tooLarge]) t.notMatch(refused.text, 'import_validation_error');
    const account = await client.get('/account');
    const csrf = /name="csrf" value="([^"]+)"/.exec(account.text)![1]!;
    for (const email of ['not an address', own]) {
      const added = await client.post('/account/users', { email, csrf });
      t.equal(added.status, 400, `adding ${email}`);
      t.match(added.text, 'user_invalid', `${email}: user_invalid`);
      t.notMatch(added.text, 'import_validation_error');
    }

    const xss = await importRun(h, 3, { tags: ['<img src=x onerror=alert(1)>'] });
    const escaped = await client.get(`/reports/${xss}`);
    t.match(escaped.text, '&lt;img src=x onerror=alert(1)&gt;', 'a tag is escaped');
    t.notMatch(escaped.text, '<img src=x', 'never markup');
  });

  t.test(`${kind}: the JSON twins`, async (t) => {
    const h = await startTally(t, { store: kind });
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(await importRun(h, i, { tags: [i % 2 ? 'branch:dev' : 'branch:main'] }));
    const get = async (path: string) => {
      const r = await h.send({ method: 'GET', path });
      t.equal(r.status, 200, path);
      return r.json;
    };
    const profiles = await get('/api/v2/profiles');
    t.equal(profiles.profiles.length, 1);
    t.match(profiles.profiles[0], {
      id: h.profileNumber,
      name: 'main',
      latest: { report_id: ids[3], status: 'failed' },
    });
    t.equal(profiles.profiles[0].trend.length, 4);

    const history = await get(`/api/v2/profiles/${h.profileId}/history?n=10`);
    t.equal(history.reports.length, 4);
    t.equal(history.reports[0].id, ids[3], 'newest first');
    t.equal(history.counts.tests, 14);
    const coupon = history.tests.find(
      (x: { path: string[] }) => x.path.join(' › ') === 'shop.checkout.CartTest › applies a coupon',
    );
    t.match(
      coupon,
      {
        flaky: true,
        flips: 3,
        latest: 'failed',
        first_failed: { report_id: ids[3] },
        last_passed: { report_id: ids[2] },
      },
      'passed, failed, passed, failed: flaky',
    );
    t.strictSame(
      coupon.cells.map((c: { status: string }) => c.status),
      ['failed', 'passed', 'failed', 'passed'],
    );
    const flaky = await get(`/api/v2/profiles/${h.profileId}/history?n=10&show=flaky`);
    t.strictSame(
      flaky.tests.map((x: { path: string[] }) => x.path.at(-1)),
      ['applies a coupon'],
    );
    const main = await get(`/api/v2/profiles/${h.profileId}/history?n=10&tag=branch:main`);
    t.equal(main.reports.length, 2, 'tag filter');
    t.equal(main.counts.flaky, 0, 'branch:main alone never flips');
    const one = await get(`/api/v2/profiles/${h.profileId}/history/${coupon.key}?n=10`);
    t.strictSame(one.test.path, coupon.path);
    t.equal(one.reports.length, 4);
    t.equal((await h.send({ method: 'GET', path: `/api/v2/profiles/${h.profileId}/history/12345` })).status, 404);
    t.equal((await h.send({ method: 'GET', path: `/api/v2/profiles/${h.profileId}/history?n=0` })).status, 400);

    const reports = await get(`/api/v2/profiles/${h.profileId}/reports?tag=branch:dev`);
    t.strictSame(
      reports.reports.map((r: { id: number }) => r.id),
      [ids[3], ids[1]],
    );
    const search = await get(`/api/v2/reports/${ids[3]}/search?status=failing&tests_only=true`);
    t.strictSame(
      search.containers.map((c: { title: string }) => c.title),
      ['applies a coupon'],
    );
    const upload = await get(`/api/v2/profiles/${h.profileId}/upload`);
    t.match(upload, { profile_id: h.profileNumber, import_url: `${h.url}/api/v2/profile/${h.profileNumber}/import` });
    t.ok(upload.formatters.some((f: { key: string }) => f.key === 'junit'));
    t.notMatch(JSON.stringify(upload), h.apiKey);
    const account = await get('/api/v2/account');
    t.match(account, { account_id: h.accountId, api_key: { masked: /^tly_[A-Za-z0-9]{12}_•+$/ } });
    t.notMatch(JSON.stringify(account), h.apiKey.slice(17), 'no secret');
    t.equal(
      (await h.send({ method: 'GET', path: '/api/v2/profiles', noKey: true })).status,
      401,
      'twins need the API key',
    );
  });

  t.test(`${kind}: Secure cookies behind https`, async (t) => {
    const h = await startTally(t, { store: kind, publicUrl: 'https://tally.example' });
    const { password } = await createUserWithPassword(h.store, h.accountId, 'sec@example.com');
    const client = new WebClient(h.url);
    const form = await client.get('/signin');
    t.match(form.headers['set-cookie']?.[0], /Secure/);
    const ok = await client.post(
      '/signin',
      { email: 'sec@example.com', password, csrf: WebClient.csrfOf(form) },
      { origin: 'https://tally.example' },
    );
    t.match(
      ok.headers['set-cookie']!.find((c) => c.startsWith('tally_session=')),
      /; Secure/,
      'Secure when TALLY_PUBLIC_URL is https',
    );
  });
}

// Embedded only: FerretDB, the suite's MongoDB-wire server, scans a collection for every query
// (it uses no secondary index), so its timings say nothing about Tally; MongoDB serves these
// reads from `containers {reportId, parentSeq, seq}`.
{
  const kind = 'embedded' as const;
  t.test(`${kind}: a report of 50,000 containers is sent 100 at a time`, async (t) => {
    const h = await startTally(t, { store: kind });
    const imp = await h.store.imports.create({
      profileId: h.profileId,
      accountId: h.accountId,
      endpoint: 'import',
      formatter: 'junit',
    });
    const report = await h.store.reports.create({
      profileId: h.profileId,
      importId: imp.id,
      tags: [],
      date: new Date().toISOString(),
    });
    const suites = 500;
    let seq = 0;
    for (let s = 0; s < suites; s++) {
      const batch = [];
      const suiteSeq = ++seq;
      batch.push({
        reportId: report.id,
        seq: suiteSeq,
        parentSeq: null,
        fileIndex: 0,
        type: 'suite' as const,
        title: `suite ${s}`,
        status: 'passed' as const,
        durationMs: 1,
        startedAt: null,
        failure: null,
        output: null,
        properties: [],
        attachmentRefs: [],
        attachments: [],
        flaky: false,
        attempts: [],
        meta: {},
      });
      for (let i = 0; i < 99; i++)
        batch.push({
          ...batch[0]!,
          seq: ++seq,
          parentSeq: suiteSeq,
          type: 'test' as const,
          title: `test ${s}.${i}`,
          status: (i === 7 ? 'failed' : 'passed') as 'failed' | 'passed',
        });
      await h.store.containers.insert(batch);
    }
    const totals = {
      containers: seq,
      tests: suites * 99,
      passed: suites * 98,
      failed: suites,
      errored: 0,
      skipped: 0,
      pending: 0,
      unknown: 0,
      flaky: 0,
    };
    await h.store.reports.complete(report.id, { date: report.date, totals, files: [], messages: [], tags: [] });
    t.equal(seq, 50_000);
    const { client } = await signedIn(h);
    const page = await client.get(`/reports/${report.id}`);
    t.equal(page.status, 200);
    t.equal(page.text.match(/<details class="node /g)?.length, 100, 'the first 100 top-level containers');
    t.match(
      page.text,
      `data-more="/reports/${report.number}/list?after=9901"`,
      'and a way to the next 100 (after the seq of the last one)',
    );
    // Size, not time, says that the page did not carry the whole tree: 50,000 rows would be megabytes.
    t.ok(page.text.length < 256 * 1024, `the page is ${Math.round(page.text.length / 1024)} KiB`);
    const next = await client.get(`/reports/${report.id}/list?after=9901`, { 'x-requested-with': 'tally' });
    t.equal(next.text.match(/<details class="node /g)?.length, 100, 'the next page');
    const node = await client.get(`/reports/${report.id}/nodes/1`, { 'x-requested-with': 'tally' });
    t.equal(node.text.match(/<details class="node /g)?.length, 99, "a suite's children");
    const failing = await client.get(`/reports/${report.id}?status=failing`);
    t.equal(failing.text.match(/<details class="node /g)?.length, 100, 'a search is paged too');
  });
}
