/**
 * The verdict opt-in of a CI link: off unless asked for, `"verdict": true` kept and shown by the API
 * on both stores and by the CI page's checkbox, and refused with `ci_link_invalid` naming the
 * provider when the provider cannot send a verdict back (a build server without commit statuses).
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { toyProvider } from '../helpers/ci-providers.js';
import { send, startTally, storeKinds, type Harness } from '../helpers/tally.js';
import { signedIn } from '../helpers/web.js';

/** Hosts code: takes a verdict. */
const forge = toyProvider('forge');
/** A build server: no commit statuses, no pull requests. */
const builder = toyProvider('builder', { verdict: false });

const put = (h: Harness, body: unknown) =>
  send(h.url, h.apiKey, {
    method: 'PUT',
    path: `/api/v2/profiles/${h.profileNumber}/ci`,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

const link = { url: 'https://ci.example.org', repository: 'acme/web', branch: 'main', job: 'tests.yml' };

for (const kind of storeKinds(t)) {
  t.test(`${kind}: the verdict opt-in over the API`, async (t) => {
    const h = await startTally(t, {
      store: kind,
      secretKey: randomBytes(32).toString('hex'),
      ciProviders: [forge, builder],
    });
    const token = `tok_${randomBytes(8).toString('hex')}`;
    const plain = await put(h, { ...link, provider: 'forge', token });
    t.equal(plain.status, 200);
    t.equal(plain.json.verdict, false, 'off unless asked for');

    const on = await put(h, { ...link, provider: 'forge', verdict: true });
    t.equal(on.status, 200);
    t.equal(on.json.verdict, true);
    const read = await send(h.url, h.apiKey, { method: 'GET', path: `/api/v2/profiles/${h.profileNumber}/ci` });
    t.equal(read.json.verdict, true, 'GET shows it');
    t.equal((await h.store.ciLinks.get(h.profileId))?.verdict, true, 'the store keeps it');

    const off = await put(h, { ...link, provider: 'forge', verdict: false });
    t.equal(off.json.verdict, false, 'and turns it off');

    const refused = await put(h, { ...link, provider: 'builder', token, verdict: true });
    t.equal(refused.status, 400);
    t.equal(refused.json.messages[0].code, 'ci_link_invalid');
    t.match(refused.json.messages[0].message, /the builder provider cannot send the verdict back/);
    t.equal((await h.store.ciLinks.get(h.profileId))?.provider, 'forge', 'the refused link is not saved');
    t.equal((await put(h, { ...link, provider: 'builder', token, verdict: false })).status, 200, 'false is fine');

    const odd = await put(h, { ...link, provider: 'forge', token, verdict: 'yes' });
    t.equal(odd.status, 400);
    t.match(odd.json.messages[0].message, /"verdict" must be true or false/);
  });
}

t.test('the CI page: the verdict checkbox', async (t) => {
  const h = await startTally(t, { secretKey: randomBytes(32).toString('hex'), ciProviders: [forge, builder] });
  const { client, csrf } = await signedIn(h);
  const path = `/profiles/${h.profileNumber}/ci`;
  const form = { ...link, provider: 'forge', token: 'tok_abc', csrf };
  const empty = await client.get(path);
  t.match(empty.text, /<input type="checkbox" name="verdict" value="on"\s+\/>/, 'unticked at first');
  t.match(empty.text, /\(forge\)/, 'it says which providers can take a verdict');

  t.equal((await client.post(path, { ...form, verdict: 'on' })).status, 303);
  t.equal((await h.store.ciLinks.get(h.profileId))?.verdict, true, 'ticked: on');
  const ticked = await client.get(path);
  t.match(ticked.text, /name="verdict" value="on" checked/);
  t.match(ticked.text, 'sent back after each import');

  t.equal((await client.post(path, { ...form, token: '' })).status, 303);
  t.equal((await h.store.ciLinks.get(h.profileId))?.verdict, false, 'unticked (left out of the form): off');

  const bad = await client.post(path, { ...form, provider: 'builder', verdict: 'on' });
  t.equal(bad.status, 400);
  t.match(bad.text, 'cannot send the verdict back');
  t.match(bad.text, /name="verdict" value="on" checked/, 'the box stays as it was ticked');
});
