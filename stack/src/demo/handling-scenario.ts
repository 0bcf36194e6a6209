/**
 * The handling agent's own six weeks (agents/handling/fixtures/scenario.json): each consignment's
 * description sent to the agent with the A2A SDK's client; a simulated operator answers each
 * question from the ground truth and, with learning on, confirms the suggested example (the
 * description) as a lesson to the handling it answered. Counts questions per 100 and decisions
 * made without asking that were wrong, per week.
 *
 * Then the rollback: at the start of week 4 a probe set (the first 20 held-out descriptions,
 * never answered) is sent and its readings kept; after week 6 the collection is rolled back to
 * the version active then, and the probe set sent again must read the same, probability for
 * probability.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendMessageRequest } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { Authority, AuthorityClient, authorityService, loadSeeds, openStore } from '@learnables/authority';
import { fixturesFolder, handlingAgent, handlingExamplesKind, samePhrase, seedsFolder } from '@learnables/handling-agent';
import type { RunningAgent } from '@learnables/runtime';
import { startLearnableAgent } from '@learnables/runtime';
import { LOCAL_DEV_TOKEN } from '../config.ts';
import type { Learning } from './run-scenario.ts';
import { SIMULATED_OPERATOR, SIMULATED_OPERATOR_EMAIL } from './run-scenario.ts';
import { answerTask, connectAgent, isAsking, isDone, resultOf, statusText, teachBlockOf } from './scenario-client.ts';
import { silentLogger } from '@learnables/authority';

interface Labelled {
  readonly handling: string;
  readonly description: string;
}
interface ScenarioMessage extends Labelled {
  readonly week: number;
}

export interface HandlingWeek {
  readonly week: number;
  readonly messages: number;
  readonly questions: number;
  /** Questions per 100 messages, one decimal. */
  readonly per100: number;
  /** Lessons that wrote a version during the week. */
  readonly lessons: number;
  /** Decided without asking, for another handling than the truth. */
  readonly wrongUnasked: number;
  /**
   * The baseline on the same stream: questions per 100 had only exact taught phrases decided (the
   * seed's examples and, with learning on, every description answered before), with no classifier.
   */
  readonly rulesOnlyPer100: number;
}

export interface HandlingScenarioResult {
  readonly learning: Learning;
  readonly weeks: readonly HandlingWeek[];
  /** The rollback check (learning on only): the version rolled back to, and whether the probe set read the same. */
  readonly rollback?: { readonly toVersion: number; readonly fromVersion: number; readonly probes: number; readonly same: boolean };
  /** Tasks that failed or answers not taken, in sentences; none expected. */
  readonly problems: readonly string[];
}

const per100 = (questions: number, messages: number) => Math.round((questions / messages) * 1000) / 10;
const load = <T>(name: string): T => JSON.parse(readFileSync(join(fixturesFolder, name), 'utf8')) as T;

async function sendText(client: Client, text: string): Promise<Task> {
  const result = await client.sendMessage(SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } }));
  if (typeof result !== 'object' || result === null || !('status' in result)) throw new Error('The agent answered with a message, not a task.');
  return result as Task;
}

interface Lines {
  readonly lines?: readonly { readonly handling: string | null; readonly probability?: number }[];
}

/** What a probe reads, without its task id or version: a decision with its probability, or the question's order and findings. */
function readingOf(task: Task): unknown {
  if (isDone(task)) return { decided: (resultOf(task) as Lines | undefined)?.lines };
  const teach = teachBlockOf(task);
  return { asked: teach?.entries.map((entry) => entry.key), findings: task.status?.message?.metadata?.findings };
}

/** Replay the six weeks through a running handling agent. */
export async function runHandlingScenario(options: {
  agentUrl: string;
  authorityUrl: string;
  token: string;
  learning: Learning;
}): Promise<HandlingScenarioResult> {
  const { messages } = load<{ messages: ScenarioMessage[] }>('scenario.json');
  const probeSet = load<Labelled[]>('held-out.json').slice(0, 20);
  const client = await connectAgent(options.agentUrl, options.token);
  const authority = new AuthorityClient({ url: options.authorityUrl, token: options.token });
  const weeks: HandlingWeek[] = [];
  const problems: string[] = [];
  let probed: { version: number; readings: unknown[] } | undefined;
  const seed = JSON.parse(readFileSync(join(seedsFolder, 'handling.json'), 'utf8')) as { entries: Record<string, { examples: string[] }> };
  const phrases = new Set(Object.values(seed.entries).flatMap((entry) => entry.examples.map(samePhrase)));
  const probe = async () => {
    const readings: unknown[] = [];
    for (const { description } of probeSet) readings.push(readingOf(await sendText(client, description)));
    return readings;
  };

  for (let week = 1; week <= Math.max(...messages.map((m) => m.week)); week += 1) {
    if (week === 4 && options.learning === 'on') probed = { version: (await authority.active('handling')).version, readings: await probe() };
    const tally = { week, messages: 0, questions: 0, lessons: 0, wrongUnasked: 0, rulesOnlyQuestions: 0 };
    for (const { description, handling } of messages.filter((message) => message.week === week)) {
      if (!phrases.has(samePhrase(description))) {
        tally.rulesOnlyQuestions += 1;
        if (options.learning === 'on') phrases.add(samePhrase(description));
      }
      const task = await sendText(client, description);
      tally.messages += 1;
      if (isAsking(task)) {
        tally.questions += 1;
        const suggested = teachBlockOf(task)?.suggested;
        const answered = await answerTask(client, task, handling, SIMULATED_OPERATOR);
        if (!isDone(answered)) problems.push(`"${description}": answered ${handling}, and the task is ${answered.status?.state}: ${statusText(answered)}`);
        if (options.learning === 'on' && suggested !== undefined) {
          const outcome = await authority.postLesson({
            collection: 'handling',
            entry: handling,
            value: suggested,
            taughtBy: SIMULATED_OPERATOR_EMAIL,
            reason: `Confirmed the suggestion while answering: "${description}" needs ${handling} handling.`,
          });
          if (outcome.changed) tally.lessons += 1;
        }
      } else if (isDone(task)) {
        const decided = (resultOf(task) as Lines | undefined)?.lines?.[0]?.handling;
        if (decided !== handling) tally.wrongUnasked += 1;
      } else {
        problems.push(`"${description}": the task ended ${task.status?.state}: ${statusText(task)}`);
      }
    }
    const { rulesOnlyQuestions, ...counts } = tally;
    weeks.push({ ...counts, per100: per100(tally.questions, tally.messages), rulesOnlyPer100: per100(rulesOnlyQuestions, tally.messages) });
  }

  let rollback: HandlingScenarioResult['rollback'];
  if (probed !== undefined) {
    const fromVersion = (await authority.active('handling')).version;
    await authority.rollback('handling', {
      version: probed.version,
      author: SIMULATED_OPERATOR_EMAIL,
      reason: 'The scenario checks that a rollback brings back the earlier model.',
    });
    const again = await probe();
    rollback = { toVersion: probed.version, fromVersion, probes: probeSet.length, same: JSON.stringify(again) === JSON.stringify(probed.readings) };
  }
  return { learning: options.learning, weeks, ...(rollback && { rollback }), problems };
}

/** An authority seeded with the handling agent's seed and the agent, in this process, on a fresh temporary folder. */
export async function startHandlingStack(token = LOCAL_DEV_TOKEN): Promise<{ agentUrl: string; authorityUrl: string; token: string; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'learnables-handling-'));
  const authority = new Authority({ store: await openStore(`sqlite:${join(dataDir, 'authority.db')}`), kinds: [handlingExamplesKind] });
  await loadSeeds(authority, seedsFolder);
  const server: Server = authorityService({ authority, tokens: { [token]: 'local' } }).listen(0, '127.0.0.1');
  await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const authorityUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent: RunningAgent = await startLearnableAgent(handlingAgent, {
    store: `sqlite:${join(dataDir, 'agent.db')}`,
    authority: { url: authorityUrl, token },
    users: { [token]: 'operator-desk' },
    logger: silentLogger(),
  });
  return {
    agentUrl: agent.url,
    authorityUrl,
    token,
    async close() {
      await agent.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await authority.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The two runs side by side, as markdown. */
export function formatHandlingComparison(on: HandlingScenarioResult, off: HandlingScenarioResult): string {
  const rows = on.weeks.map((week, at) => {
    const other = off.weeks[at]!;
    return `| ${week.week} | ${week.messages} | ${week.per100} | ${week.rulesOnlyPer100} | ${other.per100} | ${week.lessons} | ${week.wrongUnasked} | ${other.wrongUnasked} |`;
  });
  const rollback = on.rollback
    ? `Rollback: after week 6 (version ${on.rollback.fromVersion}) the collection was rolled back to version ${on.rollback.toVersion}, active at the start of week 4; the ${on.rollback.probes} probe descriptions sent then and again after the rollback ${on.rollback.same ? 'read the same, probability for probability' : 'read DIFFERENTLY'}.`
    : '';
  return [
    '| week | messages | questions per 100: model, learning on | rules only (exact phrases), learning on | model, learning off | lessons (model) | wrong, not asked (on) | wrong, not asked (off) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    rollback,
  ].join('\n');
}
