// OpenTelemetry traces for the learnables services (docs/tracing.md names every span). Off unless
// OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: until startTracing
// registers a provider, @opentelemetry/api answers every call with its no-op tracer, so the spans
// below cost a function call and no allocation of note. When on, spans go to the OTLP/HTTP endpoint
// in batches, and W3C `traceparent` is read from every request and written on every request sent.
import type { IncomingHttpHeaders } from 'node:http';
import type { Attributes, Context, Span } from '@opentelemetry/api';
import { INVALID_SPAN_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace';

export { SpanKind };
export type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
export type { Attributes, Span };

const TRACER = 'learnables';

/** What startTracing started: flush and stop it on shutdown. */
export interface Tracing {
  readonly enabled: boolean;
  shutdown(): Promise<void>;
}

// The SDK (provider, exporter, propagator) is imported only when tracing starts: a service that
// does not trace loads @opentelemetry/api alone (about 15 MB and a tenth of a second less at start).
let running: { flush(): Promise<void>; shutdown(): Promise<void> } | undefined;
let starting: Promise<Tracing> | undefined;

/** Whether tracing is configured in this environment (the OTLP endpoint, and the SDK not disabled). */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.OTEL_SDK_DISABLED !== 'true' && Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

/**
 * Start tracing for this process as `service` (the resource's `service.name`, unless
 * OTEL_SERVICE_NAME says otherwise) when OTEL_EXPORTER_OTLP_ENDPOINT is set, or always with
 * `exporter` (tests: `InMemorySpanExporter` from `@learnables/tracing/testing`). Once per process: a
 * second call returns the first's.
 */
export function startTracing(service: string, options: { exporter?: SpanExporter; env?: NodeJS.ProcessEnv } = {}): Promise<Tracing> {
  const env = options.env ?? process.env;
  if (starting) return starting;
  if (!options.exporter && !tracingConfigured(env)) return Promise.resolve({ enabled: false, shutdown: async () => undefined });
  starting = import('./tracer-provider.ts').then(({ registerProvider }) => {
    const provider = registerProvider(env.OTEL_SERVICE_NAME || service, options.exporter);
    running = provider;
    return { enabled: true, shutdown: () => provider.shutdown() };
  });
  return starting;
}

/** Flush what has ended to the exporter (a test waits for it before reading the receiver). */
export async function flushTracing(): Promise<void> {
  await running?.flush();
}

const tracer = () => trace.getTracer(TRACER);
const NO_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * Run `work` in a span named `name`: the span ends when it settles, with the error recorded (as an
 * event and the status) when it throws. With tracing off this is `work()` and a no-op span.
 */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => T, kind: SpanKind = SpanKind.INTERNAL): T {
  // Off: not even the API's no-op span and context switch (about 0.9 µs a call, measured), one shared span that records nothing.
  if (!running) return work(NO_SPAN);
  return tracer().startActiveSpan(name, { kind, attributes }, (span) => {
    const failed = (error: unknown) => {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    };
    try {
      const result = work(span);
      if (result instanceof Promise) {
        return result.then(
          (value) => {
            span.end();
            return value;
          },
          (error: unknown) => {
            failed(error);
            span.end();
            throw error;
          },
        ) as T;
      }
      span.end();
      return result;
    } catch (error) {
      failed(error);
      span.end();
      throw error;
    }
  });
}

/** The active span, to add attributes to (a no-op span when there is none). */
export const activeSpan = (): Span | undefined => trace.getActiveSpan();

/** `headers` with the current trace context written in (`traceparent`, `tracestate`): for every request a service sends. */
export function withTraceHeaders<H extends Record<string, string>>(headers: H): H {
  if (!running) return headers;
  propagation.inject(context.active(), headers);
  return headers;
}

/** The current trace context as a carrier, to send across a boundary that is not HTTP (a worker thread's message). */
export function traceCarrier(): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (!running) return carrier;
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The context a carrier (HTTP headers, or traceCarrier's) names, for work done on its behalf. */
export function contextFrom(carrier: IncomingHttpHeaders | Record<string, string | undefined> | undefined): Context {
  return carrier ? propagation.extract(context.active(), carrier) : context.active();
}

/** Run `work` inside the context `carrier` names. */
export const withContext = <T>(carrier: Record<string, string | undefined> | undefined, work: () => T): T => context.with(contextFrom(carrier), work);

interface ServerRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}
interface ServerResponse {
  readonly statusCode: number;
  once(event: 'finish' | 'close', listener: () => void): unknown;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

/**
 * Express middleware: one SERVER span per request, a child of the caller's `traceparent` when it
 * sent one (a console, an agent, or any outside client), named `METHOD /path` until a layer that
 * knows more renames it (the A2A method: nameRequestSpan). The request and response are bound to
 * its context, so what body parsing calls back (from the socket's own async context) stays in it.
 */
export function traceRequests(service: string) {
  return (req: ServerRequest, res: ServerResponse, next: () => void): void => {
    if (!running) {
      next();
      return;
    }
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer().startSpan(
      `${req.method} ${req.path}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': req.path, 'learnables.service': service } },
      parent,
    );
    const active = trace.setSpan(parent, span);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    context.bind(active, req as never);
    context.bind(active, res as never);
    context.with(active, next);
  };
}

/** Rename the request's span for what it turned out to be (e.g. `A2A SendMessage`), with more attributes. */
export function nameRequestSpan(name: string, attributes: Attributes = {}): void {
  const span = trace.getActiveSpan();
  if (!span) return;
  span.updateName(name);
  span.setAttributes(attributes);
}
