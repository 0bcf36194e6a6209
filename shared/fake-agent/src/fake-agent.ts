// A small learnable A2A agent for client authors: it always asks about a note it has not been
// taught, declares a lesson field of a kind no client knows (`tint`, kind `colour`), and records
// what the client under test did, judged at GET /checklist (JSON) and /checklist.txt.
//
// It is our own runtime (startLearnableAgent) with an embedded authority, both on SQLite in a
// scratch folder, behind a small recording proxy: the proxy sees every call exactly as the
// client sent it and forwards it unchanged.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import express from 'express';
import type { Logger } from '@learnables/authority';
import { Authority, authorityService, openStore, silentLogger } from '@learnables/authority';
import type { LearnableKind, Learned } from '@learnables/learnable';
import { Learnable, UnlearnableValue } from '@learnables/learnable';
import type { LessonValue } from '@learnables/protocol';
import { LEARNABLES_URI } from '@learnables/protocol';
import type { InputPart, LearnableAgent, PinnedDefinitions, Reading, RunningAgent } from '@learnables/runtime';
import { InputRefused, startLearnableAgent } from '@learnables/runtime';
import type { Checklist, ClientCall } from './checklist.ts';
import { evaluateChecklist, formatChecklist } from './checklist.ts';

const COLLECTION = 'swatches';
/** The lesson field of a kind no client knows; a client must still render it (SPEC §1.7). */
export const UNKNOWN_FIELD = { name: 'tint', label: 'Tint', kind: 'colour' } as const;
const LESSON_FIELDS = [
  { name: 'note', label: 'Note', kind: 'text', help: 'The note, exactly as it was written.' },
  { ...UNKNOWN_FIELD, help: "A colour for the swatch, e.g. teal. No client knows the kind 'colour': it must show a text box." },
];
/** The tint every suggestion carries, so a client that leaves the form alone still sends one. */
const SUGGESTED_TINT = 'teal';

// ---------------------------------------------------------------------------------------------
// The learnable: a swatch knows notes, each with a tint.

interface SwatchNote {
  readonly note: string;
  readonly tint: string;
}

class Swatch extends Learnable {
  constructor(
    readonly key: string,
    readonly label: string,
    readonly notes: readonly SwatchNote[],
  ) {
    super();
  }

  knows(text: string): SwatchNote | undefined {
    const wanted = text.trim().toLowerCase();
    return this.notes.find((n) => n.note.toLowerCase() === wanted);
  }

  learn(value: LessonValue): Learned<Swatch> {
    const { note, tint } = value;
    if (typeof note !== 'string' || note.trim() === '')
      throw new UnlearnableValue('A swatch lesson needs a note: the text it should recognise.', { field: 'note' });
    if (tint === undefined || tint === null) {
      throw new UnlearnableValue(
        "This lesson has no tint: the 'tint' field (kind 'colour') was left out. A client must render every lesson field, as a text box when it does not know the kind.",
        { field: 'tint' },
      );
    }
    if (typeof tint !== 'string' || tint.trim() === '') throw new UnlearnableValue('The tint must be written as text, e.g. teal.', { field: 'tint' });
    if (this.knows(note)) return { next: this, changed: false };
    return { next: new Swatch(this.key, this.label, [...this.notes, { note: note.trim(), tint: tint.trim() }]), changed: true };
  }

  describes(value: LessonValue): string {
    return `${this.key} knows the note '${String(value.note)}', tinted ${String(value.tint)}`;
  }

  unlearn(value: LessonValue): Learned<Swatch> {
    const { note } = value;
    if (typeof note !== 'string' || note.trim() === '')
      throw new UnlearnableValue('A swatch lesson needs a note: the text it should recognise.', { field: 'note' });
    const known = this.knows(note);
    if (!known) return { next: this, changed: false };
    return {
      next: new Swatch(
        this.key,
        this.label,
        this.notes.filter((n) => n !== known),
      ),
      changed: true,
    };
  }

  describesRetraction(value: LessonValue): string {
    return `${this.key} no longer knows the note '${String(value.note)}'`;
  }

  toState(): { label: string; notes: readonly SwatchNote[] } {
    return { label: this.label, notes: this.notes };
  }
}

const swatchKind: LearnableKind<Swatch> = {
  collection: COLLECTION,
  fromState: (key, state) => {
    const s = (state ?? {}) as { label?: string; notes?: SwatchNote[] };
    return new Swatch(key, s.label ?? key, s.notes ?? []);
  },
  create: (key, label) => new Swatch(key, label, []),
};

// ---------------------------------------------------------------------------------------------
// The agent

interface NoteInput {
  readonly text: string;
}

/** The suggestion for a note: the note itself, exactly (no wider than its evidence), and the default tint. */
export const suggestFor = (text: string): Record<string, string> => ({ note: text.trim().slice(0, 500), tint: SUGGESTED_TINT });

function swatchesOf(pinned: PinnedDefinitions): Swatch[] {
  return (pinned.get(COLLECTION)?.entries ?? []).filter((e): e is Swatch => e instanceof Swatch);
}

function fakeAgent(onSuggest: (suggestion: Record<string, string>) => void): LearnableAgent<NoteInput, { swatch: string | null }> {
  return {
    name: 'learnables fake agent',
    description:
      'A client checklist as an agent: it asks which swatch any untaught note belongs to, declares a lesson field of a kind no client knows, and records what the client did (GET /checklist.txt).',
    version: '0.1.0',
    skill: {
      id: 'fake-swatches',
      name: 'Which swatch',
      description: 'Says which swatch a note belongs to; asks about any note it has not been taught.',
      examples: ['A note this agent has never seen'],
      inputModes: ['text/plain'],
    },
    declaration: {
      collection: COLLECTION,
      entry: 'swatch',
      teaches: 'which swatch a note belongs to',
      how: 'A note belongs to the swatch that was taught that exact note, ignoring case and surrounding spaces; for any other note I ask.',
      decidedBy: 'rules',
      // So the kit's checks of adding entries and of "none of these" run against it too.
      addsEntries: true,
      admitsNone: true,
      lessonFields: LESSON_FIELDS,
    },
    kinds: [swatchKind],
    bodyLimit: '1mb',
    parse(parts: readonly InputPart[]): NoteInput {
      const text = parts
        .map((part) =>
          part.kind === 'text'
            ? part.text
            : part.kind === 'file' && (part.mediaType ?? 'text/plain').startsWith('text/')
              ? Buffer.from(part.bytes).toString('utf8')
              : '',
        )
        .join(' ')
        .trim();
      if (text === '') throw new InputRefused('There is no text in this message: send the fake agent any text and it will ask about it.');
      return { text };
    },
    summarize: (input) => ({ text: input.text.slice(0, 200) }),
    read(input, pinned): Reading<{ swatch: string | null }> {
      const swatches = swatchesOf(pinned);
      for (const swatch of swatches) {
        const known = swatch.knows(input.text);
        if (known) {
          return {
            settled: true,
            findings: {
              swatch: {
                settled: true,
                winner: swatch.key,
                reads: `Belongs to ${swatch.label}: it was taught the note '${known.note}'.`,
                collection: COLLECTION,
              },
            },
            result: { swatch: swatch.key },
          };
        }
      }
      const suggested = suggestFor(input.text);
      onSuggest(suggested);
      return {
        settled: false,
        findings: { swatch: { settled: false, reads: 'Still cannot tell which swatch this note belongs to.', collection: COLLECTION } },
        question: {
          collection: COLLECTION,
          question: 'Which swatch does this note belong to?',
          entries: swatches.map((s) => ({ key: s.key, label: s.label })),
          suggested,
        },
      };
    },
    answer(_input, _pinned, _question, answer) {
      return {
        settled: true,
        findings: { swatch: { settled: true, winner: answer.entry, reads: `Belongs to ${answer.entry}, as the person answered.`, collection: COLLECTION } },
        result: { swatch: answer.entry },
      };
    },
    answerNone(_input, _pinned, _question, answer) {
      return {
        settled: true,
        findings: { swatch: { settled: true, reads: `Belongs to no swatch, as ${answer.answeredBy ?? 'the person'} answered.`, collection: COLLECTION } },
        result: { swatch: null },
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The recording proxy

const activatedBy = (headers: IncomingMessage['headers']): boolean =>
  [headers['a2a-extensions'], headers['x-a2a-extensions']]
    .flatMap((h) => (Array.isArray(h) ? h : [h ?? '']))
    .some((h) => h.split(',').some((uri) => uri.trim() === LEARNABLES_URI));

type Draft = ClientCall extends infer C ? (C extends ClientCall ? Omit<C, 'seq' | 'at'> : never) : never;

const isNewEntry = (params: unknown): boolean => typeof params === 'object' && params !== null && 'newEntry' in params;

/** What a call to the agent was, from its path and body. */
function classify(method: string, path: string, body: unknown, activated: boolean): Draft {
  const json = (typeof body === 'object' && body !== null ? body : {}) as { method?: unknown; params?: unknown; message?: unknown };
  const answerOf = (message: unknown) => {
    const m = (typeof message === 'object' && message !== null ? message : {}) as { taskId?: unknown; parts?: unknown };
    const taskId = typeof m.taskId === 'string' && m.taskId !== '' ? m.taskId : undefined;
    const data = Array.isArray(m.parts) ? m.parts.find((p: unknown) => typeof p === 'object' && p !== null && 'data' in p) : undefined;
    return { ...(taskId && { taskId }), ...(data && { answer: (data as { data: unknown }).data }) };
  };
  if (method === 'GET' && path.endsWith('/agent-card.json')) return { kind: 'card', activated };
  if (path === '/a2a/jsonrpc' && method === 'POST') {
    const rpc = String(json.method ?? '');
    const params = (typeof json.params === 'object' && json.params !== null ? json.params : {}) as { message?: unknown };
    if (['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream'].includes(rpc))
      return { kind: 'send', activated, via: `JSON-RPC ${rpc}`, ...answerOf(params.message) };
    if (rpc === 'learnables/reread') return { kind: 'reread', activated, via: `JSON-RPC ${rpc}` };
    // A new entry taught is no lesson: it has no value for the checklist to judge.
    if (rpc === 'learnables/teach' && !isNewEntry(json.params)) return { kind: 'lesson', activated, via: `JSON-RPC ${rpc}`, lesson: json.params };
    return { kind: 'other', activated, via: `JSON-RPC ${rpc || '(no method)'}` };
  }
  if (path.startsWith('/a2a/rest/') && method === 'POST') {
    if (/\/message:(send|stream)$/.test(path)) return { kind: 'send', activated, via: `REST ${path}`, ...answerOf(json.message) };
    if (path.endsWith('/learnables:reread')) return { kind: 'reread', activated, via: `REST ${path}` };
    if (path.endsWith('/learnables:teach') && !isNewEntry(body)) return { kind: 'lesson', activated, via: `REST ${path}`, lesson: body };
  }
  return { kind: 'other', activated, via: `${method} ${path}` };
}

export interface FakeAgentOptions {
  /** Port of the agent (and its checklist); default any free port. */
  readonly port?: number;
  /** Port of the embedded authority; default any free port. */
  readonly authorityPort?: number;
  readonly host?: string;
  /** The bearer token a client teaches with (the agent and the authority both accept it); default a random one. */
  readonly token?: string;
  /** Where the fake agent's and its authority's lines go. Default: nowhere. */
  readonly logger?: Logger;
}

export interface RunningFakeAgent {
  /** Where clients reach the agent (its card is at /.well-known/agent-card.json). */
  readonly url: string;
  /** The embedded authority: clients may POST /v1/lessons here instead of using the teach method. */
  readonly authorityUrl: string;
  /** The bearer token that may teach, on the agent and on the authority. */
  readonly token: string;
  readonly checklistUrl: string;
  /** The checklist as of now. */
  checklist(): Checklist;
  /** Forget every recorded call, to check another client (what was taught stays). */
  reset(): void;
  close(): Promise<void>;
}

async function listen(server: Server, port: number, host: string): Promise<number> {
  server.listen(port, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return (server.address() as AddressInfo).port;
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Start the fake agent, its embedded authority and the recording proxy in front of it. */
export async function startFakeAgent(options: FakeAgentOptions = {}): Promise<RunningFakeAgent> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? `fake-${randomBytes(9).toString('base64url')}`;
  const agentToken = `agent-${randomBytes(9).toString('base64url')}`;
  const logger = options.logger ?? silentLogger();
  const log = (message: string, error?: unknown) => logger.error({ err: error }, message);
  const dir = mkdtempSync(join(tmpdir(), 'learnables-fake-'));
  const calls: ClientCall[] = [];
  const suggestions = new Map<string, Record<string, string>>();
  const askedTasks = new Set<string>();
  let seq = 0;
  const record = (draft: Draft) => calls.push({ ...draft, seq: ++seq, at: new Date().toISOString() } as ClientCall);

  // The embedded authority, recording lessons posted to it directly (not those the agent relays).
  const authority = new Authority({ store: await openStore(`sqlite:${join(dir, 'authority.db')}`), kinds: [swatchKind] });
  await authority.seed(COLLECTION, { warm: { label: 'Warm swatches', notes: [] }, cool: { label: 'Cool swatches', notes: [] } }, 'the fake agent');
  const authorityApp = express();
  authorityApp.disable('x-powered-by');
  authorityApp.post(
    '/v1/lessons',
    express.json({ limit: '256kb' }),
    (error: { message?: string }, _req: Request, res: Response, _next: NextFunction) => {
      res.status(400).json({ error: 'malformed', message: `The body is not valid JSON: ${error.message ?? 'parse error'}.` });
    },
    (req: Request, _res: Response, next: NextFunction) => {
      if (req.get('authorization') !== `Bearer ${agentToken}`) {
        record({ kind: 'lesson', activated: activatedBy(req.headers), via: 'authority POST /v1/lessons', lesson: req.body as unknown });
      }
      next();
    },
  );
  authorityApp.use(authorityService({ authority, tokens: { [token]: 'client', [agentToken]: 'fake-agent' }, logger }));
  const authorityServer = createServer(authorityApp);
  const authorityPort = await listen(authorityServer, options.authorityPort ?? 0, host);
  const authorityUrl = `http://${host}:${authorityPort}`;

  // The proxy listens first, so the agent's card can name it as the agent's address.
  let agent: RunningAgent | undefined;
  const checklist = () =>
    evaluateChecklist(calls, {
      fieldNames: LESSON_FIELDS.map((f) => f.name),
      unknownField: UNKNOWN_FIELD,
      suggestions: [...suggestions.values()],
      askedTasks,
    });
  const front = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      if (req.method === 'GET' && (path === '/checklist' || path === '/checklist.json')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(checklist(), null, 2));
        return;
      }
      if (req.method === 'GET' && path === '/checklist.txt') {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(formatChecklist(checklist()));
        return;
      }
      if (req.method === 'POST' && path === '/checklist/reset') {
        calls.length = 0;
        res.writeHead(204).end();
        return;
      }
      let body: Buffer;
      try {
        body = await readBody(req, 2 * 1024 * 1024);
      } catch {
        res
          .writeHead(413, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'too-large', message: 'The fake agent takes requests up to 2 MB.' }));
        return;
      }
      let parsed: unknown;
      try {
        parsed = body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
      } catch {
        parsed = undefined;
      }
      record(classify(req.method ?? 'GET', path, parsed, activatedBy(req.headers)));
      // agent.url is the public (proxy) address; forward to where the runtime really listens.
      const upstream = agent!.server.address() as AddressInfo;
      const forward = httpRequest({ host: upstream.address, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        const chunks: Buffer[] = [];
        const streaming = String(answer.headers['content-type'] ?? '').includes('text/event-stream');
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          if (!streaming) chunks.push(chunk);
          res.write(chunk);
        });
        answer.on('end', () => {
          res.end();
          if (!streaming) noteAsked(Buffer.concat(chunks));
        });
      });
      forward.on('error', (error) => {
        log('fake agent: forwarding failed', error);
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'internal', message: 'The fake agent could not forward this request.' }));
      });
      forward.end(body);
    })();
  });
  // Remember which tasks asked, so an answer can be told from a new message.
  const noteAsked = (raw: Buffer) => {
    try {
      const json = JSON.parse(raw.toString('utf8')) as { result?: { task?: unknown } | unknown; task?: unknown };
      const result = (json as { result?: unknown }).result ?? json;
      const task = (typeof result === 'object' && result !== null && 'task' in result ? (result as { task: unknown }).task : result) as {
        id?: unknown;
        status?: { state?: unknown; message?: { metadata?: Record<string, unknown> } };
      };
      if (typeof task?.id === 'string' && (task.status?.state === 'TASK_STATE_INPUT_REQUIRED' || task.status?.state === 'input-required')) {
        askedTasks.add(task.id);
        const block = task.status?.message?.metadata?.[LEARNABLES_URI] as { suggested?: Record<string, string> } | undefined;
        if (block?.suggested) suggestions.set(JSON.stringify(block.suggested), block.suggested);
      }
    } catch {
      // not JSON, or not a task: nothing to note
    }
  };
  const frontPort = await listen(front, options.port ?? 0, host);
  const url = `http://${host}:${frontPort}`;

  try {
    agent = await startLearnableAgent(
      fakeAgent((suggested) => suggestions.set(JSON.stringify(suggested), suggested)),
      {
        store: `sqlite:${join(dir, 'agent.db')}`,
        authority: { url: authorityUrl, token: agentToken },
        users: { [token]: 'client' },
        publicUrl: url,
        host,
        logger,
      },
    );
  } catch (error) {
    front.close();
    authorityServer.close();
    await authority.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    url,
    authorityUrl,
    token,
    checklistUrl: `${url}/checklist.txt`,
    checklist,
    reset() {
      calls.length = 0;
    },
    async close() {
      front.closeAllConnections();
      authorityServer.closeAllConnections();
      await Promise.all([new Promise((resolve) => front.close(resolve)), new Promise((resolve) => authorityServer.close(resolve))]);
      await agent?.close();
      await authority.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What the CLI prints when the fake agent is up. */
export function describeFakeAgent(fake: RunningFakeAgent): string {
  return [
    'learnables fake agent: a client checklist as an agent',
    `  agent      ${fake.url}  (card at /.well-known/agent-card.json; JSON-RPC at /a2a/jsonrpc, REST at /a2a/rest)`,
    `  authority  ${fake.authorityUrl}  (POST /v1/lessons: a client may post lessons here instead of to the teach method)`,
    `  token      ${fake.token}  (Authorization: Bearer …; needed to teach, on the agent and on the authority)`,
    `  checklist  ${fake.checklistUrl}  (JSON at ${fake.url}/checklist; POST ${fake.url}/checklist/reset to start over)`,
    '',
    'Send it any text: it asks which swatch the note belongs to, with a suggestion. Its lesson form has a field',
    "of kind 'colour', which no client knows: render it as a text box, post the lesson, then reread.",
    'Ctrl-C to stop.',
    '',
  ].join('\n');
}
