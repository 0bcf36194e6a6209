import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchPostgres } from '@learnables/testing';
import type { ScratchDatabase } from '@learnables/testing';
import { fixture } from '../support/loop-stack.ts';
import type { Service } from '../support/processes.ts';
import { freePort, startService } from '../support/processes.ts';

const TOKEN = 'load-token';
const SECONDS = Number(process.env.LOAD_SECONDS ?? 40);
const MESSAGES = ['northgate-billing-prealert.eml', 'brightwell-bw-88213-chilled-pallets.eml', 'kestrel-qa-coa-pdf.eml', 'harborlane-html-only-asn.eml', 'pa-2026-0901-prealert.eml'];

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Sustained traffic on two email agent replicas sharing PostgreSQL: bounded in time, loopback only. */
describe('two agent replicas on PostgreSQL under sustained load', () => {
  let database: ScratchDatabase;
  const services: Service[] = [];
  let replicas: Service[] = [];

  beforeAll(async () => {
    database = await scratchPostgres('load');
    const authorityPort = await freePort();
    const authorityUrl = `http://127.0.0.1:${authorityPort}`;
    services.push(await startService('authority-main.ts', { AUTHORITY_PORT: String(authorityPort), AUTHORITY_STORE: database.url, AUTHORITY_TOKENS: `a=${TOKEN}` }, authorityUrl));
    const start = async () => {
      const port = await freePort();
      return startService('email-agent-main.ts', { AUTHORITY_URL: authorityUrl, AUTHORITY_TOKEN: TOKEN, AGENT_TOKENS: `desk=${TOKEN}`, EMAIL_AGENT_PORT: String(port), EMAIL_AGENT_STORE: database.url }, `http://127.0.0.1:${port}`);
    };
    replicas = [await start(), await start()];
    services.push(...replicas);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await database?.drop();
  });

  it(`serves ${SECONDS} s of traffic with no error and flat memory, and reports p99 latency`, async () => {
    const bodies = MESSAGES.map((name) => fixture(`email/${name}`).toString('base64'));
    const send = async (agent: string, i: number) => {
      const started = performance.now();
      const response = await fetch(`${agent}/a2a/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'SendMessage', params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ raw: bodies[i % bodies.length], mediaType: 'message/rfc822', filename: 'm.eml' }] } } }),
      });
      const answer = (await response.json()) as { result?: { task?: { status?: { state?: string } } } };
      const state = answer.result?.task?.status?.state;
      if (state !== 'TASK_STATE_COMPLETED' && state !== 'TASK_STATE_INPUT_REQUIRED') throw new Error(`message ${i} ended ${JSON.stringify(answer)}`);
      return performance.now() - started;
    };
    const run = async (seconds: number) => {
      const latencies: number[] = [];
      const errors: string[] = [];
      const until = Date.now() + seconds * 1000;
      let i = 0;
      await Promise.all(
        Array.from({ length: 4 }, async (_, worker) => {
          while (Date.now() < until) {
            const n = i++;
            try {
              latencies.push(await send(replicas[(n + worker) % 2]!.url, n));
            } catch (error) {
              errors.push(String(error));
            }
          }
        }),
      );
      return { latencies, errors };
    };
    await run(3);
    const before = replicas.map((r) => rssMb(r.child.pid!));
    const samples: number[][] = [];
    const sampler = setInterval(() => samples.push(replicas.map((r) => rssMb(r.child.pid!))), 2000);
    const { latencies, errors } = await run(SECONDS);
    clearInterval(sampler);
    const after = replicas.map((r) => rssMb(r.child.pid!));
    console.log(`RSS samples (MB): ${samples.map((s) => s.map((m) => m.toFixed(0)).join('/')).join(' ')}`);
    latencies.sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil((q / 100) * latencies.length) - 1)]!.toFixed(1);
    console.log(
      `sustained load: ${latencies.length} messages in ${SECONDS} s over 2 replicas, p50 ${p(50)} ms, p99 ${p(99)} ms, RSS ${before.map((m) => m.toFixed(0)).join('/')} → ${after.map((m) => m.toFixed(0)).join('/')} MB`,
    );
    expect(errors).toEqual([]);
    expect(latencies.length).toBeGreaterThan(SECONDS * 5);
    // V8 lets the heap grow, then collects it: memory saws up and down. Flat means the saw does not
    // climb — the lowest reading of the last third is no higher than the highest of the first third
    // (plus a margin), where a leak would push even the lows upwards, message after message.
    const third = Math.max(1, Math.floor(samples.length / 3));
    for (const index of replicas.keys()) {
      const early = Math.max(before[index]!, ...samples.slice(0, third).map((sample) => sample[index]!));
      const late = Math.min(after[index]!, ...samples.slice(-third).map((sample) => sample[index]!));
      expect(late, `replica ${index + 1}: lowest RSS late in the run vs highest early on`).toBeLessThan(early + 40);
    }
  }, (SECONDS + 60) * 1000);
});
