// A parse module for input-reader.test.ts: what a thread reads, and that it was a thread.
import { isMainThread } from 'node:worker_threads';
import type { InputPart } from '@learnables/learnable';

export function countParts(parts: readonly InputPart[]): { parts: number; inThread: boolean } {
  return { parts: parts.length, inThread: !isMainThread };
}
