import type { Request, Response } from 'express';
import express from 'express';
import type { AuthorityClient } from '@learnables/authority';
import { nameProblem } from '@learnables/protocol';
import type { AnswerRequest, CorrectionRequest, LessonRequest, PreviewRequest } from '../api-types.ts';
import type { AgentDirectory } from '../agents/agent-directory.ts';
import { statsAcross } from '../agents/agent-stats.ts';
import { ConsoleError } from '../console-error.ts';
import { collectionsOf, entryOf, historyOf, retractLesson, rollBack, rollbackPreviewOf } from '../history/collections.ts';
import { LessonsTakenBack } from '../history/taken-back.ts';
import { answerQuestion, teachOnTask } from '../lessons/answer-question.ts';
import { previewLesson } from '../lessons/preview-lesson.ts';
import { rereadTask } from '../lessons/reread.ts';
import { agentsAccepting } from '../media/media-types.ts';
import type { LiveQuestions } from '../tasks/live-questions.ts';
import { decisionsAcross, questionsAcross, sendToAgent, taskOf } from '../tasks/agent-tasks.ts';
import { correctionsOf, correctTask } from '../tasks/corrections.ts';
import { jsonErrors } from './json-errors.ts';
import { liveEvents } from './live-events.ts';
import type { ConsoleSessions } from './session.ts';
import { operatorOf, requireOperator } from './session.ts';

export interface ApiDeps {
  readonly directory: AgentDirectory;
  readonly authority: AuthorityClient;
  /** The waiting questions kept current for open tabs; told to look again after the console changes something. */
  readonly live: LiveQuestions;
  readonly sessions: ConsoleSessions;
  readonly maxUploadBytes: number;
  readonly log: (message: string, error?: unknown) => void;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function text(body: unknown, name: string, sentence: string): string {
  const value = isObject(body) ? body[name] : undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new ConsoleError(400, 'malformed', sentence, name);
  return value;
}

/** The lesson form's values: strings keyed by field name, passed on exactly as typed. */
function formValues(raw: unknown): Record<string, string> {
  if (!isObject(raw) || !Object.values(raw).every((value) => typeof value === 'string')) {
    throw new ConsoleError(400, 'malformed', 'A lesson value is the form’s fields, each a string, keyed by field name.');
  }
  return raw as Record<string, string>;
}

function lessonPart(body: unknown): AnswerRequest['lesson'] {
  const lesson = isObject(body) ? body.lesson : undefined;
  if (lesson === undefined || lesson === null) return undefined;
  return {
    value: formValues(isObject(lesson) ? lesson.value : undefined),
    reason: text(lesson, 'reason', 'Say why, so the history can tell the next person.'),
  };
}

/** Exactly one of: an entry of the question, "none of these", or a new entry by its label. */
function answerRequest(body: unknown): AnswerRequest {
  const lesson = lessonPart(body);
  if (isObject(body) && body.none === true) return { none: true, ...(lesson && { lesson }) };
  if (isObject(body) && body.newEntry !== undefined) {
    const label = text(body.newEntry, 'label', 'Name the new one first.');
    // The protocol's one rule for names and labels (SPEC §3.1), said before anything is sent.
    const problem = nameProblem(label);
    if (problem) throw new ConsoleError(400, 'malformed', `The new one's name ${problem}; nothing was sent.`, 'new-entry');
    return { newEntry: { label: label.trim() }, ...(lesson && { lesson }) };
  }
  return { entry: text(body, 'entry', 'Choose an answer first.'), ...(lesson && { lesson }) };
}

/** `{ version, reason }` of a change to the history (rollback, take back), each refused in its own sentence. */
function versionAndReason(body: unknown, noVersion: string, noReason: string): { version: number; reason: string } {
  const version = isObject(body) ? Number(body.version) : Number.NaN;
  if (!Number.isInteger(version) || version < 1) throw new ConsoleError(400, 'malformed', noVersion, 'version');
  return { version, reason: text(body, 'reason', noReason) };
}

/** Which finding was wrong and what it should have been (an entry, or none), with the reason. */
function correctionRequest(body: unknown): CorrectionRequest {
  const finding = text(body, 'finding', 'Say which decision was wrong.');
  const reason = text(body, 'reason', 'Say why it was wrong, so the next person can tell.');
  if (isObject(body) && body.none === true) return { finding, none: true, reason };
  const entry = text(body, 'entry', 'Choose what it should have been.');
  if (entry.length > 200) throw new ConsoleError(400, 'malformed', 'That is longer than 200 characters; shorten it.', 'entry');
  return { finding, entry: entry.trim(), reason };
}

function previewRequest(body: unknown): PreviewRequest {
  const reason = isObject(body) && typeof body.reason === 'string' ? body.reason : undefined;
  return {
    entry: isObject(body) && typeof body.entry === 'string' ? body.entry : '',
    value: formValues(isObject(body) ? body.value : undefined),
    ...(reason !== undefined && { reason }),
  };
}

function lessonRequest(body: unknown): LessonRequest {
  return {
    entry: isObject(body) && typeof body.entry === 'string' ? body.entry : '',
    value: formValues(isObject(body) ? body.value : undefined),
    reason: text(body, 'reason', 'Say why, so the history can tell the next person.'),
  };
}

/**
 * The console's JSON API (documented in shared/console/README.md). Every error is
 * `{ error, message, field? }` with a sentence a person can act on.
 */
export function apiRoutes(deps: ApiDeps): express.Router {
  const { directory, authority } = deps;
  const api = express.Router();
  const json = express.json({ limit: '1mb' });
  const takenBack = new LessonsTakenBack(authority);

  const handle =
    (work: (req: Request, res: Response) => Promise<unknown>, changes = false) =>
    async (req: Request, res: Response): Promise<void> => {
      try {
        const result = await work(req, res);
        // An answer or a new message changes what is waiting: open tabs hear of it now, not at the next look.
        if (changes) deps.live.nudge();
        if (!res.headersSent) res.json(result);
      } catch (error) {
        if (error instanceof ConsoleError) {
          res.status(error.status).json(error.toJSON());
          return;
        }
        deps.log(`console: ${req.method} ${req.path} failed`, error);
        res.status(500).json({ error: 'internal', message: 'The console failed to handle this; nothing was written. See its log.' });
      }
    };

  api.get(
    '/session',
    handle(async (_req, res) => ({ operator: operatorOf(res) ?? null })),
  );
  api.post(
    '/session',
    json,
    handle(async (req, res) => ({ operator: await deps.sessions.signIn(req, res, req.body) })),
  );
  api.delete(
    '/session',
    handle(async (req, res) => {
      deps.sessions.signOut(req, res);
      return { operator: null };
    }),
  );

  api.get(
    '/agents',
    handle(async () => ({ agents: await directory.views() })),
  );
  api.get(
    '/questions',
    handle(async () => questionsAcross(directory)),
  );
  api.get('/events', liveEvents(deps.live, deps.sessions));
  api.get(
    '/decisions',
    handle(async (req) => decisionsAcross(directory, Math.min(100, Math.max(1, Number(req.query.limit) || 10)))),
  );
  api.get(
    '/stats',
    handle(async () => statsAcross(directory, takenBack)),
  );

  api.get(
    '/agents/:agent/tasks/:task',
    handle(async (req) => taskOf(await directory.connect(String(req.params.agent)), String(req.params.task), authority)),
  );
  // What the agent reads in the task's input under the version active now, field by field in its
  // own words: beside a question, it shows what the agent already decided (reread writes nothing).
  api.get(
    '/agents/:agent/tasks/:task/readings',
    handle(async (req) => rereadTask(directory, await directory.connect(String(req.params.agent)), String(req.params.task))),
  );
  api.post(
    '/agents/:agent/tasks/:task/answer',
    json,
    handle(async (req, res) => answerQuestion(deps, String(req.params.agent), String(req.params.task), answerRequest(req.body), requireOperator(res)), true),
  );
  // Read-only (nothing is written anywhere), but it carries a lesson's value: same guards as a write.
  api.post(
    '/agents/:agent/tasks/:task/preview',
    json,
    handle(async (req, res) => previewLesson(directory, String(req.params.agent), String(req.params.task), previewRequest(req.body), requireOperator(res))),
  );
  api.post(
    '/agents/:agent/tasks/:task/lessons',
    json,
    handle(async (req, res) => teachOnTask(deps, String(req.params.agent), String(req.params.task), lessonRequest(req.body), requireOperator(res)), true),
  );

  // Corrections of a decided task (SPEC §6.7): recorded by the agent beside the task, never rewriting it.
  api.get(
    '/agents/:agent/tasks/:task/corrections',
    handle(async (req) => correctionsOf(directory, authority, await directory.connect(String(req.params.agent)), String(req.params.task))),
  );
  api.post(
    '/agents/:agent/tasks/:task/corrections',
    json,
    handle(async (req, res) => {
      const operator = requireOperator(res);
      const request = correctionRequest(req.body);
      return correctTask(directory, await directory.connect(String(req.params.agent)), String(req.params.task), request, operator);
    }),
  );

  api.post(
    '/agents/:agent/notes',
    json,
    handle(async (req, res) => {
      requireOperator(res);
      const note = text(req.body, 'text', 'Write something to send.');
      const agent = await directory.connect(String(req.params.agent));
      if (agentsAccepting([agent.view], 'text/plain').length === 0) {
        throw new ConsoleError(
          415,
          'unsupported-media-type',
          `${agent.card.name} does not read plain text; its card lists ${agent.view.accepts.join(', ') || 'nothing'}.`,
        );
      }
      return { task: await sendToAgent(agent, [{ text: note }]) };
    }, true),
  );

  api.post(
    '/agents/:agent/files',
    express.raw({ type: () => true, limit: deps.maxUploadBytes }),
    handle(async (req, res) => {
      requireOperator(res);
      const filename = typeof req.query.filename === 'string' ? req.query.filename.trim() : '';
      if (filename === '') throw new ConsoleError(400, 'malformed', 'Name the file (?filename=) so the agent knows what it is reading.');
      const mediaType = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const agent = await directory.connect(String(req.params.agent));
      if (mediaType === '' || agentsAccepting([agent.view], mediaType).length === 0) {
        throw new ConsoleError(
          415,
          'unsupported-media-type',
          `${agent.card.name} does not read ${mediaType || 'files of unknown type'}; its card lists ${agent.view.accepts.join(', ') || 'nothing'}.`,
        );
      }
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (bytes.length === 0) throw new ConsoleError(400, 'malformed', `${filename} is empty; there is nothing to send.`);
      return { task: await sendToAgent(agent, [{ raw: bytes.toString('base64'), mediaType, filename }]) };
    }, true),
  );

  api.get(
    '/collections',
    handle(async () => ({ collections: await collectionsOf(authority, directory) })),
  );
  api.get(
    '/collections/:collection/history',
    handle(async (req) => historyOf(authority, String(req.params.collection))),
  );
  api.get(
    '/collections/:collection/rollback-preview',
    handle(async (req) => {
      const version = Number(req.query.version);
      if (!Number.isInteger(version) || version < 1) throw new ConsoleError(400, 'malformed', 'Choose the version to roll back to.', 'version');
      return rollbackPreviewOf(authority, String(req.params.collection), version);
    }),
  );
  api.get(
    '/collections/:collection/entries/:entry',
    handle(async (req) => entryOf(authority, String(req.params.collection), String(req.params.entry))),
  );
  api.post(
    '/collections/:collection/retractions',
    json,
    handle(async (req, res) => {
      const operator = requireOperator(res);
      const { version, reason } = versionAndReason(
        req.body,
        'Choose the lesson to take back.',
        'Say why you take it back, so the history can tell the next person.',
      );
      return retractLesson(authority, String(req.params.collection), version, reason, operator);
    }),
  );
  api.post(
    '/collections/:collection/rollback',
    json,
    handle(async (req, res) => {
      const operator = requireOperator(res);
      const { version, reason } = versionAndReason(
        req.body,
        'Choose the version to roll back to.',
        'Say why you roll back, so the history can tell the next person.',
      );
      return rollBack(authority, String(req.params.collection), version, reason, operator);
    }),
  );

  api.use((req: Request, res: Response) => {
    res.status(404).json({ error: 'not-found', message: `The console has no ${req.method} /api${req.path}. See shared/console/README.md for its API.` });
  });
  // body-parser drains a body over its limit before this answers, so the browser reads the 413.
  api.use(jsonErrors(deps.log));
  return api;
}
