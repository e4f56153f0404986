/**
 * Import metrics: imports by outcome, bytes received, containers stored, import durations, and
 * messages by code and severity. The API's no-op meter is used until an SDK is registered, so
 * recording costs next to nothing with telemetry off; it happens once per import.
 */
import { metrics } from '@opentelemetry/api';
import type { Message } from '../store/types.js';

let instruments: ReturnType<typeof create> | null = null;

function create() {
  const meter = metrics.getMeter('tally');
  return {
    imports: meter.createCounter('tally.imports', { description: 'Imports answered, by status and store' }),
    bytes: meter.createCounter('tally.import.bytes', { description: 'Request bytes received by imports', unit: 'By' }),
    containers: meter.createCounter('tally.import.containers', {
      description: 'Containers stored by completed imports',
    }),
    duration: meter.createHistogram('tally.import.duration', { description: 'Time from request to answer', unit: 's' }),
    messages: meter.createCounter('tally.messages', { description: 'Messages answered, by code and severity' }),
  };
}

/** Instruments are made on first use, after a test or start-up may have registered a meter provider. */
export function resetInstruments(): void {
  instruments = null;
}

export function recordImport(o: {
  status: string;
  store: string;
  bytes: number;
  containers: number;
  seconds: number;
  messages: readonly Message[];
}): void {
  const i = (instruments ??= create());
  const attrs = { status: o.status, store: o.store };
  i.imports.add(1, attrs);
  i.bytes.add(o.bytes, attrs);
  i.containers.add(o.containers, attrs);
  i.duration.record(o.seconds, attrs);
  for (const m of o.messages) i.messages.add(1, { code: m.code ?? 'unused_parameters', severity: m.severity });
}
