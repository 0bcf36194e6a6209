import type { ApiError } from './api-types.ts';

/** Something the console's server refuses or cannot do, with the status and sentence to answer. */
export class ConsoleError extends Error {
  override readonly name = 'ConsoleError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }

  toJSON(): ApiError {
    return { error: this.code, message: this.message, ...(this.field !== undefined && { field: this.field }) };
  }
}
