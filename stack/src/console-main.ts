// Runs the console on its own: `pnpm console`. Configuration is by environment:
// CONSOLE_PORT (4300), CONSOLE_HOST (127.0.0.1), CONSOLE_AGENTS (comma-separated agent URLs;
// default every registered agent's <PREFIX>_URL, else its port on 127.0.0.1), AUTHORITY_URL, CONSOLE_AUTHORITY_TOKEN (a
// token the authority accepts for writes), CONSOLE_AGENT_TOKEN (a token the agents accept; the
// console sees the tasks of the identity it maps to), CONSOLE_ORIGINS (the origins operators open it
// at besides localhost, e.g. https://console.example: other Host and Origin headers are refused),
// CONSOLE_USERS_FILE (the accounts, `name:scrypt-hash` lines written by `pnpm console-user`; default
// data/console-users, made on first start with the user `operator`) and CONSOLE_SESSION_SECRET (signs
// session cookies, at least 32 bytes; default a random one kept in data/console-session-secret).
import './check-node.ts';
import { createConsole } from '@learnables/console';
import { startTracing } from '@learnables/tracing';
import type { ReplayAction } from '@learnables/console';
import { LOCAL_DEV_TOKEN, portFrom, realToken } from './config.ts';
import { consoleAccounts } from './console-accounts.ts';
import { formatWeekLine } from './demo/report.ts';
import { AUTHORITY_PORT, CONSOLE_PORT, localAgentUrls } from './registry.ts';
import { serviceLogger } from './service-logger.ts';

const logger = serviceLogger('console');

const agents = (process.env.CONSOLE_AGENTS ?? [...localAgentUrls(process.env, portFrom).values()].join(','))
  .split(',')
  .map((url) => url.trim())
  .filter((url) => url !== '')
  .map((url) => ({ url }));

const authorityUrl = process.env.AUTHORITY_URL ?? `http://127.0.0.1:${AUTHORITY_PORT}`;
// A placeholder token (compose's old `change-me-*`) refuses to start: anyone could read it.
const agentToken = realToken(process.env.CONSOLE_AGENT_TOKEN ?? LOCAL_DEV_TOKEN, 'CONSOLE_AGENT_TOKEN');
const authorityToken = realToken(process.env.CONSOLE_AUTHORITY_TOKEN ?? LOCAL_DEV_TOKEN, 'CONSOLE_AUTHORITY_TOKEN');

// The dashboard's button: the six-week scenario, replayed through these agents with a simulated
// operator, as `pnpm demo` does. Its messages count in their own weeks, so the chart draws them.
const replay: ReplayAction = {
  label: 'Replay the six-week scenario',
  description:
    'Sends six weeks of dated messages to the agents; a simulated operator answers every question from the ground truth and ticks “remember this”. Run it once, on a fresh stack: the line below should fall week by week.',
  async run(report, signal) {
    // Imported when pressed: the replay reads manifests as the manifest agent does, and the console
    // should not load an agent's libraries for a button most consoles never press.
    const { runScenario } = await import('./demo/run-scenario.ts');
    const result = await runScenario({
      ...(process.env.EMAIL_AGENT_URL && { emailAgentUrl: process.env.EMAIL_AGENT_URL }),
      ...(process.env.MANIFEST_AGENT_URL && { manifestAgentUrl: process.env.MANIFEST_AGENT_URL }),
      authorityUrl,
      agentToken,
      authorityToken,
      signal,
      onProgress: (event) => {
        if (event.kind === 'start') report(`Replaying ${event.total} messages over ${event.weeks} weeks.${event.warnings.map((w) => ` ${w}`).join('')}`);
        if (event.kind === 'week') report(formatWeekLine(event.numbers));
      },
    });
    const first = result.weeks[0]?.all.per100;
    const last = result.weeks.at(-1)?.all.per100;
    const wrong = result.weeks.reduce((sum, week) => sum + week.misreads, 0);
    const corrected = result.weeks.reduce((sum, week) => sum + week.corrected, 0);
    return `Done: ${result.scenario.messages} messages; questions per 100 went from ${first} in week 1 to ${last} in week ${result.weeks.length}, with ${wrong} decided without asking and wrong, and ${corrected} decision${corrected === 1 ? '' : 's'} corrected later (the replay corrects each wrong one it finds).`;
  },
};

const { accounts, firstUser } = await consoleAccounts();
// The password is said once, to whoever started the console, as before: the one line that is for a person.
if (firstUser?.made)
  logger.warn(`made the console user ${firstUser.name} with the password ${firstUser.password} (kept in data/console-first-password until it is changed)`);

// Traces go to OTEL_EXPORTER_OTLP_ENDPOINT when it is set (docs/tracing.md); nothing is done otherwise.
const tracing = await startTracing('learnables-console');
const running = await createConsole({
  accounts,
  replay,
  agents,
  authority: { url: authorityUrl, token: authorityToken },
  agentToken,
  port: portFrom(process.env.CONSOLE_PORT, CONSOLE_PORT, 'CONSOLE_PORT'),
  host: process.env.CONSOLE_HOST ?? '127.0.0.1',
  ...(process.env.CONSOLE_ORIGINS && { origins: process.env.CONSOLE_ORIGINS }),
  logger,
});
logger.info({ url: running.url }, `console listening on ${running.url}`);
const stop = () =>
  void running
    .close()
    .then(() => tracing.shutdown())
    .then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
