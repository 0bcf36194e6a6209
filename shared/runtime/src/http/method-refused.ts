import type { Refusal } from '@learnables/protocol';

/** A refusal with its HTTP status; JSON-RPC carries the same body as the error's `data`. */
export class MethodRefused extends Error {
  constructor(
    readonly status: number,
    readonly refusal: Refusal,
  ) {
    super(refusal.message);
  }
}
