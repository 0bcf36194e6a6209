export { Authority } from './authority.ts';
export type { AuthorityOptions, VersionedDefinition, RollbackRequest, RollbackOutcome, RollbackPreview } from './authority.ts';
export { UnknownVersion, BadRequest, NothingActive } from './errors.ts';
export { openStore } from './store/open-store.ts';
export { reusingStatements } from './store/reusing-statements.ts';
export { privateSqliteFile } from './store/private-file.ts';
export { lz4Option } from './store/postgres-compression.ts';
export { SqlStore } from './store/sql-store.ts';
export type { Activation, ActivationKind, DefinitionStore, StoredEntry, VersionRecord } from './store/definition-store.ts';
export { authorityService } from './http/authority-service.ts';
export type { AuthorityServiceOptions } from './http/authority-service.ts';
export { DEFAULT_CHANGE_STREAMS } from './http/change-streams.ts';
export type { ChangeStreamLimits } from './http/change-streams.ts';
export { BearerTokens, bearerChallenge, bearerTokenOf } from './http/bearer-tokens.ts';
export { allowedHosts, hostNameOf, requireAllowedHost } from './http/allowed-hosts.ts';
export type { TokenNames } from './http/bearer-tokens.ts';
export { refusalFor } from './http/refusals.ts';
export { AuthorityClient, AuthorityRefused, AuthorityUnavailable, COMMIT_WAIT_HEADER, ON_BEHALF_OF_HEADER } from './client/authority-client.ts';
export { DEFAULT_COMMIT_WAIT_MS, MAX_COMMIT_WAIT_MS } from './commit-wait.ts';
export type { AuthorityClientOptions, WatchOptions, StoredDefinitionEntry } from './client/authority-client.ts';
export { loadSeeds } from './seeds.ts';
export {
  READINESS_TIMEOUT_MS,
  REQUEST_ID_HEADER,
  ServiceMetrics,
  bounded,
  cached,
  createLogger,
  logLevelFrom,
  observeHttp,
  readiness,
  readinessHandler,
  requestIdOf,
  requestLogger,
  silentLogger,
} from './observe/index.ts';
export type { CheckResult, HttpObserverOptions, Logger, LoggerSettings, ReadinessCheck } from './observe/index.ts';
