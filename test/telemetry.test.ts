/**
 * Telemetry against a started server: the span tree of one import (http → hapi → tally.import →
 * tally.file → tally.formatter → tally.store.batch) in an in-memory exporter, the import metrics,
 * and the request id on every log line of a request and in X-Request-Id.
 */
import t from 'tap';
import { SimpleSpanProcessor, InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { PassThrough } from 'node:stream';
import { startTelemetry } from '../lib/telemetry/start.js';
import { jsonLogger } from '../lib/log.js';

const spans = new InMemorySpanExporter();
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 60_000 });
// Started before hapi and http are loaded (as register.js does for `npm start`).
const telemetry = startTelemetry({}, { spanProcessors: [new SimpleSpanProcessor(spans)], metricReaders: [reader] })!;
t.teardown(() => telemetry.shutdown());
const { startTally } = await import('./helpers/tally.js');
const { file, multipart } = await import('./helpers/multipart.js');
const { zipOf } = await import('./helpers/zip.js');
const { junitXml } = await import('./helpers/junit.js');

t.test('one import: its span tree, metrics and request id', async (t) => {
  const lines: Record<string, unknown>[] = [];
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) =>
    lines.push(
      ...c
        .toString()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    ),
  );
  const h = await startTally(t, { log: jsonLogger(sink) });
  spans.reset();

  const many = junitXml({ suite: 'big', cases: Array.from({ length: 2500 }, (_, i) => ({ name: `case ${i}` })) });
  const zip = await zipOf([
    { name: 'TEST-big.xml', data: many },
    { name: 'TEST-small.xml', data: junitXml({ suite: 'small' }) },
  ]);
  const m = multipart([file('file[]', 'results.zip', zip)]);
  const r = await h.send({
    path: `/api/v2/profile/${h.profileId}/import/junit`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
  t.equal(r.status, 201, 'imported', { body: r.text.slice(0, 500) });
  const requestId = r.headers['x-request-id'];
  t.ok(requestId, 'X-Request-Id is sent back');

  const finished = spans.getFinishedSpans();
  const byId = new Map(finished.map((s) => [s.spanContext().spanId, s]));
  const parentOf = (s: ReadableSpan) =>
    s.parentSpanContext?.spanId ? byId.get(s.parentSpanContext.spanId) : undefined;
  const named = (name: string) => finished.filter((s) => s.name === name);

  const [root] = named('tally.import');
  t.ok(root, 'one tally.import span');
  if (!root) return;
  t.equal(named('tally.import').length, 1);
  t.equal(root.attributes['tally.import_id'], r.json.import_id);
  t.equal(root.attributes['tally.status'], 'completed');
  t.ok(Number(root.attributes['tally.bytes']) > 0, 'with the bytes received');
  // The import runs inside hapi's request handling, itself inside the http server span.
  const chain: string[] = [];
  for (let s = parentOf(root); s; s = parentOf(s)) chain.push(s.name);
  t.ok(chain.length >= 1, `the import span has the request's spans above it: ${chain.join(' ← ')}`);
  t.ok(
    chain.some((n) => /POST/.test(n)),
    'an http server span is an ancestor',
  );

  const files = named('tally.file');
  t.same(
    files.map((s) => s.attributes['tally.file']).sort(),
    ['TEST-big.xml', 'TEST-small.xml'],
    'one tally.file span per zip entry',
  );
  for (const f of files) t.equal(parentOf(f), root, `${f.attributes['tally.file']}: child of tally.import`);
  const formatters = named('tally.formatter');
  t.equal(formatters.length, 2, 'one tally.formatter span per file');
  for (const f of formatters) {
    t.equal(parentOf(f)?.name, 'tally.file', 'formatter spans sit under their file');
    t.equal(f.attributes['tally.formatter'], 'junit');
  }
  const batches = named('tally.store.batch');
  t.ok(batches.length >= 2, `store batches: ${batches.length}`);
  t.ok(
    batches.some((b) => parentOf(b)?.name === 'tally.formatter'),
    'batches started while parsing sit under the formatter span',
  );
  t.equal(
    batches.reduce((n, b) => n + Number(b.attributes['tally.containers']), 0),
    r.json.report.totals.containers,
    'the batches carry every container',
  );
  t.ok(finished.length < 40, `a handful of spans per import, not one per test case (${finished.length})`);

  await reader.forceFlush();
  const exported =
    metricExporter
      .getMetrics()
      .at(-1)
      ?.scopeMetrics.flatMap((s) => s.metrics) ?? [];
  const metric = (name: string) => exported.find((x) => x.descriptor.name === name);
  const sum = (name: string) => metric(name)?.dataPoints.reduce((n, d) => n + Number(d.value), 0) ?? 0;
  t.equal(sum('tally.imports'), 1, 'tally.imports counts the import');
  t.same(metric('tally.imports')?.dataPoints[0]?.attributes, { status: 'completed', store: 'embedded' });
  t.ok(sum('tally.import.bytes') >= m.body.length, 'tally.import.bytes counts the request');
  t.equal(sum('tally.import.containers'), r.json.report.totals.containers, 'tally.import.containers');
  t.equal(
    (metric('tally.import.duration')?.dataPoints[0]?.value as { count: number } | undefined)?.count,
    1,
    'tally.import.duration has one sample',
  );

  const failed = await h.send({
    path: `/api/v2/profile/${h.profileId}/import/nosuch`,
    headers: { 'content-type': m.contentType },
    body: m.body,
  });
  t.equal(failed.status, 400);
  await reader.forceFlush();
  const after =
    metricExporter
      .getMetrics()
      .at(-1)
      ?.scopeMetrics.flatMap((s) => s.metrics) ?? [];
  const messages = after.find((x) => x.descriptor.name === 'tally.messages');
  t.ok(
    messages?.dataPoints.some((d) => d.attributes.code === 'invalid_formatter' && d.attributes.severity === 'error'),
    'tally.messages counts by code and severity',
  );

  const ofRequest = lines.filter((l) => l.request_id === requestId);
  t.ok(
    ofRequest.some((l) => l.event === 'import.completed'),
    "the import's log line carries the request id",
  );
  t.ok(
    lines.filter((l) => String(l.event).startsWith('import.')).every((l) => typeof l.request_id === 'string'),
    'every import log line carries a request id',
  );
});
