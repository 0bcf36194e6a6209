import { EntryExists, LessonRefused, NotRetractable, UnknownCollection, UnknownEntry, UnlearnableValue } from '@learnables/learnable';
import type { Refusal } from '@learnables/protocol';
import { BadRequest, NothingActive, UnknownVersion } from '../errors.ts';

/** A refusal and its HTTP status, as SPEC.md §3.4 sets them. */
export interface HttpRefusal {
  readonly status: number;
  readonly body: Refusal;
}

/**
 * Turn what went wrong into the wire's refusal. The learnable's words pass through untouched:
 * only the learnable knows why a value cannot be used.
 */
export function refusalFor(error: unknown): HttpRefusal {
  if (error instanceof UnlearnableValue) {
    return { status: 422, body: { error: 'unlearnable', message: error.message, ...(error.field && { field: error.field }) } };
  }
  if (error instanceof UnknownCollection) {
    return { status: 404, body: { error: 'unknown-collection', message: error.message, known: [...error.known] } };
  }
  if (error instanceof UnknownEntry) {
    return { status: 404, body: { error: 'unknown-entry', message: error.message, known: [...error.known] } };
  }
  if (error instanceof UnknownVersion || error instanceof NothingActive) {
    return { status: 404, body: { error: 'unknown-version', message: error.message } };
  }
  if (error instanceof EntryExists) {
    return { status: 409, body: { error: 'entry-exists', message: error.message, known: [error.entry] } };
  }
  if (error instanceof NotRetractable) return { status: 409, body: { error: 'not-retractable', message: error.message } };
  if (error instanceof BadRequest) return { status: 400, body: { error: 'malformed', message: error.message } };
  if (error instanceof LessonRefused) return { status: 400, body: { error: 'malformed', message: error.message } };
  return { status: 500, body: { error: 'internal', message: 'The authority failed to handle this request; nothing was written. See its log.' } };
}
