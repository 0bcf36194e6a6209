export { HandlingExamples, handlingExamplesKind, exampleLesson, samePhrase, COLLECTION, LONGEST_EXAMPLE } from './handling-examples.ts';
export type { ExampleLesson, HandlingExamplesState } from './handling-examples.ts';
export { ASK_BELOW, ASK_WITHIN, classify, decide, modelOf, prepareModel, sureEnough, tokensOf } from './handling-model.ts';
export type { Candidate, Decision, HandlingModel } from './handling-model.ts';
export { parseConsignment, MOST_ROWS } from './parse-consignment.ts';
export type { Consignment, GoodsLine } from './parse-consignment.ts';
export { handlingAgent, HOW, QUESTION } from './handling-agent.ts';
export type { HandlingResult, LineHandling } from './handling-agent.ts';
export { seedsFolder } from './seeds-folder.ts';
