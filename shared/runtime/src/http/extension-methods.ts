import type { NextFunction, Request, Response, Router } from 'express';
import express from 'express';
import type { Part } from '@a2a-js/sdk';
import type { TaskStore, User } from '@a2a-js/sdk/server';
import { Role } from '@a2a-js/sdk';
import { AuthorityRefused, AuthorityUnavailable, bearerChallenge, refusalFor } from '@learnables/authority';
import type { AuthorityClient } from '@learnables/authority';
import { LessonRefused } from '@learnables/learnable';
import type { LessonOutcome, PreviewResult, RereadResult, RetractionOutcome } from '@learnables/protocol';
import {
  EXTENSIONS_HEADER,
  FORBIDDEN_CODE,
  UNAUTHORIZED_CODE,
  LEARNABLES_METHODS,
  LEARNABLES_URI,
  JsonRpcRequestSchema,
  LessonSchema,
  NewEntrySchema,
  RereadRequestSchema,
  RetractionSchema,
  explainInvalid,
} from '@learnables/protocol';
import { verifyBody } from './parse-admission.ts';
import { previewLesson } from '../preview/preview-lesson.ts';
import type { PreviewWindow } from '../preview/preview-lesson.ts';
import type { PreviewMemory } from '../preview/preview-memory.ts';
import type { PreviewBudget } from '../preview/preview-budget.ts';
import type { PreviewGate } from '../preview/preview-budget.ts';
import { DEFAULT_PREVIEW_BUDGET, PreviewsBusy } from '../preview/preview-budget.ts';
import type { Journal } from '../storage/journal.ts';
import type { TaskLedger } from '../storage/task-ledger.ts';
import type { LearnableAgent } from '../learnable-agent.ts';
import type { InputReader, ParseTicket } from '../parsing/input-reader.ts';
import { InputRefused } from '../learnable-agent.ts';
import { NOT_READ, pinnedDefinitions } from '../a2a/advance-task.ts';
import { lostParts } from '../storage/kept-input.ts';
import { toInputParts } from '../a2a/parts.ts';
import { contextFor } from '../a2a/recover-tasks.ts';
import { ANONYMOUS_OWNER } from '../storage/task-ledger.ts';
import { extensionsHeaderFor, messageParts, speaksV03 } from '../a2a/wire-version.ts';
import { scopeOf } from '../storage/task-writes.ts';
import type { Corrections } from '../storage/corrections.ts';
import { correct, corrections } from './correct-task.ts';
import { MethodRefused } from './method-refused.ts';

export { MethodRefused };

// 401 and 403 have codes of their own outside JSON-RPC's reserved range (A2A's -32001 is TaskNotFound: SPEC §3.4).
const JSON_RPC_CODE: Record<number, number> = {
  400: -32602,
  401: UNAUTHORIZED_CODE,
  403: FORBIDDEN_CODE,
  404: -32602,
  413: -32600,
  422: -32602,
  429: -32000,
  500: -32603,
  502: -32603,
  503: -32603,
};

export interface ExtensionMethodsDeps<Input, Result> {
  readonly agent: LearnableAgent<Input, Result>;
  readonly authority: AuthorityClient;
  readonly reader: Pick<InputReader<Input>, 'parse' | 'ticketOf'>;
  readonly taskStore: TaskStore;
  readonly userOf: (req: Request) => Promise<User>;
  readonly log: (message: string, error?: unknown) => void;
  /** Told of each refusal, by its error code (the agent's metrics count them). */
  readonly refused?: (reason: string) => void;
  /** Told of each correction that recorded something (the agent's metrics count them). */
  readonly corrected?: () => void;
  /** Preview reads recent tasks' inputs from these; it writes to neither. */
  readonly journal: Journal;
  readonly ledger: TaskLedger;
  /** Where corrections of completed tasks' decisions are recorded (SPEC §6.7). */
  readonly corrections: Corrections;
  readonly previewWindow?: PreviewWindow;
  /** What previews keep of recent tasks between calls. */
  readonly previewMemory?: PreviewMemory;
  /** What one preview may spend, and how many run at once (one gate per running agent). */
  readonly previewBudget: PreviewBudget;
  readonly previewGate: PreviewGate;
}

/**
 * Reread: read an input again under the versions live now. Read-only by construction: it writes
 * nothing, and reads only the task it was pointed at and what the journal recorded of its input.
 */
export async function reread<Input, Result>(
  deps: ExtensionMethodsDeps<Input, Result>,
  params: unknown,
  user: User,
  tenant: string | undefined,
  v03 = false,
  ticket?: ParseTicket,
): Promise<RereadResult> {
  const request = RereadRequestSchema.safeParse(params);
  if (!request.success) throw new MethodRefused(400, { error: 'malformed', message: `That reread cannot be read: ${explainInvalid(request.error)}.` });
  const asked = request.data;
  let input: Input;
  if (asked.taskId !== undefined) {
    const task = await deps.taskStore.load(asked.taskId, contextFor(tenant ?? '', user.userName || ANONYMOUS_OWNER));
    const first = task?.history.find((message) => message.role === Role.ROLE_USER);
    if (!task || !first) {
      throw new MethodRefused(404, { error: 'unknown-task', message: `There is no task "${asked.taskId}" that you can read.` });
    }
    // The task's input as it was read when it arrived (the journal keeps it; the message itself may
    // be kept only as a digest); a task that never got that far is read from its message.
    const recorded = (await deps.journal.recordedFor([task.id], 'parse')).get(task.id);
    if (recorded !== undefined) input = recorded as Input;
    else if (lostParts(first.parts)) throw new InputRefused(NOT_READ);
    else input = await deps.reader.parse(toInputParts(first.parts), ticket);
  } else {
    input = await deps.reader.parse(toInputParts(messageParts(asked.message as object, v03)), ticket);
  }
  const actives = await Promise.all(deps.agent.kinds.map((kind) => deps.authority.active(kind.collection)));
  const pins = Object.fromEntries(actives.map((active) => [active.collection, active.version]));
  const definitions = await pinnedDefinitions(deps.authority, pins);
  // As a task does: what the agent builds per version is built off the request path (it may have
  // been put out since the version was announced; the handling agent then trains in slices).
  await deps.agent.prepare?.(definitions).catch(() => undefined);
  const reading = deps.agent.read(input, definitions);
  return Object.fromEntries(
    Object.entries(reading.findings).map(([name, finding]) => [
      name,
      {
        settled: finding.settled,
        ...(finding.winner !== undefined && { winner: finding.winner }),
        reads: finding.reads,
        version: pins[finding.collection] ?? 1,
      },
    ]),
  );
}

const requireWriter = (user: User, what: string) => {
  if (!user.isAuthenticated) {
    throw new MethodRefused(401, { error: 'unauthorized', message: `${what} this agent needs a bearer token it accepts; nothing was written.` });
  }
};

/**
 * Teach: relay a lesson — or, where the declaration allows it, a new entry — to the authority and
 * hand back its answer, refusals word for word.
 */
export async function teach<Input, Result>(deps: ExtensionMethodsDeps<Input, Result>, params: unknown, user: User): Promise<LessonOutcome> {
  requireWriter(user, 'Teaching');
  if (typeof params === 'object' && params !== null && 'newEntry' in params) {
    if (deps.agent.declaration.addsEntries !== true) {
      throw new MethodRefused(400, {
        error: 'malformed',
        message: `This agent's ${deps.agent.declaration.collection} take no new entries; teach a lesson to one that exists.`,
      });
    }
    const newEntry = NewEntrySchema.safeParse(params);
    if (!newEntry.success) throw new MethodRefused(400, { error: 'malformed', message: `That new entry cannot be read: ${explainInvalid(newEntry.error)}.` });
    return deps.authority.addEntry(newEntry.data, { onBehalfOf: user.userName });
  }
  const lesson = LessonSchema.safeParse(params);
  if (!lesson.success) throw new MethodRefused(400, { error: 'malformed', message: `That lesson cannot be read: ${explainInvalid(lesson.error)}.` });
  return deps.authority.postLesson(lesson.data, { onBehalfOf: user.userName });
}

/** Retract: relay a retraction to the authority. Nothing here creates a task, a pin or a journal row. */
export async function retract<Input, Result>(deps: ExtensionMethodsDeps<Input, Result>, params: unknown, user: User): Promise<RetractionOutcome> {
  requireWriter(user, 'Retracting a lesson of');
  const retraction = RetractionSchema.safeParse(params);
  if (!retraction.success)
    throw new MethodRefused(400, { error: 'malformed', message: `That retraction cannot be read: ${explainInvalid(retraction.error)}.` });
  return deps.authority.retract(retraction.data, { onBehalfOf: user.userName });
}

/**
 * Preview: what a lesson would do to the caller's recent tasks, read-only (see previewLesson). Only
 * for callers with a token, as teach is (it is the lesson-writing half of teaching, and what it reads
 * costs the agent); at most `perCaller` of one caller and `overall` in all at once, each within its
 * budget of time and bytes read.
 */
export async function preview<Input, Result>(
  deps: ExtensionMethodsDeps<Input, Result>,
  params: unknown,
  user: User,
  tenant: string | undefined,
): Promise<PreviewResult> {
  if (!user.isAuthenticated) {
    throw new MethodRefused(401, {
      error: 'unauthorized',
      message: 'Previewing a lesson on this agent needs a bearer token it accepts, as teaching does; nothing was read.',
    });
  }
  const budget = { ...DEFAULT_PREVIEW_BUDGET, ...deps.previewBudget };
  // The caller's own tasks, scoped exactly as the ledger recorded them.
  const scope = scopeOf(contextFor(tenant ?? '', user.userName || ANONYMOUS_OWNER));
  let leave: () => void;
  try {
    leave = deps.previewGate.enter(`${scope.tenant}\u0000${scope.owner}`);
  } catch (error) {
    if (error instanceof PreviewsBusy) throw new MethodRefused(429, { error: 'busy', message: error.message });
    throw error;
  }
  try {
    return await previewLesson(
      {
        agent: deps.agent,
        authority: deps.authority,
        journal: deps.journal,
        ledger: deps.ledger,
        corrections: deps.corrections,
        budget,
        ...(deps.previewWindow && { window: deps.previewWindow }),
        ...(deps.previewMemory && { memory: deps.previewMemory }),
      },
      params,
      scope,
    );
  } finally {
    leave();
  }
}

type MethodName = keyof typeof LEARNABLES_METHODS;

function run<Input, Result>(
  deps: ExtensionMethodsDeps<Input, Result>,
  method: MethodName,
  params: unknown,
  user: User,
  tenant: string | undefined,
  v03: boolean,
  ticket: ParseTicket | undefined,
) {
  switch (method) {
    case 'reread':
      return reread(deps, params, user, tenant, v03, ticket);
    case 'teach':
      return teach(deps, params, user);
    case 'retract':
      return retract(deps, params, user);
    case 'preview':
      return preview(deps, params, user, tenant);
    case 'correct':
      return correct(deps, params, user, tenant).then((outcome) => {
        if (outcome.changed) deps.corrected?.();
        return outcome;
      });
    case 'corrections':
      return corrections(deps, params, user, tenant);
  }
}

function asRefusal(error: unknown, log: (message: string, error?: unknown) => void): MethodRefused {
  if (error instanceof MethodRefused) return error;
  if (error instanceof AuthorityRefused) return new MethodRefused(error.status, error.refusal);
  if (error instanceof InputRefused) return new MethodRefused(400, { error: 'malformed', message: error.message });
  // The learnable's refusal in preview: the very body the authority would answer teach with.
  if (error instanceof LessonRefused) {
    const refusal = refusalFor(error);
    return new MethodRefused(refusal.status, refusal.body);
  }
  if (error instanceof AuthorityUnavailable) {
    return new MethodRefused(503, { error: 'internal', message: 'The authority cannot be reached, so the live rules cannot be read; try again shortly.' });
  }
  log('extension method failed', error);
  return new MethodRefused(500, { error: 'internal', message: 'The agent failed to answer; nothing was written. See its log.' });
}

const wantsExtension = (req: Request): boolean =>
  [req.get(EXTENSIONS_HEADER), req.get(`X-${EXTENSIONS_HEADER}`)].some((header) => (header ?? '').split(',').some((uri) => uri.trim() === LEARNABLES_URI));

/** Whether the request speaks A2A v0.3; if it activated the extension, echo it as that version does (§7.1). */
function speakAsAsked(req: Request, res: Response): boolean {
  const v03 = speaksV03(req.get('A2A-Version'));
  if (wantsExtension(req)) res.set(extensionsHeaderFor(v03), LEARNABLES_URI);
  return v03;
}

/** Parse JSON ourselves (the SDK's parser has a fixed 100 kB limit) and answer its errors in JSON-RPC. */
export function jsonRpcBody(limit: string): Router {
  const router = express.Router();
  router.use(express.json({ limit, verify: verifyBody }));
  router.use((error: { type?: string; message?: string }, _req: Request, res: Response, next: NextFunction) => {
    if (error.type === 'entity.parse.failed') {
      res.status(200).json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `The request is not valid JSON: ${error.message ?? 'parse error'}.` } });
    } else if (error.type === 'entity.too.deep') {
      const message = error.message ?? 'The request nests too deep.';
      res.status(200).json({ jsonrpc: '2.0', id: null, error: { code: -32600, message, data: { error: 'malformed', message } } });
    } else if (error.type === 'entity.too.large') {
      res.status(413).json({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: `The request is larger than this agent accepts (${limit}).`,
          data: { error: 'too-large', message: `The request is larger than this agent accepts (${limit}).` },
        },
      });
    } else next(error);
  });
  return router;
}

/** The extension method a JSON-RPC method name or a REST path names, if any. */
const methodNamed = (name: unknown, transport: 'jsonrpc' | 'rest'): MethodName | undefined =>
  (Object.keys(LEARNABLES_METHODS) as MethodName[]).find((method) => LEARNABLES_METHODS[method][transport] === name);

/** A 409 about what was asked (an entry's key, a retraction, a correction of no decision) is the caller's to fix; a lost race is not. */
const jsonRpcCode = (refused: MethodRefused): number =>
  refused.refusal.error === 'entry-exists' || refused.refusal.error === 'not-retractable' || refused.refusal.error === 'not-correctable'
    ? -32602
    : (JSON_RPC_CODE[refused.status] ?? -32603);

/** Whether a refusal is about access (401, 403); a 401 gets the RFC 6750 challenge (`WWW-Authenticate: Bearer`). */
function challenged(req: Request, res: Response, refused: MethodRefused, realm: string): boolean {
  if (refused.status === 401) res.set('WWW-Authenticate', bearerChallenge(realm, req.get('authorization')));
  return refused.status === 401 || refused.status === 403;
}

/** The extension methods on JSON-RPC, in front of the SDK's handler; other methods fall through. */
export function jsonRpcExtensionMethods<Input, Result>(deps: ExtensionMethodsDeps<Input, Result>): Router {
  const router = express.Router();
  router.post('/', async (req: Request, res: Response, next: NextFunction) => {
    const body = req.body as { id?: unknown; method?: unknown; params?: unknown } | undefined;
    const method = methodNamed(body?.method, 'jsonrpc');
    if (method === undefined) {
      next();
      return;
    }
    const v03 = speakAsAsked(req, res);
    const envelope = JsonRpcRequestSchema.safeParse(body);
    if (!envelope.success) {
      const message = `That request is not JSON-RPC 2.0: ${explainInvalid(envelope.error)}.`;
      const id = typeof body?.id === 'string' || typeof body?.id === 'number' ? body.id : null;
      res.json({ jsonrpc: '2.0', id, error: { code: -32600, message, data: { error: 'malformed', message } } });
      return;
    }
    const id = envelope.data.id ?? null;
    try {
      const user = await deps.userOf(req);
      const params = (envelope.data.params ?? {}) as { tenant?: unknown };
      const tenant = typeof params.tenant === 'string' && params.tenant !== '' ? params.tenant : undefined;
      const result = await run(deps, method, params, user, tenant, v03, deps.reader.ticketOf(req.headers));
      res.json({ jsonrpc: '2.0', id, result });
    } catch (error) {
      const refused = asRefusal(error, deps.log);
      deps.refused?.(refused.refusal.error);
      // An access refusal keeps its HTTP status (A2A: authentication failures are the transport's,
      // 401 with a challenge); every other refusal is a JSON-RPC error on HTTP 200, as the binding's.
      res
        .status(challenged(req, res, refused, deps.agent.name) ? refused.status : 200)
        .json({ jsonrpc: '2.0', id, error: { code: jsonRpcCode(refused), message: refused.message, data: refused.refusal } });
    }
  });
  return router;
}

/** The extension methods on the REST binding: `POST {rest}/learnables:reread` etc., optionally under a tenant. */
export function restExtensionMethods<Input, Result>(deps: ExtensionMethodsDeps<Input, Result>): Router {
  const router = express.Router();
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') return next();
    const match = /^(?:\/([^/]+))?(\/learnables:[a-z]+)$/.exec(req.path);
    const method = match ? methodNamed(match[2], 'rest') : undefined;
    if (!match || method === undefined) return next();
    const v03 = speakAsAsked(req, res);
    try {
      const user = await deps.userOf(req);
      const result = await run(deps, method, req.body, user, match[1], v03, deps.reader.ticketOf(req.headers));
      res.json(result);
    } catch (error) {
      const refused = asRefusal(error, deps.log);
      deps.refused?.(refused.refusal.error);
      challenged(req, res, refused, deps.agent.name);
      res.status(refused.status).json(refused.refusal);
    }
  });
  return router;
}
