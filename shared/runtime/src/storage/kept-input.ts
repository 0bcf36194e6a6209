import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { ListTasksRequest, ListTasksResponse, Message, Part, Task } from '@a2a-js/sdk';
import { Role } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { LedgerEntry } from './task-ledger.ts';
import type { RuntimeTaskStore } from './ledger-task-store.ts';

/**
 * How much of its input a task keeps. The message a client sent is stored with its task (the A2A
 * task store's history) and what `parse` made of it in the journal; unbounded, one 37 MB email was a
 * 49 MB row written four times per message (an agent's database grew 430 MB in 8 messages).
 */
export interface KeptInput {
  /** Bytes of a message's parts kept with its task; past it, the largest parts are kept as a digest. */
  readonly message: number;
  /** Characters of JSON journaled for what `parse` read; past it, the message is refused. */
  readonly input: number;
}

export const DEFAULT_KEPT_INPUT: KeptInput = { message: 4_000_000, input: 16_000_000 };

/** The part metadata key of a part that was not kept: `{ bytes, sha256, mediaType }`. */
export const NOT_KEPT = 'learnables-runtime/not-kept';

/** A part replaced by its digest costs about this much to keep; smaller parts are kept as they are. */
const DIGEST_SIZE = 512;

/** A size as people read it: `37.2 MB`, `64 kB`. */
export const megabytes = (bytes: number): string =>
  bytes >= 1_000_000
    ? `${(bytes / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`
    : `${Math.ceil(bytes / 1000).toLocaleString('en-US')} kB`;

const TOO_LONG = Symbol('too long');

/**
 * A value's JSON, or undefined when it is longer than `limit` characters. It stops as soon as the
 * text seen so far passes the limit, so a value built to be huge (a million cells naming one long
 * string) is never written out whole.
 */
export function boundedJson(value: unknown, limit: number): string | undefined {
  let left = limit;
  try {
    const json = JSON.stringify(value ?? null, function (this: unknown, key: string, item: unknown) {
      // What this item adds at least: its key (not an array's index) and its text, or one character.
      left -= (Array.isArray(this) ? 0 : key.length) + (typeof item === 'string' ? item.length : 1);
      if (left < 0) throw TOO_LONG;
      return item;
    });
    return json.length > limit ? undefined : json;
  } catch (error) {
    if (error === TOO_LONG) return undefined;
    throw error;
  }
}

/** Bytes a part would take to keep, counted no further than `limit` for data. */
function sizeOf(part: Part, limit: number): number {
  const content = part.content;
  if (content === undefined) return 0;
  if (content.$case === 'raw') return content.value.byteLength;
  if (content.$case === 'text') return Buffer.byteLength(content.value);
  if (content.$case === 'data') return boundedJson(content.value, limit)?.length ?? limit + 1;
  return 0;
}

function digestOf(part: Part): { bytes: number; sha256: string } {
  const content = part.content;
  const bytes =
    content?.$case === 'raw'
      ? Buffer.from(content.value.buffer, content.value.byteOffset, content.value.byteLength)
      : Buffer.from(content?.$case === 'text' ? content.value : (JSON.stringify(content?.value ?? null) ?? ''));
  return { bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** What stands in for a part too large to keep: a sentence, and the part's size and SHA-256. */
function standIn(part: Part, limit: number): Part {
  const { bytes, sha256 } = digestOf(part);
  const what = [part.filename, part.mediaType].filter((word) => word !== '').join(', ') || 'a part';
  return {
    content: {
      $case: 'text',
      value: `${what} (${megabytes(bytes)}) was read when it arrived and is not kept: this agent keeps ${megabytes(limit)} of a message. SHA-256 ${sha256}.`,
    },
    mediaType: 'text/plain',
    filename: part.filename,
    metadata: { [NOT_KEPT]: { bytes, sha256, mediaType: part.mediaType } },
  };
}

/**
 * A message as its task keeps it: whole when its parts take no more than `limit` bytes; otherwise
 * with its largest parts, each replaced by a stand-in that gives its name, size and SHA-256, until
 * it fits; and if a multitude of small parts still does not fit, one stand-in for them all.
 */
export function keptMessage(message: Message, limit: number): Message {
  const sizes = message.parts.map((part) => sizeOf(part, limit));
  let total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= limit) return message;
  const parts = [...message.parts];
  for (const at of sizes.map((_, index) => index).sort((a, b) => sizes[b]! - sizes[a]!)) {
    if (total <= limit || sizes[at]! <= DIGEST_SIZE) break;
    parts[at] = standIn(message.parts[at]!, limit);
    total -= sizes[at]! - DIGEST_SIZE;
  }
  if (total > limit) {
    const everything: Part = {
      content: {
        $case: 'text',
        value: `${message.parts.length.toLocaleString('en-US')} parts were read when they arrived and are not kept: this agent keeps ${megabytes(limit)} of a message.`,
      },
      mediaType: 'text/plain',
      filename: '',
      metadata: { [NOT_KEPT]: { bytes: sizes.reduce((sum, size) => sum + size, 0), parts: message.parts.length } },
    };
    return { ...message, parts: [everything] };
  }
  return { ...message, parts };
}

/** A task whose clients' messages are kept as `keptMessage` keeps them. */
export function keptTask(task: Task, limit: number): Task {
  let changed = false;
  const history = task.history.map((message) => {
    if (message.role !== Role.ROLE_USER) return message;
    const kept = keptMessage(message, limit);
    if (kept !== message) changed = true;
    return kept;
  });
  return changed ? { ...task, history } : task;
}

/** Whether a message lost a part to a stand-in, so it can no longer be read. */
export const lostParts = (parts: readonly Part[]): boolean => parts.some((part) => part.metadata?.[NOT_KEPT] !== undefined);

/**
 * The SDK's task store, keeping each task's messages bounded (`keptMessage`). Every write goes
 * through it: the task the executor publishes, a follow-up the SDK appends, a failure it records.
 */
export class KeepingTaskStore implements RuntimeTaskStore {
  constructor(
    private readonly inner: RuntimeTaskStore,
    private readonly limit: number,
  ) {}

  open(
    task: Task,
    context: ServerCallContext,
    entry: Omit<LedgerEntry, 'tenant' | 'owner'> & { messageAt: number },
    options?: { seenOnlyAtRest?: boolean },
  ): Promise<void> {
    return this.inner.open(keptTask(task, this.limit), context, entry, options);
  }

  save(task: Task, context: ServerCallContext): Promise<void> {
    return this.inner.save(keptTask(task, this.limit), context);
  }

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.inner.load(taskId, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.inner.list(params, context);
  }
}
