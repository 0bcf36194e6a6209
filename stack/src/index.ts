export { learnableKinds } from './kinds.ts';
export { parseTokens, portFrom, repoRoot, LOCAL_DEV_TOKEN } from './config.ts';
