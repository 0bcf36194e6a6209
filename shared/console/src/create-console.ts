import { traceRequests } from '@learnables/tracing';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Logger, ReadinessCheck } from '@learnables/authority';
import { AuthorityClient, ServiceMetrics, allowedHosts, cached, createLogger, observeHttp, readinessHandler, requireAllowedHost } from '@learnables/authority';
import { requireJsonBody, requireSameOrigin } from './http/request-guards.ts';
import { jsonErrors } from './http/json-errors.ts';
import { AgentDirectory } from './agents/agent-directory.ts';
import { apiRoutes } from './http/api-routes.ts';
import { bundleUi } from './http/ui-assets.ts';
import { LiveQuestions } from './tasks/live-questions.ts';
import type { AccountOptions } from './http/session.ts';
import { ConsoleSessions, requireSignedIn } from './http/session.ts';
import type { ReplayAction } from './http/replay-job.ts';
import { replayRoutes } from './http/replay-job.ts';
import { statsAcross } from './agents/agent-stats.ts';

export interface ConsoleOptions {
  /** The agents the console serves, by base URL (the one `/.well-known/agent-card.json` is under). */
  agents: readonly { url: string }[];
  /** The authority lessons and rollbacks are written to, with a bearer token it accepts for writes. */
  authority: { url: string; token: string };
  /** Bearer token sent to the agents. Tasks are owner-scoped: the console sees the tasks of the identity this token maps to. */
  agentToken?: string;
  /**
   * Who may sign in, and how sessions are signed: the users file (`name:hash` lines with scrypt
   * hashes, written by `pnpm console-user`) and a secret of at least 32 bytes for the cookies.
   */
  accounts: AccountOptions;
  /** Default: a free port. */
  port?: number;
  /** Default: 127.0.0.1. */
  host?: string;
  /**
   * The origins (or host names) operators open the console at, besides the loopback names, e.g.
   * `https://console.example`. Any other Host is refused (DNS rebinding), and so is a write whose
   * Origin is not the console's own (CSRF).
   */
  origins?: string | readonly string[];
  /**
   * Largest file accepted on Send. Default 25 MB: the agents' default body limit (40 MB) must
   * still hold the file once it is base64-encoded into a message, which grows it by a third.
   */
  maxUploadBytes?: number;
  /** A job offered as a button on the dashboard (the composition root passes the scenario replay). */
  replay?: ReplayAction;
  /** How often the agents are asked what changed while a console tab is open. Default 2 s. */
  livePollMs?: number;
  /** Where access lines and errors go, one JSON object a line. Default: createLogger at LOG_LEVEL, on stdout. */
  logger?: Logger;
  /** How long /readyz keeps its answer of whether the authority and agents answer. Default 2 s. */
  readinessCacheMs?: number;
}

export interface RunningConsole {
  readonly url: string;
  readonly server: Server;
  /** The console's Prometheus series (also at /metrics). */
  readonly metrics: ServiceMetrics;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  // Everything is served from here: no CDN, no inline script, nothing from the internet.
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const ANSWER_PATH = /^\/api\/agents\/[^/]+\/tasks\/[^/]+\/answer$/;

/** Whether a service's /readyz says it is ready: undefined if so, else what is wrong, in a sentence. */
async function readyAt(what: string, base: string): Promise<string | undefined> {
  const url = `${base.replace(/\/+$/, '')}/readyz`;
  let response: globalThis.Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(1_500) });
  } catch (error) {
    return `${what} at ${base} cannot be reached (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name}).`;
  }
  if (response.ok) {
    await response.body?.cancel();
    return undefined;
  }
  const said = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined;
  return `${what} at ${base} is not ready (HTTP ${response.status}${typeof said?.message === 'string' ? `: ${said.message}` : ''}).`;
}

/**
 * The console needs the authority for every lesson and rollback: without it, not ready. Each
 * agent is shown but not required: the console still serves the others (and says which is down).
 */
function consoleReadiness(authorityUrl: string, agents: readonly { url: string }[], cacheMs: number): ReadinessCheck[] {
  const authority = cached(async () => {
    const down = await readyAt('the authority', authorityUrl);
    return down === undefined ? undefined : `${down} No lesson, answer with a lesson, or rollback can be written.`;
  }, cacheMs);
  return [
    { name: 'authority', check: authority },
    ...agents.map((agent, i) => ({ name: `agent ${i + 1}`, required: false, check: cached(() => readyAt('the agent', agent.url), cacheMs) })),
  ];
}

/** Start the operator console: its UI, bundled at start, and its JSON API under /api. */
export async function createConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const logger = options.logger ?? createLogger({ service: 'console' });
  const log = (message: string, error?: unknown) => logger.error({ err: error }, message);
  const metrics = new ServiceMetrics('console');
  const signIns = metrics.counter(
    'learnables_console_sign_ins_total',
    'Sign-ins tried on this console, by outcome: signed-in, refused (a wrong name or password, or too many tries) or failed.',
    ['outcome'],
  );
  const answers = metrics.counter(
    'learnables_console_answers_total',
    "Operators' answers to agents' questions sent through this console, by outcome: sent, refused or failed.",
    ['outcome'],
  );
  const directory = new AgentDirectory(options.agents, { ...(options.agentToken !== undefined && { token: options.agentToken }) });
  const authority = new AuthorityClient({ url: options.authority.url, token: options.authority.token });
  const ui = await bundleUi();
  const sessions = await ConsoleSessions.open(options.accounts, options.origins, log);
  const live = new LiveQuestions(directory, { ...(options.livePollMs !== undefined && { pollMs: options.livePollMs }) });

  const app = express();
  app.disable('x-powered-by');
  app.use(observeHttp({ logger, metrics, mounts: ['/api/replay', '/api'] }));
  // Sign-ins and answers, counted by how they were answered (the routes themselves stay as they are).
  app.use((req, res, next) => {
    const counter = req.method !== 'POST' ? undefined : req.path === '/api/session' ? signIns : ANSWER_PATH.test(req.path) ? answers : undefined;
    if (counter !== undefined) {
      res.once('finish', () =>
        counter.inc({ outcome: res.statusCode < 400 ? (counter === signIns ? 'signed-in' : 'sent') : res.statusCode < 500 ? 'refused' : 'failed' }),
      );
    }
    next();
  });
  app.use((_req, res, next) => {
    res.set(SECURITY_HEADERS);
    next();
  });
  const hosts = allowedHosts(options.origins);
  app.use(traceRequests('console'));
  app.use(requireAllowedHost(hosts, 'console'));
  app.use(
    '/api',
    requireSameOrigin(hosts),
    requireJsonBody((req) => /^\/agents\/[^/]+\/files$/.test(req.path)),
    sessions.gate(),
    requireSignedIn,
  );
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true, agents: directory.agents.length });
  });
  app.get('/readyz', readinessHandler('console', consoleReadiness(options.authority.url, options.agents, options.readinessCacheMs ?? 2_000)));
  app.get('/metrics', metrics.handler());
  // The replay refuses a stack that already holds messages unless confirmed: the agents' own weekly counts say whether it does.
  const countMessages = async () => {
    const { agents } = await statsAcross(directory);
    if (agents.some((agent) => agent.problem !== undefined)) return undefined;
    return agents.reduce((sum, agent) => sum + agent.periods.reduce((inner, period) => inner + period.messages, 0), 0);
  };
  app.use('/api/replay', express.json(), replayRoutes(options.replay, log, countMessages));
  app.use('/api', apiRoutes({ directory, authority, live, sessions, maxUploadBytes: options.maxUploadBytes ?? 25 * 1024 * 1024, log }));
  app.get('/app.js', (_req, res) => {
    res.type('text/javascript').set('cache-control', 'no-cache').send(ui.script);
  });
  app.get('/app.css', (_req, res) => {
    res.type('text/css').set('cache-control', 'no-cache').send(ui.styles);
  });
  app.get('/', (_req, res) => {
    res.type('html').set('cache-control', 'no-cache').send(ui.page);
  });
  app.use((req, res) => {
    res.status(404).json({ error: 'not-found', message: `The console has no ${req.method} ${req.path}; open / for the console.` });
  });
  app.use(jsonErrors(log));

  const server = app.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    server,
    metrics,
    async close() {
      live.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
