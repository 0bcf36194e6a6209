export { InputRefused } from './learnable-agent.ts';
export type { LearnableAgent, InputPart, PinnedDefinitions, Finding, Question, Reading, Answer } from './learnable-agent.ts';
export { startLearnableAgent } from './start-agent.ts';
export type { AgentServerOptions, RunningAgent } from './start-agent.ts';
export { agentCardFor, JSONRPC_PATH, REST_PATH } from './a2a/agent-card.ts';
export type { Pins } from './a2a/advance-task.ts';
export { Journal } from './storage/journal.ts';
export { TaskLedger } from './storage/task-ledger.ts';
export type { PeriodCount } from './storage/task-ledger.ts';
