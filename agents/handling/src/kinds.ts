// What the stack's registry and the authority need of this agent without loading it (the wink
// classifier and its model): the kind it learns and its seeds. `@learnables/handling-agent/kinds`.
export { handlingExamplesKind } from './handling-examples.ts';
export { seedsFolder } from './seeds-folder.ts';
