// What the stack's registry and the authority need of this agent without loading it (mailparser,
// the message model, the matcher): the kind it learns. `@learnables/email-agent/kinds`.
export { customerMarksKind } from './customer-marks.ts';
