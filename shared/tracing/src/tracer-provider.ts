// The SDK half of startTracing, imported only when a process traces (index.ts says why).
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { BatchSpanProcessor, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** Registers this process's tracer provider, context manager and W3C propagator with the API. */
export function registerProvider(serviceName: string, testExporter: SpanExporter | undefined): { flush(): Promise<void>; shutdown(): Promise<void> } {
  // The exporter reads OTEL_EXPORTER_OTLP_* itself (endpoint, headers, timeout), as every OTel SDK does.
  const exporter = testExporter ?? new OTLPTraceExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    // A test's exporter gets each span as it ends; the OTLP one gets them in batches, off the request path.
    spanProcessors: [testExporter ? new SimpleSpanProcessor({ exporter }) : new BatchSpanProcessor({ exporter })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      await provider.forceFlush();
      await provider.shutdown();
    },
  };
}
