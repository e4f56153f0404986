/**
 * Loaded with `node --import ./dist/lib/telemetry/register.js` (as `npm start` does): starts
 * telemetry before any instrumented module loads, when OTEL_EXPORTER_OTLP_ENDPOINT is set. ES
 * modules are only seen by the instrumentations through import-in-the-middle's loader hook.
 *
 * The SDK is imported only then: with telemetry off it would still cost ~12 MiB of heap. And only
 * on the main thread: `--import` runs in every parse worker too, and their spans are reported by
 * the import on the main thread (see recordSpan).
 *
 * The loader wraps only the modules an instrumentation asks for (the add-hook channel), not every
 * module: wrapping Tally's own modules is useless, and on Node 24, where the loader sees TypeScript
 * sources, it fails on them with a warning for each.
 */
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT && isMainThread) {
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const { startTelemetry } = await import('./start.js');
  // `tally serve` flushes it (activeTelemetry().shutdown()) before it exits.
  startTelemetry(process.env);
  await waitForAllMessagesAcknowledged();
}
