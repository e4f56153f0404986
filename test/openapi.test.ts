/**
 * /openapi.json matches the route table: every API route is in the document with its methods, auth
 * and joi-validated query parameters, and every documented operation has a route. The schemathesis
 * run (test/contract/) then holds the answers to the document.
 */
import t from 'tap';
import { startTally } from './helpers/tally.js';
import { buildDocument, isApiPath, routeKey } from '../plugins/openapi/document.js';
import { OPERATIONS } from '../plugins/openapi/operations.js';
import { SCHEMAS } from '../plugins/openapi/schemas.js';

t.test('the document and the routes agree', async (t) => {
  const h = await startTally(t);
  const r = await h.send({ method: 'GET', path: '/openapi.json', noKey: true });
  t.equal(r.status, 200);
  const doc = r.json;
  t.equal(doc.openapi, '3.0.3');
  const table = h.tally.server.table();
  const built = buildDocument(table, 'test');
  t.same(built.undocumented, [], 'every API route has an entry in OPERATIONS');
  t.same(built.unrouted, [], 'every entry in OPERATIONS has a route');

  const api = table.filter((route) => isApiPath(route.path));
  t.ok(api.length >= 15, `${api.length} API routes`);
  for (const route of api) {
    const methods = route.method === '*' ? OPERATIONS[routeKey(route)]!.methods! : [route.method];
    for (const method of methods) {
      const op = doc.paths[route.path]?.[method];
      t.ok(op, `${method.toUpperCase()} ${route.path} is documented`);
      const authed =
        ((route.settings.auth as { strategies?: string[] } | false | undefined) || null)?.strategies?.includes(
          'api-key',
        ) ?? false;
      t.same(
        op?.security,
        authed ? [{ apiKey: [] }] : [],
        `${method.toUpperCase()} ${route.path}: auth as the route has it`,
      );
    }
  }
  let operations = 0;
  for (const p of Object.values(doc.paths) as Record<string, unknown>[]) operations += Object.keys(p).length;
  t.equal(
    operations,
    api.reduce((n, route) => n + (route.method === '*' ? OPERATIONS[routeKey(route)]!.methods!.length : 1), 0),
    'no operation without a route',
  );

  const limit = doc.paths['/api/v2/profile/{profile_id}/reports'].get.parameters.find(
    (p: { name: string }) => p.name === 'limit',
  );
  t.same(
    limit.schema,
    { type: 'integer', minimum: 1, maximum: 1000, default: 50 },
    'query parameters come from the joi schema',
  );

  // Report and profile ids are 32-bit integers for typed clients; paths take the UUID of older links too.
  const int32 = { type: 'integer', format: 'int32', minimum: 1, maximum: 2147483647 };
  const schemas = doc.components.schemas;
  t.same(schemas.ImportAnswer.properties.report_id, { ...int32, nullable: true }, 'report_id in the import answer');
  t.same(schemas.ImportAnswer.properties.profile_id, int32);
  t.same(schemas.ReportStatus.properties.report_id, int32, 'report_id in /status');
  t.same(schemas.Report.properties.id, int32, "a report's id");
  t.same(schemas.Profile.properties.id, int32, "a profile's id");
  for (const [route, name] of [
    ['/api/v2/profile/{profile_id}/import/{formatter}', 'profile_id'],
    ['/api/v2/reports/{report_id}/status', 'report_id'],
    ['/api/v2/profiles/{id}/history', 'id'],
    ['/api/v2/reports/{id}/search', 'id'],
  ] as const) {
    const op = doc.paths[route].post ?? doc.paths[route].get;
    const param = op.parameters.find((p: { name: string }) => p.name === name);
    t.same(param.schema.anyOf, [int32, { type: 'string', format: 'uuid' }], `${route}: the integer, or a UUID`);
  }
});

t.test('a route without a document, or a document without a route, is reported', async (t) => {
  const h = await startTally(t);
  h.tally.server.route({ method: 'GET', path: '/api/v2/undocumented', options: { auth: false }, handler: () => ({}) });
  const extra = { ...OPERATIONS, 'GET /api/v2/nowhere': { summary: 'no route', responses: { 200: 'Fault' } } };
  const built = buildDocument(h.tally.server.table(), 'test', extra);
  t.same(built.undocumented, ['GET /api/v2/undocumented']);
  t.same(built.unrouted, ['GET /api/v2/nowhere']);
});

t.test('the answers the document describes have snake_case field names', async (t) => {
  const names: string[] = [];
  const walk = (s: unknown): void => {
    if (Array.isArray(s)) return s.forEach(walk);
    if (!s || typeof s !== 'object') return;
    const o = s as Record<string, unknown>;
    if (o.properties) names.push(...Object.keys(o.properties as object));
    if (Array.isArray(o.required)) names.push(...(o.required as string[]));
    for (const v of Object.values(o)) walk(v);
  };
  for (const [name, schema] of Object.entries(SCHEMAS)) if (name !== 'OpenApi') walk(schema);
  t.ok(names.length > 50, `${names.length} field names`);
  t.strictSame(
    names.filter((n) => !/^[a-z0-9]+(_[a-z0-9]+)*$/.test(n)),
    [],
    'every field name is snake_case',
  );
});
