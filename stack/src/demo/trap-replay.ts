// The trap scenario's replay settings, in one place for `pnpm demo --trap`, `pnpm demo:compare`,
// the benchmark and the test: fixtures/trap-scenario, replayed by the trusting operator (a busy
// clerk who teaches every suggestion as offered, heeding only the preview's warnings; see
// run-scenario.ts, Operator).
import type { CompareOptions } from './compare-scenario.ts';
import { TRAP_SCENARIO_DIR } from './stream.ts';

export const TRAP_NAME = 'The trap scenario (a trusting operator)';

export const trapReplay = (scenarioDir: string = TRAP_SCENARIO_DIR): Pick<CompareOptions, 'scenarioDir' | 'operator' | 'name'> => ({
  scenarioDir,
  operator: 'trusting',
  name: TRAP_NAME,
});

export const MIXED_NAME = 'The mixed stream of issue 35 (a trusting operator)';

/**
 * The mixed stream (make-mixed-stream.ts, generated into `dir`), replayed by the same trusting
 * operator; its nobody's mail is answered "none of these", and its customers the seed lacks are added.
 */
export const mixedReplay = (scenarioDir: string): Pick<CompareOptions, 'scenarioDir' | 'operator' | 'name'> => ({
  scenarioDir,
  operator: 'trusting',
  name: MIXED_NAME,
});
