// For tests: collects ended spans in memory (pass it to startTracing as `exporter`). A subpath of its
// own, so that importing the package's main face does not load the SDK.
export { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
