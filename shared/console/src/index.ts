export { createConsole } from './create-console.ts';
export type { ConsoleOptions, RunningConsole } from './create-console.ts';
export type * from './api-types.ts';
export { mediaTypeOf, acceptedMediaTypes, agentsAccepting } from './media/media-types.ts';
export type { ReplayAction, ReplayState } from './http/replay-job.ts';
