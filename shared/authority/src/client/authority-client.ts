import { withTraceHeaders } from '@learnables/tracing';
import http from 'node:http';
import https from 'node:https';
import type { LearnableKind } from '@learnables/learnable';
import { deepFreeze, defineCollection } from '@learnables/learnable';
import type { Lesson, LessonOutcome, NewEntry, Refusal, Retraction, RetractionOutcome } from '@learnables/protocol';
import { RefusalSchema } from '@learnables/protocol';
import type { RollbackOutcome, RollbackPreview, VersionedDefinition, RollbackRequest } from '../authority.ts';
import type { Activation } from '../store/definition-store.ts';
import type { MonotonicClock } from '../commit-wait.ts';
import { MAX_COMMIT_WAIT_MS, monotonicNow } from '../commit-wait.ts';
import { DefinitionCache } from './definition-cache.ts';
import { FreshRead } from './fresh-read.ts';

/**
 * The header a relaying client (an agent's teach method) names the user it relays for in,
 * percent-encoded: the authority records `<user> via <the token's name>` as the client.
 */
export const ON_BEHALF_OF_HEADER = 'learnables-on-behalf-of';

/**
 * The header every answer of `GET /v1/collections/:c/active` carries: the authority's commit
 * wait in whole milliseconds (e.g. `learnables-commit-wait: 25`). It acknowledges and announces
 * an activation no sooner than that after committing it, so the answer of a request may be
 * reused for that long after the request was sent (SPEC §4.4).
 */
export const COMMIT_WAIT_HEADER = 'learnables-commit-wait';

/**
 * The commit wait an answer advertises: absent or unreadable is 0 (an authority from before
 * commit wait: only a request sent after a call answers it), and no more than MAX_COMMIT_WAIT_MS
 * is believed (a shorter window than the authority's is always safe).
 */
export function advertisedCommitWait(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,9}$/.test(raw.trim())) return 0;
  return Math.min(Number(raw.trim()), MAX_COMMIT_WAIT_MS);
}

/** The authority said no. `refusal.message` is a sentence to show as it is. */
export class AuthorityRefused extends Error {
  override readonly name = 'AuthorityRefused';
  constructor(
    readonly status: number,
    readonly refusal: Refusal,
  ) {
    super(refusal.message);
  }
}

/** The authority could not be reached or answered with something that is not a refusal. */
export class AuthorityUnavailable extends Error {
  override readonly name = 'AuthorityUnavailable';
}

export interface StoredDefinitionEntry {
  readonly key: string;
  readonly label: string;
  readonly state: unknown;
}

export interface AuthorityClientOptions {
  /** Base URL of the authority service, e.g. http://127.0.0.1:4100 */
  url: string;
  /** Bearer token for writes (lessons, rollback). */
  token?: string;
  /** Needed only to rebuild definitions as learnables (agents); the console reads raw entries. */
  kinds?: readonly LearnableKind[];
  /** How long one request may take before it is abandoned. Default 10 s. */
  timeoutMs?: number;
  /**
   * How many bytes of fetched versions' entries to keep, least recently used out (default 64 MiB,
   * about eight versions of 50,000 marks). A version put out is fetched again when asked for.
   */
  cacheBytes?: number;
  /** The monotonic clock `active` times its requests and calls on (tests simulate one). */
  clock?: MonotonicClock;
}

export interface WatchOptions {
  collection?: string;
  /** Every activation committed after subscribing. */
  onActivation: (activation: Activation) => void;
  /** The active activation of each collection, sent on every (re)connection. */
  onActive?: (actives: Activation[]) => void;
  /** A connection failed; the watcher reconnects by itself until the signal aborts. */
  onDisconnect?: (error: unknown) => void;
  signal: AbortSignal;
  /** Wait before reconnecting. Default 500 ms. */
  retryMs?: number;
}

/** The typed client of the authority service, for agents and the console. */
export class AuthorityClient {
  private readonly base: string;
  private readonly kinds: Map<string, LearnableKind>;
  private readonly definitions: DefinitionCache;
  /** The newest version fetched of each collection, and its weight: what the next one is asked for as changes to. */
  private readonly latest = new Map<string, { readonly definition: VersionedDefinition; readonly bytes: number; readonly positions: Map<string, number> }>();
  /** Kept-alive connections for reads; idle ones do not keep the process alive. */
  private readonly agent: http.Agent;
  /** One shared read of the active version per collection (see `active`). */
  private readonly actives = new Map<string, FreshRead<{ readonly activation: Activation; readonly commitWaitMs: number }>>();

  constructor(private readonly options: AuthorityClientOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.kinds = new Map((options.kinds ?? []).map((kind) => [kind.collection, kind]));
    this.definitions = new DefinitionCache(options.cacheBytes);
    this.agent = new (this.base.startsWith('https:') ? https.Agent : http.Agent)({ keepAlive: true });
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    return (await this.callWeighed<T>(method, path, body, headers)).answer;
  }

  /** A call, how many bytes its answer had (what a cached version weighs), and its headers. */
  private async callWeighed<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ answer: T; bytes: number; header: (name: string) => string | undefined }> {
    let status: number;
    let text: string;
    let header: (name: string) => string | undefined;
    if (method === 'GET') ({ status, text, header } = await this.get(path));
    else {
      // Serialised before the request, so a value that cannot be is not reported as an unreachable authority.
      const payload = body === undefined ? undefined : JSON.stringify(body);
      let response: Response;
      try {
        response = await fetch(`${this.base}${path}`, {
          method,
          // The caller's trace goes on to the authority (W3C traceparent; nothing when tracing is off).
          headers: withTraceHeaders({
            accept: 'application/json',
            ...(body !== undefined && { 'content-type': 'application/json' }),
            ...(this.options.token && { authorization: `Bearer ${this.options.token}` }),
            ...headers,
          }),
          ...(payload !== undefined && { body: payload }),
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        });
      } catch (error) {
        throw this.unreachable(error);
      }
      status = response.status;
      text = await response.text();
      const answered = response.headers;
      header = (name) => answered.get(name) ?? undefined;
    }
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new AuthorityUnavailable(`The authority at ${this.base} answered ${status} with something that is not JSON.`);
    }
    if (status >= 200 && status < 300) return { answer: parsed as T, bytes: text.length, header };
    const refusal = RefusalSchema.safeParse(parsed);
    if (refusal.success) throw new AuthorityRefused(status, refusal.data);
    throw new AuthorityUnavailable(`The authority at ${this.base} answered ${status} without saying why.`);
  }

  private unreachable(error: unknown): AuthorityUnavailable {
    return new AuthorityUnavailable(`The authority at ${this.base} cannot be reached: ${(error as Error).message}`, { cause: error });
  }

  /**
   * A read, over node:http on a kept-alive connection: every task asks for the active version, and
   * fetch (undici) cost about three times as much CPU per request as this (BENCHMARKS.md, runtime
   * overhead). A read that meets a kept-alive connection the authority has just closed is sent once
   * more on a new one, as Node's documentation advises; writes stay on fetch and are never resent.
   */
  private async get(path: string, retried = false): Promise<{ status: number; text: string; header: (name: string) => string | undefined }> {
    const url = `${this.base}${path}`;
    let reused = false;
    try {
      return await new Promise((resolve, reject) => {
        const request = (url.startsWith('https:') ? https : http).get(
          url,
          { agent: this.agent, headers: withTraceHeaders({ accept: 'application/json' }) },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('error', reject);
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                text: Buffer.concat(chunks).toString('utf8'),
                header: (name) => {
                  const value = response.headers[name.toLowerCase()];
                  return Array.isArray(value) ? value.join(', ') : value;
                },
              }),
            );
          },
        );
        // One deadline for the whole read, cleared when the request closes (answered, failed or
        // destroyed). AbortSignal.timeout, used before, fired its timer the full timeout after every
        // read, answered or not: a DOMException and an abort event each time, about 40 a second for
        // an agent asking for the active version once per commit wait.
        const limit = this.options.timeoutMs ?? 10_000;
        const deadline = setTimeout(() => request.destroy(new Error(`it did not answer within ${limit} ms`)), limit);
        deadline.unref();
        request.on('close', () => clearTimeout(deadline));
        request.on('socket', () => (reused = request.reusedSocket));
        request.on('error', reject);
      });
    } catch (error) {
      if (reused && !retried && (error as NodeJS.ErrnoException).code === 'ECONNRESET') return this.get(path, true);
      throw this.unreachable(error);
    }
  }

  health(): Promise<{ ok: boolean; engine: string; collections: string[] }> {
    return this.call('GET', '/healthz');
  }

  collections(): Promise<{ collections: { collection: string; activeVersion: number | null }[] }> {
    return this.call('GET', '/v1/collections');
  }

  /** Post a lesson. Resolves with the outcome; a refusal throws AuthorityRefused with its words. */
  postLesson(lesson: Lesson, options: { onBehalfOf?: string } = {}): Promise<LessonOutcome> {
    // A relaying agent names the user it relays for; the authority records "<user> via <token's name>".
    const headers: Record<string, string> = {};
    if (options.onBehalfOf !== undefined) headers[ON_BEHALF_OF_HEADER] = encodeURIComponent(options.onBehalfOf);
    return this.call('POST', '/v1/lessons', lesson, headers);
  }

  /** Add an empty entry (idempotent). Resolves with the outcome; its `entry` is the key. */
  addEntry(request: NewEntry, options: { onBehalfOf?: string } = {}): Promise<LessonOutcome> {
    return this.call('POST', '/v1/entries', request, onBehalf(options));
  }

  /** Take back the lesson (or added entry) that published a version. */
  retract(request: Retraction, options: { onBehalfOf?: string } = {}): Promise<RetractionOutcome> {
    return this.call('POST', '/v1/retractions', request, onBehalf(options));
  }

  /** Roll back; the answer lists the activations taken out of effect (`undoes`); `changed: false` when the version was already active. */
  rollback(collection: string, request: RollbackRequest): Promise<RollbackOutcome> {
    return this.call('POST', `/v1/collections/${encodeURIComponent(collection)}/rollback`, request);
  }

  /** What a rollback to a version would take out of effect, without doing it. */
  rollbackPreview(collection: string, version: number): Promise<RollbackPreview> {
    return this.call('GET', `/v1/collections/${encodeURIComponent(collection)}/rollback-preview?version=${version}`);
  }

  /**
   * The collection's active activation: the answer of a request sent after this call, or of one
   * sent less than the authority's advertised commit wait before it (`COMMIT_WAIT_HEADER`; why
   * that is exact: `FreshRead`). Calls share requests, so a busy agent asks about once per
   * commit wait, or per round trip with an authority that advertises none, rather than once per task.
   */
  async active(collection: string): Promise<Activation> {
    let read = this.actives.get(collection);
    if (read === undefined) {
      const path = `/v1/collections/${encodeURIComponent(collection)}/active`;
      read = new FreshRead(
        async () => {
          const { answer, header } = await this.callWeighed<Activation>('GET', path);
          return { activation: answer, commitWaitMs: advertisedCommitWait(header(COMMIT_WAIT_HEADER)) };
        },
        { windowOf: (answer) => answer.commitWaitMs, now: this.options.clock ?? monotonicNow },
      );
      this.actives.set(collection, read);
    }
    return (await read.get()).activation;
  }

  activeAt(collection: string, time: Date | number): Promise<Activation> {
    const at = typeof time === 'number' ? time : time.getTime();
    return this.call('GET', `/v1/collections/${encodeURIComponent(collection)}/active-at?time=${at}`);
  }

  history(collection: string, options: { limit?: number; before?: number } = {}): Promise<{ activations: Activation[] }> {
    const query = new URLSearchParams();
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    if (options.before !== undefined) query.set('before', String(options.before));
    return this.call('GET', `/v1/collections/${encodeURIComponent(collection)}/history?${query}`);
  }

  /** A version's entries as stored, without rebuilding learnables. */
  entries(collection: string, version: number): Promise<{ collection: string; version: number; entries: StoredDefinitionEntry[] }> {
    return this.call('GET', `/v1/collections/${encodeURIComponent(collection)}/versions/${version}`);
  }

  /**
   * A version as learnables. Versions never change, so each is fetched once per client while it
   * stays in the client's cache (`cacheBytes`; put out, it is fetched again when asked). When a
   * version of the collection was fetched before, only what changed since is asked for, and the
   * untouched entries are the very same objects as in the earlier version (which lets an agent
   * keep whatever it derived from them, e.g. compiled marks).
   */
  definition(collection: string, version: number): Promise<VersionedDefinition> {
    const key = `${collection}@${version}`;
    let pending = this.definitions.get(key);
    if (pending === undefined) {
      const kind = this.kinds.get(collection);
      if (!kind) throw new Error(`This authority client was given no learnable kind for "${collection}".`);
      const held = this.latest.get(collection);
      const previous = held?.definition;
      const base = held?.bytes ?? 0;
      type Answer = { entries: StoredDefinitionEntry[]; since?: number; size?: number };
      const whole = `/v1/collections/${encodeURIComponent(collection)}/versions/${version}`;
      let bytes = 0;
      pending = this.callWeighed<Answer>('GET', previous ? `${whole}?since=${previous.version}` : whole).then(
        async ({ answer: { entries, since, size }, bytes: sent }) => {
          let definition: VersionedDefinition | undefined;
          /** The positions this version was merged with, for the next one to be merged from it. */
          let merging: Map<string, number> | undefined;
          if (held && previous && since === previous.version) {
            // Each changed entry replaces the one with its key in its place, or goes last: the very
            // order a new Map of the entries gave, without one (at 25,000 entries a Map, and the
            // checks of defineCollection over every entry, cost 7 of the agent's milliseconds a
            // version, and that before its next message could be read). The entries of `previous`
            // are unique and frozen already; a key is found by the positions of the versions merged
            // one from another (a key's place never changes once taken), believed only where it holds.
            const positions = held.positions;
            const merged = [...previous.entries];
            // The weight moves by the changed entries only: theirs as sent, less what they replace.
            let weight = base;
            for (const entry of entries) {
              let at = positions.get(entry.key);
              if (at !== undefined && merged[at]?.key !== entry.key) at = merged.findIndex((kept) => kept.key === entry.key);
              const replaced = at === undefined || at < 0 ? undefined : merged[at];
              if (replaced !== undefined) weight -= entryBytes.get(replaced) ?? 0;
              const next = deepFreeze(kind.fromState(entry.key, entry.state));
              const sentBytes = JSON.stringify(entry).length;
              entryBytes.set(next, sentBytes);
              weight += sentBytes;
              if (replaced !== undefined) merged[at!] = next;
              else {
                positions.set(entry.key, merged.length);
                merged.push(next);
              }
            }
            // Changes only ever replace or add entries; if the count says otherwise, ask for all.
            if (merged.length === size) {
              definition = { collection, entries: Object.freeze(merged), version };
              bytes = weight;
              merging = positions;
            }
          }
          if (definition === undefined) {
            const all =
              since === undefined
                ? { entries, bytes: sent }
                : await this.callWeighed<Answer>('GET', whole).then(({ answer, bytes: whole }) => ({ entries: answer.entries, bytes: whole }));
            definition = {
              ...defineCollection(
                collection,
                all.entries.map((entry) => kind.fromState(entry.key, entry.state)),
              ),
              version,
            };
            bytes = all.bytes;
            // Each entry weighs its share of the answer (not each measured: that is a second pass over 50,000).
            const share = all.bytes / Math.max(1, all.entries.length);
            for (const entry of definition.entries) entryBytes.set(entry, share);
            // The positions the next version is merged with, made now rather than on the first
            // lesson after (at 25,000 entries 5-14 ms, which that lesson's next message waited for).
            merging = new Map(definition.entries.map((entry, at) => [entry.key, at]));
          }
          if (version >= (this.latest.get(collection)?.definition.version ?? 0)) {
            // Set by whichever way the version came: merged, or whole.
            this.latest.set(collection, { definition, bytes, positions: merging! });
          }
          return definition;
        },
      );
      this.definitions.fetching(key, pending);
      // Weighed once fetched; the newest of each collection is never put out (the next is asked as changes to it).
      pending.then(
        () =>
          this.definitions.fetched(key, bytes, (kept) =>
            [...this.latest.values()].some(({ definition }) => kept === `${definition.collection}@${definition.version}`),
          ),
        () => undefined,
      );
    }
    return pending;
  }

  /** How many versions the client keeps, and the bytes of their entries as fetched (`cacheBytes`). */
  get cached(): { readonly versions: number; readonly bytes: number } {
    return this.definitions.size;
  }

  /** Follow the change feed (server-sent events), reconnecting until the signal aborts. */
  async watch(options: WatchOptions): Promise<void> {
    const query = options.collection ? `?collection=${encodeURIComponent(options.collection)}` : '';
    while (!options.signal.aborted) {
      try {
        const response = await fetch(`${this.base}/v1/changes${query}`, {
          headers: { accept: 'text/event-stream' },
          signal: options.signal,
        });
        if (!response.ok || !response.body) throw new AuthorityUnavailable(`The change feed answered ${response.status}.`);
        await readEvents(response.body, (event, data) => {
          if (event === 'activation') options.onActivation(JSON.parse(data) as Activation);
          if (event === 'active') options.onActive?.(JSON.parse(data) as Activation[]);
        });
        throw new AuthorityUnavailable('The change feed closed.');
      } catch (error) {
        if (options.signal.aborted) return;
        options.onDisconnect?.(error);
        await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 500));
      }
    }
  }
}

async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (event: string, data: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let boundary = buffer.indexOf('\n\n'); boundary >= 0; boundary = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length > 0) onEvent(event, data.join('\n'));
    }
  }
}

/**
 * What each entry weighs in a client's cache: its part of the answer it came in. A version fetched
 * as changes weighs its base, less the entries replaced, plus the new ones, so the weight of the
 * newest stays true however many lessons a client follows.
 */
const entryBytes = new WeakMap<object, number>();

/** The header a relaying agent names its user in, for writes other than lessons. */
function onBehalf(options: { onBehalfOf?: string }): Record<string, string> {
  return options.onBehalfOf === undefined ? {} : { [ON_BEHALF_OF_HEADER]: encodeURIComponent(options.onBehalfOf) };
}
