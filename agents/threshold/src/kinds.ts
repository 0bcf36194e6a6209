// What the stack's registry and the authority need of this agent without loading it: the kind it
// learns and its seeds. `@learnables/threshold-agent/kinds`.
export { weightLimitKind } from './weight-limit.ts';
export { seedsFolder } from './seeds-folder.ts';
