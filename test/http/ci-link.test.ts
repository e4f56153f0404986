/**
 * A profile's CI link over HTTP, on both stores: saved, read and removed; the token write-only
 * (sealed in the store, bound to its profile, in no answer and no log line); the fields refused
 * with `ci_link_invalid`; no link saved without TALLY_SECRET_KEY; and a Tally with links refusing to
 * start without the key.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { toyProvider } from '../helpers/ci-providers.js';
import { createSecretBox, parseSecretKey } from '../../lib/ci/secret-box.js';
import { loadConfig } from '../../lib/config.js';
import { builtinFormatters } from '../../formatters/index.js';
import { createTally } from '../../plugins/server.js';
import { send, startTally, storeKinds, type Harness, type Reply } from '../helpers/tally.js';

/** A provider registered only so links can name it; the link routes never call it. */
const toy = toyProvider();

const json = (h: Harness, method: string, p: string, body?: unknown): Promise<Reply> =>
  send(h.url, h.apiKey, {
    method,
    path: p,
    ...(body === undefined
      ? {}
      : {
          body: typeof body === 'string' ? body : JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        }),
  });

for (const kind of storeKinds(t)) {
  t.test(`${kind}: save, read, change and remove a link; the token only ever sealed`, async (t) => {
    const key = randomBytes(32).toString('base64');
    const lines: string[] = [];
    const h = await startTally(t, {
      store: kind,
      secretKey: key,
      ciProviders: [toy],
      log: (event, data) => lines.push(JSON.stringify({ event, ...data })),
    });
    const token = `tok_${randomBytes(16).toString('hex')}`;
    const answers: Reply[] = [];
    const call = async (method: string, p: string, body?: unknown): Promise<Reply> => {
      const r = await json(h, method, p, body);
      answers.push(r);
      return r;
    };
    const path = `/api/v2/profiles/${h.profileNumber}/ci`;
    const body = {
      provider: 'toy',
      url: 'https://ci.example.org/',
      repository: 'acme/web',
      branch: 'main',
      job: 'tests.yml',
      token,
    };

    t.equal((await call('GET', path)).json.messages[0].code, 'ci_link_not_found');
    const saved = await call('PUT', path, body);
    t.equal(saved.status, 200);
    t.strictSame(
      { ...saved.json, updated_at: 'x' },
      {
        profile_id: h.profileNumber,
        provider: 'toy',
        url: 'https://ci.example.org',
        repository: 'acme/web',
        branch: 'main',
        job: 'tests.yml',
        verdict: false,
        token_set: true,
        updated_at: 'x',
      },
    );
    t.strictSame((await call('GET', `/api/v2/profiles/${h.profileId}/ci`)).json, saved.json, 'by UUID too');

    const kept = await h.store.ciLinks.get(h.profileId);
    t.not(kept!.sealedToken, token);
    const box = createSecretBox(parseSecretKey(key));
    t.equal(box.open(kept!.sealedToken, h.profileId), token, 'sealed with the key, bound to the profile');
    t.throws(() => box.open(kept!.sealedToken, h.foreignProfileId), /changed, or belongs elsewhere/);

    const { token: _left, ...withoutToken } = body;
    const changed = await call('PUT', path, { ...withoutToken, branch: 'release' });
    t.equal(changed.json.branch, 'release');
    t.equal((await h.store.ciLinks.get(h.profileId))!.sealedToken, kept!.sealedToken, 'no token: the saved one kept');

    const refused: [unknown, RegExp][] = [
      [{ ...body, provider: 'nope' }, /"provider" must be one of "toy"/],
      [{ ...body, url: 'ftp://ci.example.org' }, /"url"/],
      [{ ...body, url: 'https://user:pw@ci.example.org' }, /"url"/],
      [{ ...body, repository: '' }, /"repository"/],
      [{ ...body, branch: 'a\u0000b' }, /"branch"/],
      [{ ...body, job: 'x'.repeat(201) }, /"job"/],
      [{ ...body, token: 'has space' }, /"token"/],
      [{ ...body, extra: 1 }, /Unknown field "extra"/],
      [[body], /JSON object/],
      ['{not json', /not valid JSON/],
    ];
    for (const [bad, why] of refused) {
      const r = await call('PUT', path, bad);
      t.equal(r.status, 400, JSON.stringify(bad));
      t.equal(r.json.messages[0].code, 'ci_link_invalid');
      t.match(r.json.messages[0].message, why);
    }
    t.equal((await call('PUT', `/api/v2/profiles/${h.foreignProfileId}/ci`, body)).status, 403);
    t.equal((await call('GET', `/api/v2/profiles/${h.foreignProfileId}/ci`)).status, 403);
    t.equal((await call('PUT', '/api/v2/profiles/999999/ci', body)).status, 404);

    t.strictSame((await call('DELETE', path)).json, { profile_id: h.profileNumber, deleted: true });
    t.equal((await call('DELETE', path)).json.messages[0].code, 'ci_link_not_found');
    t.equal(await h.store.ciLinks.get(h.profileId), null);

    for (const r of answers) t.notOk(r.text.includes(token), `no answer carries the token (${r.status})`);
    t.ok(lines.length > 0, 'the refusals were logged');
    t.notOk(lines.join('\n').includes(token), 'no log line carries the token');
  });
}

t.test('without TALLY_SECRET_KEY no link is saved', async (t) => {
  const h = await startTally(t, { ciProviders: [toy] });
  const r = await json(h, 'PUT', `/api/v2/profiles/${h.profileNumber}/ci`, {
    provider: 'toy',
    url: 'https://ci.example.org',
    repository: 'acme/web',
    branch: 'main',
    job: 'tests',
    token: 't',
  });
  t.equal(r.status, 503);
  t.equal(r.json.messages[0].code, 'ci_secret_key_missing');
  // A body that could never be saved is the client's fault first, not the operator's 503.
  const empty = await send(h.url, h.apiKey, { method: 'PUT', path: `/api/v2/profiles/${h.profileNumber}/ci` });
  t.equal(empty.status, 400);
  t.equal(empty.json.messages[0].code, 'ci_link_invalid');
  t.equal(await h.store.ciLinks.count(), 0);
});

t.test('a Tally with links refuses to start without the key', async (t) => {
  const h = await startTally(t, { secretKey: 'ab'.repeat(32), ciProviders: [toy] });
  await h.store.ciLinks.put({
    profileId: h.profileId,
    provider: 'toy',
    url: 'https://ci.example.org',
    repository: 'r',
    branch: 'main',
    job: 'j',
    sealedToken: 'v1.x.y.z.w',
    updatedAt: new Date().toISOString(),
    verdict: false,
  });
  const config = { ...loadConfig({ TALLY_DATA_DIR: h.dataDir }), port: 0, host: '127.0.0.1', parseWorkers: 0 };
  const second = await createTally({ config, store: h.store, formatters: builtinFormatters, log: () => undefined });
  await t.rejects(second.start(), { message: /^TALLY_SECRET_KEY is not set, but 1 profile\(s\) have a CI link/ });
  await second.stop();
});
