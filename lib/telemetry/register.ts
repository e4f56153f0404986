/**
 * Loaded with `node --import ./dist/lib/telemetry/register.js` (as `npm start` does): starts
 * telemetry before any instrumented module loads, when OTEL_EXPORTER_OTLP_ENDPOINT is set. ES
 * modules are only seen by the instrumentations through import-in-the-middle's loader hook.
 */
import { register } from 'node:module';
import { startTelemetry } from './start.js';

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  // `tally serve` flushes it (activeTelemetry().shutdown()) before it exits.
  startTelemetry(process.env);
}
