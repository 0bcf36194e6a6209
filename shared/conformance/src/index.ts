export { checkAgent } from './check-agent.ts';
export type { CheckOptions, Report } from './check-agent.ts';
export { CHECKS, CHECK_IDS, SECTIONS } from './catalog.ts';
export type { CheckId, CheckResult, Section, Status } from './catalog.ts';
export { formatReport, formatCheck } from './report.ts';
export { isSentence, REFUSAL_CODES } from './refusal-checks.ts';
export { validate } from './validate.ts';
export type { SchemaName, Verdict } from './validate.ts';
export { main, USAGE } from './cli.ts';
