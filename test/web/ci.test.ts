/**
 * The profile's CI page over plain HTTP: the link form needs the session's CSRF token, saves the
 * link (the token sealed), keeps the saved token when the field is left empty, refuses a bad field
 * with `ci_link_invalid` keeping what was typed but never the token, removes the link, and another
 * account's profile is not found. The token is on no page.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { toyProvider } from '../helpers/ci-providers.js';
import { startTally } from '../helpers/tally.js';
import { signedIn } from '../helpers/web.js';

const toy = toyProvider();

t.test('link, change, refuse and unlink on the CI page; the token on no page', async (t) => {
  const h = await startTally(t, { secretKey: randomBytes(32).toString('hex'), ciProviders: [toy] });
  const { client, csrf } = await signedIn(h);
  const token = `tok_${randomBytes(16).toString('hex')}`;
  const path = `/profiles/${h.profileNumber}/ci`;
  const form = { provider: 'toy', url: 'https://ci.example.org', repository: 'acme/web', branch: 'main', job: 't' };
  const pages: string[] = [];
  const get = async (p: string) => {
    const r = await client.get(p);
    pages.push(r.text);
    return r;
  };
  const post = async (p: string, body: Record<string, string>) => {
    const r = await client.post(p, body);
    pages.push(r.text);
    return r;
  };

  const empty = await get(path);
  t.equal(empty.status, 200);
  t.match(empty.text, 'not linked to a CI job');
  t.match(empty.text, '<option value="toy"');
  t.match(empty.text, new RegExp(`href="${path}"\\s+aria-current="page"`), 'the CI tab is current');

  t.equal((await post(path, { ...form, token })).status, 403, 'without the CSRF token');
  t.equal(await h.store.ciLinks.get(h.profileId), null);

  const saved = await post(path, { ...form, token, csrf });
  t.equal(saved.status, 303);
  t.equal(saved.headers.location, path);
  const sealed = (await h.store.ciLinks.get(h.profileId))!.sealedToken;
  t.match(sealed, /^v1\./);
  const linked = await get(path);
  t.match(linked.text, 'CI link saved.');
  t.match(linked.text, 'A token is saved; leave this empty to keep it.');
  t.match(linked.text, 'value="acme/web"');

  const changed = await post(path, { ...form, branch: 'release', token: '', csrf });
  t.equal(changed.status, 303);
  const kept = (await h.store.ciLinks.get(h.profileId))!;
  t.equal(kept.branch, 'release');
  t.equal(kept.sealedToken, sealed, 'an empty token field keeps the saved token');

  const bad = await post(path, { ...form, url: 'ftp://nope', token, csrf });
  t.equal(bad.status, 400);
  t.match(bad.text, 'ci_link_invalid');
  t.match(bad.text, 'value="ftp://nope"', 'what was typed is kept');

  t.equal((await get(`/profiles/${h.foreignProfileId}/ci`)).status, 404, "another account's profile");
  t.equal((await post(`/profiles/${h.foreignProfileId}/ci`, { ...form, token, csrf })).status, 404);

  t.equal((await post(`${path}/delete`, { csrf })).status, 303);
  t.equal(await h.store.ciLinks.get(h.profileId), null);
  t.match((await get(path)).text, 'CI link removed.');

  for (const page of pages) t.notOk(page.includes(token), 'the token is on no page');
});

t.test('without TALLY_SECRET_KEY the page says so and saves nothing', async (t) => {
  const h = await startTally(t, { ciProviders: [toy] });
  const { client, csrf } = await signedIn(h);
  const path = `/profiles/${h.profileNumber}/ci`;
  t.match((await client.get(path)).text, 'ci_secret_key_missing');
  const r = await client.post(path, {
    provider: 'toy',
    url: 'https://ci.example.org',
    repository: 'r',
    branch: 'main',
    job: 'j',
    token: 'x',
    csrf,
  });
  t.equal(r.status, 400);
  t.match(r.text, 'ci_secret_key_missing');
  t.equal(await h.store.ciLinks.count(), 0);
});
