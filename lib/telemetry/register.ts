/**
 * Loaded with `node --import ./dist/lib/telemetry/register.js` (as `npm start` does): starts
 * telemetry before any instrumented module loads, when OTEL_EXPORTER_OTLP_ENDPOINT is set. ES
 * modules are only seen by the instrumentations through import-in-the-middle's loader hook.
 *
 * The SDK is imported only then: with telemetry off it would still cost ~12 MiB of heap. And only
 * on the main thread: `--import` runs in every parse worker too, and their spans are reported by
 * the import on the main thread (see recordSpan).
 */
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT && isMainThread) {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const { startTelemetry } = await import('./start.js');
  // `tally serve` flushes it (activeTelemetry().shutdown()) before it exits.
  startTelemetry(process.env);
}
