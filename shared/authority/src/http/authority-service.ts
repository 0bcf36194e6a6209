import { traceRequests } from '@learnables/tracing';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import express from 'express';
import { z } from 'zod';
import type { Refusal } from '@learnables/protocol';
import { MAX_NAME_LENGTH, explainInvalid, readableName, refuseDeepJson, unreadableIn } from '@learnables/protocol';
import { COMMIT_WAIT_HEADER, ON_BEHALF_OF_HEADER } from '../client/authority-client.ts';
import type { Authority } from '../authority.ts';
import type { Activation } from '../store/definition-store.ts';
import { DelayedDelivery } from '../commit-wait.ts';
import { BadRequest, NothingActive } from '../errors.ts';
import { refusalFor } from './refusals.ts';
import type { TokenNames } from './bearer-tokens.ts';
import { BearerTokens, bearerChallenge, bearerTokenOf } from './bearer-tokens.ts';
import { allowedHosts, requireAllowedHost } from './allowed-hosts.ts';
import { quickActive } from './quick-active.ts';
import type { ChangeStreamLimits } from './change-streams.ts';
import { ChangeStreams } from './change-streams.ts';
import type { Logger } from '../observe/logger.ts';
import { createLogger } from '../observe/logger.ts';
import { ServiceMetrics } from '../observe/service-metrics.ts';
import { observeHttp, requestLogger } from '../observe/http-observer.ts';
import { readinessHandler } from '../observe/readiness.ts';

export interface AuthorityServiceOptions {
  authority: Authority;
  /** Bearer tokens allowed to write, each with the client name recorded on its activations. */
  tokens: TokenNames | BearerTokens;
  /**
   * Host names (or origins) the service answers to besides the loopback names, e.g. `authority`
   * inside docker-compose. Other Host headers are refused (DNS rebinding). Default: loopback only.
   */
  hosts?: string | readonly string[];
  /** Largest request body accepted; lessons are small. Default 256 kB. */
  bodyLimit?: string;
  /** Where access lines and unexpected errors are written. Default: JSON lines on stdout at LOG_LEVEL (createLogger). */
  logger?: Logger;
  /** The registry /metrics answers from. Default: a new one for this service. */
  metrics?: ServiceMetrics;
  /** How often the change feed sends a keep-alive comment. Default 15 s. */
  heartbeatMs?: number;
  /** How many change streams stay open, in all and to one address (change-streams.ts). */
  changeStreams?: ChangeStreamLimits;
}

/** When a refused change stream is worth asking for again. */
const CHANGE_STREAM_RETRY_SECONDS = 30;

const RollbackSchema = z.object({
  version: z.number().int().positive(),
  author: readableName('author'),
  reason: z.string().regex(/\S/, 'reason must not be empty'),
});

/** Each refusal's `error` code, counted as `learnables_refusals_total{reason}` on the response's way out. */
const refusalReasons = new WeakMap<Response, string>();
const refuse = (res: Response, status: number, body: Refusal) => {
  refusalReasons.set(res, body.error);
  return res.status(status).json(body);
};

const MAX_NAME = MAX_NAME_LENGTH;

/** The user a relaying client names (percent-encoded), undefined if none, or the refusal of an unusable name. */
function onBehalfOf(header: string | undefined): string | undefined | Refusal {
  if (header === undefined) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(header).trim();
  } catch {
    return { error: 'malformed', message: `The ${ON_BEHALF_OF_HEADER} header is not percent-encoded text; nothing was written.` };
  }
  const unreadable = unreadableIn(name);
  if (name === '' || name.length > MAX_NAME || unreadable) {
    return {
      error: 'malformed',
      message: `The ${ON_BEHALF_OF_HEADER} header must name a user in 1 to ${MAX_NAME} characters${unreadable ? `; it contains ${unreadable}` : ''}; nothing was written.`,
    };
  }
  return name;
}

/**
 * The authority over HTTP. Reads are open; writes (lessons, rollback) need a bearer token. Every
 * refusal is a Refusal body whose message is a sentence (SPEC.md §3.4).
 */
export function authorityService(options: AuthorityServiceOptions): express.Express {
  const { authority } = options;
  const tokens = options.tokens instanceof BearerTokens ? options.tokens : new BearerTokens(options.tokens);
  const logger = options.logger ?? createLogger({ service: 'authority' });
  const log = (message: string, error: unknown, req?: Request) => (req ? requestLogger(req, logger) : logger).error({ err: error }, message);
  const metrics = options.metrics ?? new ServiceMetrics('authority');
  const lessons = metrics.counter('learnables_lessons_total', 'Lessons this authority instance absorbed, by collection and whether they changed it.', [
    'collection',
    'changed',
  ]);
  const activations = metrics.counter(
    'learnables_activations_total',
    'Versions this authority instance activated, by collection and kind (lesson, entry-added, retraction, rollback).',
    ['collection', 'kind'],
  );
  const refusals = metrics.counter('learnables_refusals_total', "Requests this authority instance refused, by the refusal's error code (SPEC §3.4).", [
    'reason',
  ]);
  const activated = (collection: string, kind: string, changed: boolean) => {
    if (changed) activations.inc({ collection, kind });
  };
  const observe = observeHttp({ logger, metrics, mounts: ['/v1/changes'] });
  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    observe(req, res);
    res.once('finish', () => {
      const reason = refusalReasons.get(res);
      if (reason !== undefined) refusals.inc({ reason });
    });
    next();
  });
  const hosts = allowedHosts(options.hosts);
  app.use(traceRequests('authority'));
  app.use(requireAllowedHost(hosts, 'authority'));
  app.use(express.json({ limit: options.bodyLimit ?? '256kb', verify: refuseDeepJson }));

  const requireToken = (req: Request, res: Response, next: NextFunction) => {
    const token = bearerTokenOf(req.get('authorization'));
    const client = tokens.nameOf(token);
    if (client === undefined) {
      res.set('WWW-Authenticate', bearerChallenge('learnables-authority', req.get('authorization')));
      refuse(res, 401, {
        error: 'unauthorized',
        message: token
          ? 'That token is not one this authority accepts; nothing was written.'
          : 'Writing to the authority needs a bearer token; nothing was written.',
      });
      return;
    }
    const relayedFor = onBehalfOf(req.get(ON_BEHALF_OF_HEADER));
    if (typeof relayedFor === 'object') {
      refuse(res, 400, relayedFor);
      return;
    }
    // The token's own name stays in the record: a relaying client vouches for the user, it cannot pose as another client.
    res.locals.client = relayedFor === undefined ? client : `${relayedFor} via ${client}`;
    next();
  };

  const handle =
    (work: (req: Request, res: Response) => Promise<unknown>) =>
    async (req: Request, res: Response): Promise<void> => {
      try {
        await work(req, res);
      } catch (error) {
        const refusal = refusalFor(error);
        if (refusal.status >= 500) log(`${req.method} ${req.path} failed`, error, req);
        refuse(res, refusal.status, refusal.body);
      }
    };

  const versionParam = (raw: string | undefined): number => {
    const version = Number(raw);
    if (!Number.isInteger(version) || version < 1) {
      throw new BadRequest(`"${String(raw)}" is not a version number; versions are whole numbers from 1.`);
    }
    return version;
  };

  const wholeQuery = (raw: unknown, name: string, meaning: string): number => {
    const text = typeof raw === 'string' ? raw : '';
    if (!/^[1-9]\d{0,15}$/.test(text)) throw new BadRequest(`?${name}=${String(raw)} is not a whole number from 1; ${name} is ${meaning}.`);
    return Number(text);
  };

  // Liveness: the process answers. Readiness: its store answers a query too.
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true, engine: authority.store.engine, collections: authority.collections });
  });
  app.get(
    '/readyz',
    readinessHandler('authority', [
      {
        name: 'store',
        check: async () => {
          try {
            await authority.store.collections();
            return undefined;
          } catch (error) {
            return `its ${authority.store.engine === 'postgres' ? 'PostgreSQL' : 'SQLite'} store does not answer (${(error as Error).message}), so it can neither say which versions are active nor record a lesson.`;
          }
        },
      },
    ]),
  );
  app.get('/metrics', metrics.handler());

  app.get(
    '/v1/collections',
    handle(async (_req, res) => {
      const collections = await Promise.all(
        authority.collections.map(async (collection) => {
          const active = await authority.active(collection).catch(() => undefined);
          return { collection, activeVersion: active?.version ?? null };
        }),
      );
      res.json({ collections });
    }),
  );

  const sendDefinition = async (res: Response, collection: string, version: number) => {
    const definition = await authority.resolve(collection, version);
    res.json({
      collection,
      version,
      entries: definition.entries.map((entry) => ({ key: entry.key, label: entry.label, state: entry.toState() })),
    });
  };

  // Every answer says how long this authority holds back an activation after committing it, so an
  // agent knows for how long after sending this request it may reuse the answer (SPEC §4.4).
  app.get(
    '/v1/collections/:collection/active',
    handle(async (req, res) => {
      res.set(COMMIT_WAIT_HEADER, String(authority.commitWaitMs));
      res.json(await authority.active(String(req.params.collection)));
    }),
  );

  app.get(
    '/v1/collections/:collection/definition',
    handle(async (req, res) => {
      const collection = String(req.params.collection);
      await sendDefinition(res, collection, (await authority.active(collection)).version);
    }),
  );

  app.get(
    '/v1/collections/:collection/versions/:version',
    handle(async (req, res) => {
      const collection = String(req.params.collection);
      const version = versionParam(String(req.params.version));
      // ?since=u: only the entries changed since version u, when u is an ancestor of this
      // version; an agent that has u then builds this one without fetching every entry again.
      if (req.query.since !== undefined) {
        const since = versionParam(String(req.query.since));
        const changed = await authority.changedSince(collection, since, version);
        if (changed !== undefined) {
          const { entries, size } = changed;
          res.json({ collection, version, since, size, entries: entries.map((entry) => ({ key: entry.key, label: entry.label, state: entry.toState() })) });
          return;
        }
      }
      await sendDefinition(res, collection, version);
    }),
  );

  app.get(
    '/v1/collections/:collection/history',
    handle(async (req, res) => {
      const limit = req.query.limit === undefined ? undefined : Math.min(1000, wholeQuery(req.query.limit, 'limit', 'how many activations to list'));
      const before = req.query.before === undefined ? undefined : wholeQuery(req.query.before, 'before', 'an activation id; the list continues below it');
      res.json({ activations: await authority.history(String(req.params.collection), { limit, before }) });
    }),
  );

  app.get(
    '/v1/collections/:collection/active-at',
    handle(async (req, res) => {
      const raw = String(req.query.time ?? '');
      const at = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
      if (Number.isNaN(at)) throw new BadRequest(`"${raw}" is not a time; give an ISO 8601 time or epoch milliseconds as ?time=.`);
      const collection = String(req.params.collection);
      const activation = await authority.activeAt(collection, at);
      if (!activation) throw new NothingActive(collection, at);
      res.json(activation);
    }),
  );

  app.post(
    '/v1/lessons',
    requireToken,
    handle(async (req, res) => {
      const outcome = await authority.absorb(req.body, res.locals.client as string);
      lessons.inc({ collection: outcome.collection, changed: String(outcome.changed) });
      activated(outcome.collection, 'lesson', outcome.changed);
      res.json(outcome);
    }),
  );

  app.post(
    '/v1/entries',
    requireToken,
    handle(async (req, res) => {
      const outcome = await authority.addEntry(req.body, String(res.locals.client));
      activated(outcome.collection, 'entry-added', outcome.changed);
      res.json(outcome);
    }),
  );

  app.post(
    '/v1/retractions',
    requireToken,
    handle(async (req, res) => {
      const outcome = await authority.retract(req.body, String(res.locals.client));
      activated(outcome.collection, 'retraction', outcome.changed);
      res.json(outcome);
    }),
  );

  // Read-only: what a rollback to ?version= would take out of effect, for the form that confirms it.
  app.get(
    '/v1/collections/:collection/rollback-preview',
    handle(async (req, res) => {
      res.json(await authority.rollbackPreview(String(req.params.collection), versionParam(String(req.query.version ?? ''))));
    }),
  );

  app.post(
    '/v1/collections/:collection/rollback',
    requireToken,
    handle(async (req, res) => {
      const parsed = RollbackSchema.safeParse(req.body);
      if (!parsed.success) {
        refuse(res, 400, { error: 'malformed', message: `That rollback cannot be read: ${explainInvalid(parsed.error)}.` });
        return;
      }
      const outcome = await authority.rollback(String(req.params.collection), parsed.data, res.locals.client as string);
      activated(outcome.collection, 'rollback', outcome.changed);
      res.json(outcome);
    }),
  );

  const changeStreams = new ChangeStreams(options.changeStreams);
  app.get('/v1/changes', (req, res) => {
    const stream = changeStreams.take(req.socket.remoteAddress ?? '');
    if ('refused' in stream) {
      res.set('retry-after', String(CHANGE_STREAM_RETRY_SECONDS));
      refuse(res, 503, { error: 'busy', message: stream.refused });
      return;
    }
    const only = typeof req.query.collection === 'string' ? req.query.collection : undefined;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    // Each event is written the commit wait after the store reported it (in order), as a writer
    // is answered: an activation is never announced sooner than it is acknowledged, so a message
    // sent on seeing it still pins it (SPEC §4.4). The snapshot waits as long after it was read:
    // it may hold an activation committed just before.
    const feed = new DelayedDelivery<{ readonly event: string; readonly data: unknown }>(authority.commitWaitMs, ({ event, data }) => send(event, data));
    /**
     * Each collection's activation in the snapshot, once it is read. A notice of an activation it
     * holds, or an older one, is no news (PostgreSQL's NOTIFY of a write committed just before the
     * watch began can come after the read): announced, it would read as the collection changing
     * again. Activations of a collection are written one at a time, so their ids grow in order.
     */
    let inSnapshot: Map<string, number> | undefined;
    const held = (activation: Activation) => activation.id <= (inSnapshot?.get(activation.collection) ?? -1);
    const unsubscribe = authority.store.onActivation((activation) => {
      if ((only && activation.collection !== only) || held(activation)) return;
      feed.push({ event: 'activation', data: activation });
    });
    // After subscribing, so an activation made meanwhile is sent rather than missed.
    void Promise.all(
      authority.collections.filter((collection) => !only || collection === only).map((collection) => authority.active(collection).catch(() => undefined)),
    ).then((read) => {
      const actives = read.filter((a) => a !== undefined);
      inSnapshot = new Map(actives.map((active) => [active.collection, active.id]));
      // Those noticed between subscribing and the read, not yet sent, are in the snapshot too.
      feed.drop(({ event, data }) => event === 'activation' && held(data as Activation));
      feed.push({ event: 'active', data: actives });
    });
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), options.heartbeatMs ?? 15_000);
    // The response's close, which comes when the caller goes (or the stream is ended), releases its place.
    res.on('close', stream.release);
    req.on('close', () => {
      clearInterval(heartbeat);
      feed.stop();
      unsubscribe();
    });
  });

  app.use((req: Request, res: Response) => {
    refuse(res, 404, { error: 'not-found', message: `The authority has no ${req.method} ${req.path}. See shared/authority/README.md for its endpoints.` });
  });

  // Errors from express.json (a body too large, or one that is not JSON) and its router (a path
  // that does not decode), and anything else: every one a JSON sentence, whatever NODE_ENV says.
  app.use((error: { type?: string; status?: number; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error.type === 'entity.too.large') {
      refuse(res, 413, {
        error: 'too-large',
        message: `That request is larger than the authority accepts (${options.bodyLimit ?? '256kb'}); nothing was written.`,
      });
    } else if (error.type === 'entity.parse.failed') {
      refuse(res, 400, { error: 'malformed', message: `The body is not valid JSON: ${error.message ?? 'parse error'}.` });
    } else if (error.type === 'entity.too.deep') {
      refuse(res, 400, { error: 'malformed', message: error.message ?? 'The request nests too deep; nothing was written.' });
    } else if (error instanceof URIError || (error.status === 400 && /decode/i.test(error.message ?? ''))) {
      // express's router could not decode a path segment: the caller's to fix, said as much (never its stack).
      refuse(res, 400, {
        error: 'malformed',
        message: 'That address is not percent-encoded text (a % must be followed by two hex digits of UTF-8); nothing was read or written.',
      });
    } else if (error.status !== undefined && error.status >= 400 && error.status < 500) {
      refuse(res, error.status, { error: 'malformed', message: 'The authority could not read that request; nothing was written.' });
    } else {
      log('request failed', error, _req);
      refuse(res, 500, { error: 'internal', message: 'The authority failed to handle this request; nothing was written. See its log.' });
    }
  });

  // The question every agent asks about once per commit wait is answered before express's
  // routing when express would answer it alike (quick-active.ts says when, and why). Replacing
  // `handle` serves both ways the app is used: listened on, and mounted in another app.
  // The observer runs first for those too: each gets its request id and its access line.
  const quick = quickActive(authority, hosts, (message, error) => log(message, error));
  const routed = app as unknown as { handle: (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void };
  const viaExpress = routed.handle.bind(app);
  routed.handle = (req, res, next) => {
    observe(req, res);
    if (quick(req, res)) (req as { route?: unknown }).route = { path: '/v1/collections/:collection/active' };
    else viaExpress(req, res, next);
  };
  return app;
}
