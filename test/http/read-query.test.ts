/**
 * The read routes' query strings (plugins/read.ts, plugins/page-api.ts, plugins/query-fault.ts): a
 * value the route's joi schema refuses answers 400 `invalid_query` naming the parameter and what it
 * allows, never an import code; hapi's own 400s outside the import routes are `malformed_request`.
 */
import t from 'tap';
import { startTally } from '../helpers/tally.js';
import { allowedOf } from '../../plugins/query-fault.js';
import Joi from 'joi';

const STATUSES = 'passed, failed, errored, skipped, pending, unknown';

t.test('a refused query parameter is named with what it allows', async (t) => {
  const h = await startTally(t);
  const p = h.profileId;
  const cases: [path: string, parameter: string, text: string][] = [
    [`/api/v2/profile/${p}/reports?limit=5000`, 'limit', 'limit must be an integer from 1 to 1000 (got "5000").'],
    [`/api/v2/profile/${p}/reports?limit=ten`, 'limit', 'limit must be an integer from 1 to 1000 (got "ten").'],
    [
      `/api/v2/profile/${p}/reports?before=yesterday`,
      'before',
      'before must be a time, or the next_before cursor of the previous page (got "yesterday").',
    ],
    [
      `/api/v2/profile/${p}/reports?before=2024-13-45`,
      'before',
      'before must be a time, or the next_before cursor of the previous page.',
    ],
    ['/api/v2/reports/r1/containers?parent=0', 'parent', 'parent must be an integer of at least 1 (got "0").'],
    ['/api/v2/reports/r1/containers?after=-1', 'after', 'after must be an integer of at least 0 (got "-1").'],
    [
      '/api/v2/reports/r1/containers?colour=red',
      'colour',
      'colour is not a parameter of this route; it takes parent, after, limit.',
    ],
    [`/api/v2/profiles/${p}/reports?limit=0`, 'limit', 'limit must be an integer from 1 to 1000 (got "0").'],
    [
      `/api/v2/profiles/${p}/reports?from=last-week`,
      'from',
      'from must be an ISO 8601 date or date-time (got "last-week").',
    ],
    [
      '/api/v2/reports/r1/search?status=green',
      'status',
      `status must be failing, or one or more of ${STATUSES} (got "green").`,
    ],
    ['/api/v2/reports/r1/search?tests_only=maybe', 'tests_only', 'tests_only must be true or false (got "maybe").'],
    [
      `/api/v2/reports/r1/search?q=${'x'.repeat(201)}`,
      'q',
      `q must be text of at most 200 characters (got "${'x'.repeat(60)}").`,
    ],
    [`/api/v2/profiles/${p}/history?n=500`, 'n', 'n must be an integer from 1 to 200 (got "500").'],
    [`/api/v2/profiles/${p}/history?show=broken`, 'show', 'show must be one of all, failing, flaky (got "broken").'],
    [`/api/v2/profiles/${p}/history/1?limit=20000`, 'limit', 'limit must be an integer from 1 to 10000 (got "20000").'],
  ];
  for (const [path, parameter, text] of cases) {
    const r = await h.send({ method: 'GET', path });
    t.equal(r.status, 400, `${path}: 400`);
    t.equal(r.json.status, 'failed');
    t.equal(r.json.messages.length, 1);
    const m = r.json.messages[0];
    t.match(m, { severity: 'error', code: 'invalid_query', details: { parameter } }, `${path}: invalid_query`);
    t.ok(m.message.endsWith(` ${text}`), `${path}: ${text}`, { found: m.message });
    t.notMatch(m.message, /import/i, `${path}: nothing about an import`);
  }
  const limit = (await h.send({ method: 'GET', path: `/api/v2/profile/${p}/reports?limit=5000` })).json.messages[0];
  t.strictSame(limit.details, { parameter: 'limit', allowed: 'an integer from 1 to 1000', min: 1, max: 1000 });
});

t.test('a 400 of hapi itself: malformed_request outside the imports', async (t) => {
  const h = await startTally(t);
  // A cookie hapi cannot parse is refused before any handler.
  const r = await h.send({ method: 'GET', path: '/api/v2/formatters', headers: { cookie: 'a="b' }, noKey: true });
  t.equal(r.status, 400);
  t.equal(r.json.messages[0].code, 'malformed_request');
  t.equal(r.json.messages[0].severity, 'error');
});

t.test('allowedOf: the words for each joi type the routes use', async (t) => {
  const d = (s: Joi.Schema) => allowedOf(s.describe()).allowed;
  t.equal(d(Joi.number().integer().min(1).max(5)), 'an integer from 1 to 5');
  t.equal(d(Joi.number().max(5)), 'a number of at most 5');
  t.equal(d(Joi.number()), 'a number');
  t.equal(d(Joi.string().valid('a', 'b')), 'one of a, b');
  t.equal(d(Joi.string()), 'text');
  t.equal(d(Joi.boolean()), 'true or false');
  t.equal(d(Joi.string().description('a cursor')), 'a cursor');
  t.equal(d(Joi.alternatives(Joi.string().valid('x'), Joi.number().min(2))), 'one of x, or a number of at least 2');
  t.equal(d(Joi.array().items(Joi.string().valid('x'))), 'several, each one of x');
});
