export { startFakeAgent, describeFakeAgent, suggestFor, UNKNOWN_FIELD } from './fake-agent.ts';
export type { FakeAgentOptions, RunningFakeAgent } from './fake-agent.ts';
export { evaluateChecklist, formatChecklist, canonical } from './checklist.ts';
export type { Checklist, ChecklistItem, ClientCall, ItemStatus } from './checklist.ts';
export { main, USAGE } from './cli.ts';
