import { nameRequestSpan, traceRequests } from '@learnables/tracing';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import express from 'express';
import { AGENT_CARD_PATH, AgentCard } from '@a2a-js/sdk';
import type { ServerCallContextBuilder, User } from '@a2a-js/sdk/server';
import { DefaultRequestHandler, UnauthenticatedUser, defaultServerCallContextBuilder } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';
import { sql } from 'kysely';
import type { Logger, ReadinessCheck, TokenNames } from '@learnables/authority';
import {
  AuthorityClient,
  BearerTokens,
  allowedHosts,
  bearerChallenge,
  bearerTokenOf,
  cached,
  createLogger,
  observeHttp,
  readinessHandler,
  requestLogger,
  requireAllowedHost,
} from '@learnables/authority';
import { LEARNABLES_URI, UNAUTHORIZED_CODE } from '@learnables/protocol';
import { JSONRPC_PATH, REST_PATH, agentCardFor } from './a2a/agent-card.ts';
import type { AgentProvider } from './a2a/agent-card.ts';
import { CARD_KEYS_PATH, loadCardSigningKey, signCard } from './a2a/card-signing.ts';
import type { CardSigningKey } from './a2a/card-signing.ts';
import { speaksV03 } from './a2a/wire-version.ts';
import { LearnablesExecutor, PARSE_TICKET, PLAIN_SEND } from './a2a/learnables-executor.ts';
import type { ExecutorDeps } from './a2a/learnables-executor.ts';
import { recoverTasks } from './a2a/recover-tasks.ts';
import { foregroundRequests, foregroundUntil } from './background-turn.ts';
import { agentCalled, jsonErrors } from './http/json-errors.ts';
import { jsonRpcBody, jsonRpcExtensionMethods, restExtensionMethods } from './http/extension-methods.ts';
import { AgentCounts, statsHandler } from './http/metrics.ts';
import { AgentMetrics } from './http/agent-metrics.ts';
import { checkAgent } from './check-agent.ts';
import { admitParses, isPlainSend, verifyBody } from './http/parse-admission.ts';
import { inSeries } from './http/in-series.ts';
import type { LearnableAgent } from './learnable-agent.ts';
import { InputReader } from './parsing/input-reader.ts';
import type { ParsingOptions } from './parsing/input-reader.ts';
import { pinDefinitions } from './pinned-definitions.ts';
import type { PreviewWindow } from './preview/preview-lesson.ts';
import { warmPreview } from './preview/preview-lesson.ts';
import { Journal } from './storage/journal.ts';
import { LedgerTaskStore } from './storage/ledger-task-store.ts';
import { DEFAULT_KEPT_INPUT, KeepingTaskStore } from './storage/kept-input.ts';
import type { KeptInput } from './storage/kept-input.ts';
import { PreviewMemory } from './preview/preview-memory.ts';
import type { PreviewBudget } from './preview/preview-budget.ts';
import { DEFAULT_PREVIEW_BUDGET, PreviewGate } from './preview/preview-budget.ts';
import type { RuntimeDatabase } from './storage/open-database.ts';
import { openRuntimeDatabase } from './storage/open-database.ts';
import { ANONYMOUS_OWNER, TaskLedger } from './storage/task-ledger.ts';
import { Corrections } from './storage/corrections.ts';

export interface AgentServerOptions {
  /** Where tasks and the journal live: a SQLite file path (`sqlite:…`) or a `postgres://` URL. */
  store: string;
  /** The authority that holds the agent's collections; the token is used only to relay lessons. */
  authority: { url: string; token?: string };
  port?: number;
  host?: string;
  /** The URL clients reach this agent at, for the card. Default: http://host:port */
  publicUrl?: string;
  /**
   * Host names (or origins) the agent answers to besides the loopback names and its public URL's;
   * a request naming any other Host is refused with 421 (DNS rebinding), as the authority and the
   * console do.
   */
  hosts?: string | readonly string[];
  /**
   * Bearer tokens this agent accepts, each with the user name that owns the tasks it creates.
   * Without a token a caller is anonymous: it may send messages (its tasks are visible only to
   * other anonymous callers) but may not teach.
   */
  users?: TokenNames | BearerTokens;
  /**
   * Whether callers without a token are served (as anonymous: they may send messages and read their
   * own tasks, never teach). Default true; a deployment reachable by others should turn it off.
   */
  allowAnonymous?: boolean;
  /**
   * Who runs the agent, for the card's `provider`. Default: "learnables reference implementation"
   * at the agent's public origin.
   */
  provider?: AgentProvider;
  /**
   * A key to sign the card with (A2A §8.4), or the path of a file holding one (PEM or JWK; see
   * loadCardSigningKey). Its public half is served at /.well-known/jwks.json, which the signature's
   * `jku` names. Default: the card is not signed.
   */
  cardSigningKey?: CardSigningKey | string;
  /** Largest request accepted. Default: the agent's own, or 40mb (a 25 MB email in base64). */
  bodyLimit?: string;
  /**
   * Where the agent writes its lines: one JSON object a line (access lines, each task's work with
   * its taskId, contextId and pins, errors as fields). Default: createLogger at LOG_LEVEL, on stdout.
   */
  logger?: Logger;
  /** How long /readyz keeps its answer of whether the authority answers. Default 2 s. */
  readinessCacheMs?: number;
  /** Which recent tasks preview re-reads. Default: the last 30 days or 5,000 tasks, whichever is smaller. */
  previewWindow?: PreviewWindow;
  /**
   * What one preview may spend and how many run at once (default 5 s and 64 MiB of recorded input
   * read, one preview per caller and two in all; a further one is answered 429, busy). A preview
   * whose budget ends first answers what it tried, saying so (`tried` of `recent`, SPEC §6.5).
   */
  previewBudget?: PreviewBudget;
  /**
   * Bytes of recent tasks' evidence that preview keeps between calls, for an agent with a
   * Decider (default 64 MB; 0 keeps nothing, and each preview reads every input again).
   */
  previewMemoryBytes?: number;
  /**
   * Fill preview's memory at start, in the background, so the first preview does not read every
   * recent task itself (an agent with a Decider; default true).
   */
  warmPreview?: boolean;
  /**
   * What a reading that breaks the runtime's rules does (a suggestion its own learnable refuses, a
   * question's entry not in its collection, a finding naming a collection the task is not pinned
   * to): strict, the task fails and the mistake is logged; otherwise the mistake is logged and the
   * task served, a refused suggestion left out. Default: strict when NODE_ENV is `test`.
   */
  strict?: boolean;
  /**
   * How messages are read. `threads`: for an agent that names its parse module, the worker threads
   * that read messages (default one per core; 0 reads them on the event loop). `maxParses`: messages
   * read or waiting for a thread at once (default twice the threads, at least 2); `inFlightBytes`:
   * bytes of the messages taken and not yet answered (default maxParses × 48 MiB); one more is
   * answered busy, 503 with `Retry-After: retryAfterSeconds` (default 10), and nothing is stored.
   */
  parsing?: ParsingOptions & { retryAfterSeconds?: number };
  /**
   * How much of its input a task keeps, in bytes. `message`: of the message a client sent, kept
   * with the task (default 4 MB; past it, the largest parts are kept as their size and SHA-256).
   * `input`: of what the agent read from it, journaled as JSON (default 16 MB; past it, the message
   * is refused in a sentence and nothing is kept).
   */
  keptInput?: Partial<KeptInput>;
}

export interface RunningAgent {
  readonly url: string;
  readonly card: AgentCard;
  readonly server: Server;
  readonly database: RuntimeDatabase;
  readonly journal: Journal;
  readonly ledger: TaskLedger;
  /** Tasks resumed from the journal at start-up. */
  readonly recovered: readonly string[];
  /** Preview's memory filled ahead of the first preview: resolves with the tasks kept (0 without a Decider). */
  readonly previewWarmed: Promise<number>;
  /** This instance's Prometheus series (also at /metrics). */
  readonly metrics: AgentMetrics;
  close(): Promise<void>;
}

/**
 * Start a learnable A2A agent: the SDK's request handler, JSON-RPC and REST transports (v1.0
 * and v0.3), its database task store, plus pinning, the journal, questions with teach blocks,
 * reread and teach, and the questions-per-100-messages numbers.
 */
export async function startLearnableAgent<Input, Result>(agent: LearnableAgent<Input, Result>, options: AgentServerOptions): Promise<RunningAgent> {
  // The card against the kinds, before anything is opened: a mistake there is the agent's to fix.
  checkAgent(agent);
  const logger = options.logger ?? createLogger({ service: agent.name });
  const log = (message: string, error?: unknown) => logger.error({ err: error }, message);
  const metrics = new AgentMetrics(agent.name, agent.skill.id);
  const host = options.host ?? '127.0.0.1';
  const bodyLimit = options.bodyLimit ?? agent.bodyLimit ?? '40mb';
  const database = await openRuntimeDatabase(options.store);
  const kept: KeptInput = { ...DEFAULT_KEPT_INPUT, ...options.keptInput };
  for (const [what, bytes] of Object.entries(kept)) {
    if (!Number.isInteger(bytes) || bytes < 1024)
      throw new RangeError(`The input a task keeps (${what}) must be a whole number of bytes, at least 1024, and ${bytes} is not.`);
  }
  const authority = new AuthorityClient({ url: options.authority.url, token: options.authority.token, kinds: agent.kinds });
  // Steps are written without waiting for the disk; a task's opening and its resting state wait
  // (RuntimeDatabase.steps). The states it passes through are not written (LedgerTaskStore).
  const journal = new Journal(database);
  const ledger = new TaskLedger(database, agent.skill.id);
  const corrections = new Corrections(database.db, agent.skill.id);
  // The SDK's store (for reads) shares our connection and database; LedgerTaskStore writes a task's
  // opening and resting rows with the ledger's in one transaction, and KeepingTaskStore keeps at
  // most `kept.message` of a task's messages.
  const taskStore = new KeepingTaskStore(new LedgerTaskStore(database, ledger), kept.message);
  const reader = new InputReader(agent, options.parsing);
  const retryAfter = options.parsing?.retryAfterSeconds ?? 10;
  const deps: ExecutorDeps<Input, Result> = {
    agent,
    journal,
    ledger,
    taskStore,
    authority,
    reader,
    kept,
    logger,
    metrics,
    strict: options.strict ?? process.env.NODE_ENV === 'test',
  };

  const app = express();
  app.disable('x-powered-by');
  const server = app.listen(options.port ?? 0, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  // Node closes a kept-alive connection 5 s after its last request by default, and a 49 MB body still
  // costs the event loop seconds to take in (JSON, the SDK's base64): a client that sends it on a
  // reused connection saw ECONNRESET. A minute, as behind a load balancer.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const port = (server.address() as AddressInfo).port;
  const url = (options.publicUrl ?? `http://${host}:${port}`).replace(/\/+$/, '');
  const allowAnonymous = options.allowAnonymous ?? true;
  const signing = typeof options.cardSigningKey === 'string' ? await loadCardSigningKey(options.cardSigningKey) : options.cardSigningKey;
  const unsigned = agentCardFor(agent, url, { tokenRequired: !allowAnonymous, ...(options.provider && { provider: options.provider }) });
  // The card as served to v1.0 clients (proto JSON); the SDK's own types (and its v0.3 translation)
  // hold oneofs such as a security scheme as `{ $case, value }`, so it gets the card read that way.
  const card = signing ? await signCard(unsigned, signing, `${url}${CARD_KEYS_PATH}`) : unsigned;
  const sdkCard = AgentCard.fromJSON(card);
  const configured = typeof options.hosts === 'string' ? options.hosts.split(',') : (options.hosts ?? []);
  app.use(traceRequests('agent'));
  // Then: every request gets its id and its access line, the refused ones too.
  app.use(observeHttp({ logger, metrics: metrics.service, mounts: [JSONRPC_PATH, REST_PATH, `/${AGENT_CARD_PATH}`, '/learnables/stats'] }));
  app.use(requireAllowedHost(allowedHosts([...configured, url]), 'agent'));
  app.use(foregroundRequests);
  // A question may wait hours for a person. The SDK would keep each waiting task's event bus in
  // memory until then (for SubscribeToTask); with many questions open that is memory that only
  // grows. An answer arrives as a new message and gets a new bus, so none is kept.
  const requestHandler = new DefaultRequestHandler(sdkCard, taskStore, new LearnablesExecutor(deps), undefined, undefined, undefined, undefined, undefined, {
    keepBusAliveStates: [],
  });

  const users = options.users instanceof BearerTokens ? options.users : new BearerTokens(options.users ?? new Map());
  if (users.names().includes(ANONYMOUS_OWNER)) {
    throw new Error(
      `A user named "${ANONYMOUS_OWNER}" would share the tasks of anonymous callers (the task store's name for them); give that token another name.`,
    );
  }
  // The name a request's token acts as, looked up once a request: the refusal below and the SDK's
  // user both ask, and each lookup hashes the token (compared in constant time, BearerTokens).
  const callers = new WeakMap<Request, string | undefined>();
  const callerOf = (req: Request): string | undefined => {
    if (callers.has(req)) return callers.get(req);
    const name = users.nameOf(bearerTokenOf(req.get('authorization')));
    callers.set(req, name);
    return name;
  };
  const userOf = async (req: Request): Promise<User> => {
    const name = callerOf(req);
    return name !== undefined ? { isAuthenticated: true, userName: name } : new UnauthenticatedUser();
  };
  // A token that is presented but unknown (or a header that carries none) is refused rather than
  // quietly treated as anonymous; with anonymous callers off, so is a request with no header. Each
  // 401 carries the RFC 6750 challenge, and on JSON-RPC is a JSON-RPC error object (the body is not
  // read before the caller is known, so its id is null, as JSON-RPC says when it cannot be known).
  const refuseUnknownToken = (binding: 'jsonrpc' | 'rest') => (req: Request, res: Response, next: NextFunction) => {
    const header = req.get('authorization');
    const message =
      header !== undefined && callerOf(req) === undefined
        ? bearerTokenOf(header) === ''
          ? 'That Authorization header carries no bearer token; send "Authorization: Bearer <token>" with a token this agent accepts, or no header at all.'
          : 'That token is not one this agent accepts.'
        : header === undefined && !allowAnonymous
          ? 'This agent serves only callers with a bearer token it accepts; send one in the Authorization header.'
          : undefined;
    if (message === undefined) {
      next();
      return;
    }
    metrics.refusals.inc({ reason: 'unauthorized' });
    res.set('WWW-Authenticate', bearerChallenge(agent.name, header));
    const refusal = { error: 'unauthorized', message };
    if (binding === 'jsonrpc') res.status(401).json({ jsonrpc: '2.0', id: null, error: { code: UNAUTHORIZED_CODE, message, data: refusal } });
    else res.status(401).json(refusal);
  };
  // Activating here (not in the executor) is what makes the echo reach streaming responses too.
  const contextBuilder: ServerCallContextBuilder = (builderOptions) => {
    const context = defaultServerCallContextBuilder(builderOptions);
    if (builderOptions.extensions?.includes(LEARNABLES_URI)) context.addActivatedExtension(LEARNABLES_URI);
    // The place the admission gave this request's message, for its parse to hold (admitParses).
    const ticket = reader.ticketOf(builderOptions.headers);
    if (ticket !== undefined) context.state.set(PARSE_TICKET, ticket);
    if (isPlainSend(builderOptions.headers)) context.state.set(PLAIN_SEND, true);
    return context;
  };
  const methodDeps = {
    agent,
    authority,
    reader,
    taskStore,
    userOf,
    log,
    refused: (reason: string) => metrics.refusals.inc({ reason }),
    corrected: () => metrics.corrections.inc(),
    journal,
    ledger,
    corrections,
    previewMemory: new PreviewMemory(options.previewMemoryBytes),
    previewBudget: { ...DEFAULT_PREVIEW_BUDGET, ...options.previewBudget },
    previewGate: new PreviewGate({ ...DEFAULT_PREVIEW_BUDGET, ...options.previewBudget }),
    ...(options.previewWindow && { previewWindow: options.previewWindow }),
  };
  const legacyCompat = { enabled: true };
  const busy = (binding: 'jsonrpc' | 'rest') => {
    metrics.busy.inc({ binding });
    metrics.refusals.inc({ reason: 'busy' });
  };

  // A2A's JSON-RPC binding first, as one layer: the path every message takes (inSeries says why).
  app.use(
    JSONRPC_PATH,
    inSeries(
      refuseUnknownToken('jsonrpc'),
      jsonRpcBody(bodyLimit),
      (req: Request, _res: Response, next: NextFunction) => {
        const method = (req.body as { method?: unknown } | undefined)?.method;
        if (typeof method === 'string' && method.length <= 100) nameRequestSpan(`A2A ${method}`, { 'rpc.system': 'jsonrpc', 'rpc.method': method });
        next();
      },
      admitParses(reader, 'jsonrpc', retryAfter, busy),
      jsonRpcExtensionMethods(methodDeps),
      jsonRpcHandler({ requestHandler, userBuilder: userOf, contextBuilder, legacyCompat }),
    ),
  );
  // Liveness: the process answers (an orchestrator restarts it when this fails).
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true, agent: agent.name, engine: database.engine, reading: reader.load });
  });
  // Readiness: it can do its work (a balancer takes it out of rotation when this fails).
  app.get(
    '/readyz',
    readinessHandler(
      agentCalled(agent.name),
      agentReadiness({ database, authorityUrl: options.authority.url, reader, cacheMs: options.readinessCacheMs ?? 2_000 }),
    ),
  );
  app.get('/metrics', metrics.service.handler());
  const counts = new AgentCounts(ledger, corrections);
  app.get('/learnables/stats', statsHandler(counts, agent.skill.id));
  // The card: v1.0 clients get it as proto JSON (`card`, signed when a key is configured); v0.3
  // clients (A2A-Version absent or 0.x) the SDK's translation of it.
  const v1Card = agentCardHandler({ agentCardProvider: async () => card, cache: { maxAge: 60 } });
  const v03Card = agentCardHandler({ agentCardProvider: requestHandler, legacyCompat, cache: { maxAge: 60 } });
  app.use(`/${AGENT_CARD_PATH}`, (req, res, next) => {
    if (speaksV03(req.get('A2A-Version'))) return v03Card(req, res, next);
    res.append('Vary', 'A2A-Version');
    return v1Card(req, res, next);
  });
  if (signing) {
    app.get(CARD_KEYS_PATH, (_req, res) => {
      res.set('Cache-Control', 'public, max-age=300').json({ keys: [signing.publicJwk] });
    });
  }
  app.use(
    REST_PATH,
    refuseUnknownToken('rest'),
    express.json({ limit: bodyLimit, type: ['application/json', 'application/a2a+json'], strict: false, verify: verifyBody }),
    (error: { type?: string; message?: string }, _req: Request, res: Response, next: NextFunction) => {
      if (error.type === 'entity.too.large')
        res.status(413).json({ error: 'too-large', message: `The request is larger than this agent accepts (${bodyLimit}).` });
      else if (error.type === 'entity.parse.failed')
        res.status(400).json({ error: 'malformed', message: `The body is not valid JSON: ${error.message ?? 'parse error'}.` });
      else if (error.type === 'entity.too.deep') res.status(400).json({ error: 'malformed', message: error.message });
      else next(error);
    },
    admitParses(reader, 'rest', retryAfter, busy),
    restExtensionMethods(methodDeps),
    restHandler({ requestHandler, userBuilder: userOf, contextBuilder, legacyCompat }),
  );
  // Last: whatever no route answered, and every error, as a JSON sentence in every NODE_ENV
  // (express's own page printed the stack and the install's paths: json-errors.ts).
  const errors = jsonErrors(agent.name, logger);
  app.use(errors.notFound);
  app.use(errors.failed);

  // Keep each new active version's definition ready, so the next task does not wait for it.
  const watching = new AbortController();
  void authority.watch({
    signal: watching.signal,
    onActivation: (activation) => {
      if (agent.kinds.some((kind) => kind.collection === activation.collection)) {
        // Foreground until it is ready: the next message (often already on its way, from whoever
        // taught the lesson) waits for this version, so an agent's background catching up must
        // not start a slice in between (at 50,000 marks a slice started there was 5-45 ms more
        // between a lesson's acknowledgement and its first decision).
        const ready = foregroundUntil();
        authority
          .definition(activation.collection, activation.version)
          .then((definition) => agent.prepare?.(pinDefinitions([definition])))
          .catch(() => undefined)
          .finally(ready);
      }
    },
  });

  const recovered = await recoverTasks(deps, taskStore);
  // Preview's memory filled ahead of the first preview (in batches, off the request path).
  const warming =
    agent.decider === undefined || options.warmPreview === false
      ? Promise.resolve(0)
      : warmPreview(
          { agent, authority, journal, ledger, memory: methodDeps.previewMemory, ...(options.previewWindow && { window: options.previewWindow }) },
          Date.now(),
          watching.signal,
        ).catch((error: unknown) => {
          logger.warn({ err: error }, "Preview's memory was not filled ahead of time (the first preview will read the recent tasks itself)");
          return 0;
        });
  return {
    url,
    card,
    server,
    database,
    journal,
    ledger,
    recovered,
    previewWarmed: warming,
    metrics,
    async close() {
      watching.abort();
      await warming;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await reader.close();
      await database.close();
    },
  };
}

/**
 * What an agent needs to decide anything: its task store answers a query, the authority answers
 * (asked at most once per `cacheMs`, each time within the readiness timeout: an agent whose
 * authority is gone fails every message, TASK_STATE_FAILED), and its parse threads answer.
 */
function agentReadiness(deps: {
  database: RuntimeDatabase;
  authorityUrl: string;
  reader: Pick<InputReader<unknown>, 'probe'>;
  cacheMs: number;
}): ReadinessCheck[] {
  const { database, reader } = deps;
  const base = deps.authorityUrl.replace(/\/+$/, '');
  const engine = database.engine === 'postgres' ? 'PostgreSQL' : 'SQLite';
  const authority = cached(async () => {
    let response: globalThis.Response;
    try {
      response = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(1_500) });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      return `the authority at ${base} cannot be reached (${cause}), so this agent cannot tell which rules are in force and fails every message; start the authority or fix AUTHORITY_URL.`;
    }
    if (response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const said = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined;
    return `the authority at ${base} is not ready (HTTP ${response.status}${typeof said?.message === 'string' ? `: ${said.message}` : ''}), so this agent cannot tell which rules are in force.`;
  }, deps.cacheMs);
  return [
    {
      name: 'store',
      check: async () => {
        try {
          await sql`select 1`.execute(database.db);
          return undefined;
        } catch (error) {
          return `its ${engine} task store does not answer (${(error as Error).message}), so no message can be taken or answered.`;
        }
      },
    },
    { name: 'authority', check: authority },
    { name: 'parse-threads', check: cached(() => reader.probe(), deps.cacheMs) },
  ];
}
