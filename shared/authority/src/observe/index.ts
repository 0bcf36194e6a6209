// What every service (authority, agents, console) shares to be operable: structured logs, a
// request id and an access line per request, Prometheus metrics on its own registry, and /readyz.
// Here because the authority package is the one all three services already build on.
export { createLogger, logLevelFrom, silentLogger } from './logger.ts';
export type { Logger, LoggerSettings } from './logger.ts';
export { ServiceMetrics } from './service-metrics.ts';
export { REQUEST_ID_HEADER, observeHttp, requestIdOf, requestLogger } from './http-observer.ts';
export type { HttpObserverOptions } from './http-observer.ts';
export { READINESS_TIMEOUT_MS, bounded, cached, readiness, readinessHandler } from './readiness.ts';
export type { CheckResult, ReadinessCheck } from './readiness.ts';
