import { UnlearnableValue } from '@learnables/learnable';

/** The sentence a learnable refuses a value with; throws if it took the value or failed otherwise. */
export function refusalOf(attempt: () => unknown): string {
  try {
    attempt();
  } catch (error) {
    if (error instanceof UnlearnableValue) return error.message;
    throw new Error(`expected an UnlearnableValue, and got: ${String(error)}`, { cause: error });
  }
  throw new Error('expected a refusal, and the value was taken');
}
