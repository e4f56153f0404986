/**
 * OpenTelemetry for a Tally process: the Node SDK with the http, hapi and mongodb instrumentations,
 * started only when OTEL_EXPORTER_OTLP_ENDPOINT is set (exporters, service name and the rest come
 * from the standard OTEL_* variables). It must start before hapi, http and mongodb are loaded, so
 * `npm start` loads `register.js` with `--import`.
 */
import { NodeSDK, type NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { HapiInstrumentation } from '@opentelemetry/instrumentation-hapi';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { resetInstruments } from './metrics.js';
import { setActiveTelemetry, type Telemetry } from './spans.js';

/** `overrides` lets a test export to memory; production passes none and the environment decides. */
export function startTelemetry(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<NodeSDKConfiguration> = {},
): Telemetry | null {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && Object.keys(overrides).length === 0) return null;
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || 'tally',
    instrumentations: [new HttpInstrumentation(), new HapiInstrumentation(), new MongoDBInstrumentation()],
    ...overrides,
  });
  sdk.start();
  resetInstruments();
  const telemetry: Telemetry = {
    async shutdown() {
      setActiveTelemetry(null);
      await sdk.shutdown();
    },
  };
  setActiveTelemetry(telemetry);
  return telemetry;
}
