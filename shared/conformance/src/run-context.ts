// What one run of learnables-check knows and how it talks to the agent, shared by the sections
// of checks (check-agent.ts runs them; settle-and-undo.ts holds those of SPEC §2.6-§2.8, §3.5,
// §5.4-§5.6 and §6.5).
import type { CheckResult, Recorder } from './catalog.ts';
import type { RpcAnswer, Wire, WirePart, WireTask } from './wire.ts';
import { brief, echoedExtensions, taskOf, userMessage } from './wire.ts';

export interface CheckOptions {
  /** A file whose content should make the agent ask (media type from its extension). */
  readonly inputFile?: string;
  /** Or the bytes themselves, with a file name for the media type. */
  readonly input?: { readonly bytes: Uint8Array; readonly filename: string; readonly mediaType?: string };
  /** Or a text to send. */
  readonly text?: string;
  /** Bearer token for the agent (core methods, reread and teach). */
  readonly token?: string;
  /** A public key (JWK, JWK Set or PEM file) to verify the card's signatures with, instead of the key its `jku` names. */
  readonly cardKey?: string;
  /** A learnables authority to publish through when the agent declares no teach method, and to roll back with afterwards. */
  readonly authority?: { readonly url: string; readonly token?: string };
  /** Which entry to answer the question with; default the question's first entry. */
  readonly answer?: string;
  /** Leave what the run taught in place instead of rolling it back on the authority. */
  readonly keep?: boolean;
  /** Per request; default 30 s. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
  /** Called as each check is decided, for progress output. */
  readonly onCheck?: (result: CheckResult) => void;
}

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
export const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
export const INPUT_REQUIRED = 'TASK_STATE_INPUT_REQUIRED';
export const COMPLETED = 'TASK_STATE_COMPLETED';

export interface Interface {
  readonly url: string;
  readonly tenant: string;
}

export interface Input {
  readonly parts: WirePart[];
  readonly source: string;
  /** Taken from the card's examples rather than given: a non-asking answer is then a SKIP, not a FAIL. */
  readonly fromCard: boolean;
}

/** The JSON-RPC names of the extension's methods that the declaration offers (§1.8). */
export interface Methods {
  readonly reread?: string;
  readonly teach?: string;
  readonly retract?: string;
  readonly preview?: string;
  readonly correct?: string;
  readonly corrections?: string;
}

export interface TeachBlock {
  readonly collection: string;
  readonly entries: readonly { key: string; label: string }[];
  readonly entry?: string;
  readonly suggested?: Json;
  /** The suggestion in the learnable's words (SPEC §3.6), when the block gives them. */
  readonly says?: string;
  readonly version: number;
}

export interface Outcome {
  readonly changed: boolean;
  readonly version: number;
  readonly entry: string;
  readonly via: string;
}

/** Everything one run learns, shared by the sections. */
export interface Run {
  readonly wire: Wire;
  readonly r: Recorder;
  readonly notes: string[];
  readonly options: CheckOptions;
  /** A few random characters naming this run, in the labels of the entries it adds. */
  readonly tag: string;
  jsonrpc?: Interface;
  rest?: Interface;
  declaration?: Json;
  methods: Methods;
  examples: string[];
  candidates: Input[];
  needsInput?: string;
  input?: Input;
  /** The first answer to an activated SendMessage, and why no question came, if none did. */
  asked?: WireTask;
  notAsked?: string;
  block?: TeachBlock;
  answerEntry?: string;
  /** How the asked task read before the run changed anything (reread under the version it was asked at). */
  before?: Record<string, Json>;
  taught?: Outcome;
  /** The asked task once the kit's answer completed it (pinning), for the correction checks. */
  completed?: WireTask;
  /** What preview said about the suggestion (or a new entry) before it was taught, for preview.agrees. */
  previewed?: Previewed;
  /** The entries the run added (entries.add-idempotent, and a second one when retraction needs it). */
  added: AddedEntry[];
  /** The live version before the run's first write, where that is known: what clean-up restores. */
  restoreTo?: number;
  /** Every version the run published and has not taken back yet, oldest first, with what it was. */
  writes: Write[];
}

export interface Previewed {
  /** What was previewed: the suggestion as a lesson, or a new entry. */
  readonly kind: 'lesson' | 'entry';
  readonly what: string;
  /** The preview's examples about the asked task, by finding name. */
  readonly examples: ReadonlyMap<string, Json>;
  /** Some effect counted more tasks than it listed, so a task without an example may still be one. */
  readonly truncated: boolean;
}

export interface AddedEntry {
  readonly label: string;
  readonly key: string;
  readonly version: number;
}

export interface Write {
  readonly version: number;
  /** In words, for notes: "the suggestion for northgate", "the entry learnables-check-1a2b3c". */
  readonly what: string;
}

/** An error as a clause, with its cause (fetch says only "fetch failed"; the cause says why). */
export const errorText = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message !== error.message ? `${error.message}: ${cause.message}` : error.message;
};
export const withTenant = (params: Json, tenant: string | undefined): Json => (tenant ? { ...params, tenant } : params);
export const describeError = (answer: RpcAnswer): string =>
  answer.error ? `JSON-RPC error ${answer.error.code}: ${brief(answer.error.message)}` : `HTTP ${answer.status} ${brief(answer.text, 120)}`;
export const stateOf = (task: WireTask | undefined): string => task?.status?.state ?? 'no task';
export const shown = (headers: Headers): string => {
  const echoed = echoedExtensions(headers);
  return echoed.length === 0 ? 'no A2A-Extensions header' : `A2A-Extensions: ${echoed.join(', ')}`;
};

const STILL_WORKING = new Set(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']);

/**
 * SendMessage. A v1.0 send blocks until the task rests (input-required or terminal) unless the
 * agent returns early; then the task is polled with GetTask until it rests or the timeout passes.
 */
export async function send(run: Run, parts: WirePart[], activate: boolean, task?: WireTask): Promise<RpcAnswer> {
  const { url, tenant } = run.jsonrpc!;
  const answer = await run.wire.rpc(
    url,
    'SendMessage',
    withTenant({ message: userMessage(parts, task && { id: task.id, ...(task.contextId && { contextId: task.contextId }) }) }, tenant),
    { activate },
  );
  let sent = taskOf(answer.result);
  const until = Date.now() + (run.options.timeoutMs ?? 30_000);
  while (sent && STILL_WORKING.has(sent.status?.state ?? '') && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    sent = taskOf((await run.wire.rpc(url, 'GetTask', withTenant({ id: sent.id }, tenant), { activate })).result) ?? sent;
  }
  return sent && sent !== taskOf(answer.result) ? { ...answer, result: { task: sent } } : answer;
}

export interface TaskSnapshot {
  readonly state: string;
  readonly history: number;
  readonly timestamp: string | undefined;
}

export async function snapshot(run: Run, id: string): Promise<TaskSnapshot | undefined> {
  const got = await run.wire.rpc(run.jsonrpc!.url, 'GetTask', withTenant({ id }, run.jsonrpc!.tenant));
  const task = taskOf(got.result);
  return task ? { state: stateOf(task), history: task.history?.length ?? 0, timestamp: task.status?.timestamp } : undefined;
}

export async function countTasks(run: Run): Promise<number | string> {
  const listed = await run.wire.rpc(run.jsonrpc!.url, 'ListTasks', withTenant({ pageSize: 1 }, run.jsonrpc!.tenant));
  const total = isObject(listed.result) ? listed.result.totalSize : undefined;
  if (typeof total === 'number') return total;
  return typeof total === 'string' && /^\d+$/.test(total) ? Number(total) : describeError(listed);
}

/** Reread a task; the readings, or why there are none. */
export async function rereadTask(run: Run, taskId: string): Promise<{ readings?: Record<string, Json>; answer: RpcAnswer }> {
  const answer = await run.wire.rpc(run.jsonrpc!.url, run.methods.reread!, withTenant({ taskId }, run.jsonrpc!.tenant));
  return { answer, ...(isObject(answer.result) && { readings: answer.result as Record<string, Json> }) };
}

export const describeReadings = (readings: Record<string, Json>): string => {
  const all = Object.entries(readings).map(
    ([name, reading]) => `${name}: settled ${String(reading.settled)}, version ${String(reading.version)}, ${brief(reading.reads, 80)}`,
  );
  return all.length <= 3 ? all.join('; ') : `${all.slice(0, 3).join('; ')}; and ${all.length - 3} more`;
};

export const TAUGHT_BY = 'learnables-check';

/** A write's answer: the result, or the refusal (message and error code), and where it went. */
export interface Written {
  readonly result?: unknown;
  readonly refusal?: { readonly message: string; readonly error?: string };
  readonly via: string;
}

const AUTHORITY_PATHS = { teach: '/v1/lessons', entry: '/v1/entries', retract: '/v1/retractions' } as const;

/**
 * A write through the agent's own method when the declaration names one, else through the
 * authority (`POST /v1/lessons`, `/v1/entries`, `/v1/retractions`) when the run was given one;
 * undefined when there is neither. A lesson and a new entry both go to the teach method (§6.2).
 */
export async function write(run: Run, what: keyof typeof AUTHORITY_PATHS, body: Json): Promise<Written | undefined> {
  const method = what === 'retract' ? run.methods.retract : run.methods.teach;
  if (method) {
    const answer = await run.wire.rpc(run.jsonrpc!.url, method, body);
    if (answer.error) {
      const data = isObject(answer.error.data) ? answer.error.data : {};
      return { refusal: { message: answer.error.message, ...(typeof data.error === 'string' && { error: data.error }) }, via: method };
    }
    return { result: answer.result, via: method };
  }
  const authority = run.options.authority;
  if (!authority) return undefined;
  const url = `${authority.url.replace(/\/+$/, '')}${AUTHORITY_PATHS[what]}`;
  const answer = await run.wire.http(url, {
    method: 'POST',
    body,
    activate: false,
    auth: false,
    headers: authority.token ? { authorization: `Bearer ${authority.token}` } : {},
  });
  if (answer.status >= 400) {
    const refused = isObject(answer.body) ? answer.body : {};
    return {
      refusal: {
        message: typeof refused.message === 'string' ? refused.message : `HTTP ${answer.status}`,
        ...(typeof refused.error === 'string' && { error: refused.error }),
      },
      via: `POST ${url}`,
    };
  }
  return { result: answer.body, via: `POST ${url}` };
}

/**
 * The question's suggestion as a lesson for the entry it would extend (§2.9: the block's `entry`,
 * else the answer), or why there is none, as a clause.
 */
export function suggestedLesson(run: Run, reason: string): { lesson: Json; entry: string } | string {
  const block = run.block;
  if (!block?.suggested) return 'the teach block offers no suggested value (it is optional), so there is nothing to hold to §2.4';
  const entry = block.entry ?? run.answerEntry;
  if (!entry) return 'the teach block names no entry and lists no entries, so the kit cannot tell which entry a lesson would extend';
  return { lesson: { collection: block.collection, entry, value: block.suggested, taughtBy: TAUGHT_BY, reason }, entry };
}

/** A lesson or a new entry, as teach takes it (§6.2). */
export const teachLesson = (run: Run, lesson: Json): Promise<Written | undefined> => write(run, 'teach', lesson);

/**
 * The newest activation of a collection on the authority (its id), when the run was given one:
 * any activation made since changes it. Undefined without an authority or when it cannot be read.
 */
export async function newestActivation(run: Run, collection: string): Promise<number | undefined> {
  const authority = run.options.authority;
  if (!authority) return undefined;
  const url = `${authority.url.replace(/\/+$/, '')}/v1/collections/${encodeURIComponent(collection)}/history?limit=1`;
  const answer = await run.wire.http<{ activations?: { id?: unknown }[] }>(url, {
    activate: false,
    auth: false,
    headers: authority.token ? { authorization: `Bearer ${authority.token}` } : {},
  });
  const id = answer.body?.activations?.[0]?.id;
  return typeof id === 'number' ? id : undefined;
}

/** The live version of a collection on the authority, when the run was given one. */
export async function liveVersion(run: Run, collection: string): Promise<number | undefined> {
  const authority = run.options.authority;
  if (!authority) return undefined;
  const answer = await run.wire.http<{ version?: unknown }>(`${authority.url.replace(/\/+$/, '')}/v1/collections/${encodeURIComponent(collection)}/active`, {
    activate: false,
    auth: false,
  });
  return typeof answer.body?.version === 'number' ? answer.body.version : undefined;
}

/**
 * Before the run's first write: remember the live version to restore afterwards (the version the
 * task was asked at, else the authority's active one).
 */
export async function beforeWriting(run: Run, collection: string): Promise<void> {
  if (run.restoreTo !== undefined || run.writes.length > 0) return;
  run.restoreTo = run.block?.version ?? (await liveVersion(run, collection));
}

/** Note a published version, to restore or retract at clean-up. */
export function wrote(run: Run, version: number, what: string): void {
  run.writes.push({ version, what });
}
