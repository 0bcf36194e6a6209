// A whole stack in this process, on a fresh temporary data folder: the authority seeded from
// fixtures/seeds, and both agents, each over real HTTP and SQLite — what `pnpm start` runs, minus
// the console, with nothing learned yet.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Authority, authorityService, createLogger, loadSeeds, openStore } from '@learnables/authority';
import { InternalSenders, createEmailAgent } from '@learnables/email-agent';
import { manifestAgent } from '@learnables/manifest-agent';
import type { RunningAgent } from '@learnables/runtime';
import { startLearnableAgent } from '@learnables/runtime';
import { LOCAL_DEV_TOKEN, repoRoot } from '../config.ts';
import { learnableKinds } from '../registry.ts';
import { TRAP_CASTS } from './trap-cast.ts';

export interface ScenarioStack {
  readonly authorityUrl: string;
  readonly emailAgentUrl: string;
  readonly manifestAgentUrl: string;
  /** The token both agents and the authority accept. */
  readonly token: string;
  readonly dataDir: string;
  /** What the agents logged (errors while reading, mostly). */
  readonly logged: readonly string[];
  close(): Promise<void>;
}

/**
 * The warehouses the streams are written for, whose own people forward customers' mail (issue 35):
 * the fixtures' and the six-week scenario's `warehouse.example`, and each trap cast's.
 */
export const SCENARIO_WAREHOUSES: readonly string[] = ['warehouse.example', ...Object.values(TRAP_CASTS).map((cast) => cast.warehouse.domain)];

export async function startScenarioStack(options: { seedsDir?: string; token?: string; internalDomains?: readonly string[] } = {}): Promise<ScenarioStack> {
  const token = options.token ?? LOCAL_DEV_TOKEN;
  const dataDir = mkdtempSync(join(tmpdir(), 'learnables-scenario-'));
  const logged: string[] = [];
  // Warnings and errors are kept for the replay's report (`logged`), not printed: a replay reads hundreds of
  // messages, and an info line for each request would bury its tables (LOG_LEVEL may ask for more).
  const logger = createLogger({
    service: 'scenario',
    level: process.env['LOG_LEVEL'] ?? 'warn',
    destination: {
      write: (line: string) => {
        const entry = JSON.parse(line) as { msg?: string; err?: { message?: string } };
        logged.push(entry.err?.message ? `${entry.msg ?? ''}: ${entry.err.message}` : (entry.msg ?? line.trim()));
      },
    },
  });
  const opened: { close(): Promise<void> }[] = [];
  try {
    const authority = new Authority({ store: await openStore(`sqlite:${join(dataDir, 'authority.db')}`), kinds: learnableKinds });
    opened.push(authority);
    await loadSeeds(authority, options.seedsDir ?? join(repoRoot, 'fixtures', 'seeds'));
    const server: Server = authorityService({ authority, tokens: { [token]: 'local' }, logger }).listen(0, '127.0.0.1');
    await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
    opened.unshift({
      close: async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    });
    const authorityUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const agentOptions = (file: string) => ({
      store: `sqlite:${join(dataDir, file)}`,
      authority: { url: authorityUrl, token },
      users: { [token]: 'operator-desk' },
      logger,
    });
    // An agent of its own: what it remembers of senders (whom they lately wrote for) is per running
    // agent, and two stacks in one process (learning on and off, side by side) must not share it.
    const internal = new InternalSenders({ domains: options.internalDomains ?? SCENARIO_WAREHOUSES });
    const email: RunningAgent = await startLearnableAgent(createEmailAgent({ internal }), agentOptions('email-agent.db'));
    opened.unshift(email);
    const manifest: RunningAgent = await startLearnableAgent(manifestAgent, agentOptions('manifest-agent.db'));
    opened.unshift(manifest);
    return {
      authorityUrl,
      emailAgentUrl: email.url,
      manifestAgentUrl: manifest.url,
      token,
      dataDir,
      logged,
      async close() {
        for (const part of opened) await part.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const part of opened) await part.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
