import type { Request, Response } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Request durations in seconds: a quick read (a few ms) up to a large file read for a minute. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * One service's Prometheus registry: its own, never prom-client's global one, so several services
 * in one process (the tests, an embedder) each count their own. Holds Node's default process and
 * event-loop metrics and every HTTP request's duration; a service adds its own counters with
 * `counter` / `histogram`. docs/operations.md lists every series.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;

  /**
   * `labels`: the labels on every series; default `{ service }` (`authority`, `console`). An agent's
   * are `{ agent: <its skill id> }`, as its series always had.
   */
  constructor(
    readonly service: string,
    labels: Readonly<Record<string, string>> = { service },
  ) {
    this.registry.setDefaultLabels({ ...labels });
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests answered, by method, route (the path template, never the raw path) and status, and how long each took.',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers: [this.registry],
    });
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  histogram<L extends string>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  /** GET /metrics: the Prometheus text format. Open, as /healthz is: it holds counts, never content. */
  handler() {
    return async (_req: Request, res: Response): Promise<void> => {
      res.type(this.registry.contentType).send(await this.registry.metrics());
    };
  }
}
