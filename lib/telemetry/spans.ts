/**
 * Spans for the import graph: import → file → formatter → store batch. A few per file and per
 * batch of containers, never per test case or parser event. When telemetry is off (no
 * OTEL_EXPORTER_OTLP_ENDPOINT) `inSpan` only calls its function: no span object, no context switch.
 */
import { context, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

let enabled = false;

export interface Telemetry {
  shutdown(): Promise<void>;
}

let active: Telemetry | null = null;

/** Called by startTelemetry once an SDK is registered (and with null when it shuts down). */
export function setActiveTelemetry(t: Telemetry | null): void {
  active = t;
  enabled = t !== null;
}

/** The telemetry this process started, for `tally serve` to flush before it exits. Kept here, not in
 * start.ts, so the command does not load the SDK when telemetry is off. */
export function activeTelemetry(): Telemetry | null {
  return active;
}

export function telemetryEnabled(): boolean {
  return enabled;
}

const tracer = () => trace.getTracer('tally');

/** Runs `fn` in a child span of the active one (when telemetry is on); the span ends when `fn` settles. */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span | null) => Promise<T>): Promise<T> {
  if (!enabled) return fn(null);
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (e) {
      span.recordException(e instanceof Error ? e : String(e));
      span.setStatus({ code: SpanStatusCode.ERROR, message: e instanceof Error ? e.message : String(e) });
      throw e;
    } finally {
      span.end();
    }
  });
}

/**
 * Binds `fn` to the active context: callbacks fired by stream events (a multipart part) run in
 * the context of whoever emitted the event, not of the import that listens.
 */
export function bindToActive<F extends (...args: never[]) => unknown>(fn: F): F {
  return enabled ? context.bind(context.active(), fn) : fn;
}

/**
 * A span for work done elsewhere and reported when it ended: a parse worker writes its rows itself
 * and only tells the import how many, so the span runs from the previous report to this one.
 */
export function recordSpan(name: string, attributes: Attributes, startTime: number): void {
  if (!enabled) return;
  tracer().startSpan(name, { attributes, startTime }).end();
}
