// The conformance kit (shared/conformance) against our own agents, against deliberately broken
// ones, and its fake agent against a good and a bad client.
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emailAgent } from '@learnables/email-agent';
import { handlingAgent } from '@learnables/handling-agent';
import { manifestAgent } from '@learnables/manifest-agent';
import { seedsFolder, thresholdAgent, weightLimitKind } from '@learnables/threshold-agent';
import { LEARNABLES_URI, fieldsToRender, prefillFields } from '@learnables/protocol';
import type { CheckId, Report } from '../shared/conformance/src/index.ts';
import type { RunningFakeAgent } from '../shared/fake-agent/src/index.ts';
import { CHECK_IDS, checkAgent, isSentence } from '../shared/conformance/src/index.ts';
import { startFakeAgent } from '../shared/fake-agent/src/index.ts';
import type { LoopStack } from './support/loop-stack.ts';
import { startLoop } from './support/loop-stack.ts';

// These tests start the CLI as a child process, bounded at 60 s by `cli`, and agents that load TypeScript: on a loaded two-core machine one test can outlast vitest's default 30 s
// without anything being wrong; what they assert does not depend on time.
vi.setConfig({ testTimeout: 90_000 });

const BIN = fileURLToPath(new URL('../shared/conformance/bin/learnables-check.mjs', import.meta.url));
const FAKE_BIN = fileURLToPath(new URL('../shared/fake-agent/bin/learnables-fake-agent.mjs', import.meta.url));
const fixturePath = (path: string) => fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url));

/** Run the CLI as a child process; resolves with its exit code and output. */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 60_000, maxBuffer: 10 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error && typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : error ? -1 : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const notPassed = (report: Report) => report.checks.filter((c) => c.status !== 'PASS').map((c) => `${c.status} ${c.id}: ${c.reason}`);
const failedIds = (report: Report) => report.checks.filter((c) => c.status === 'FAIL').map((c) => c.id);

const ourAgents = [
  {
    name: 'email agent',
    agent: emailAgent,
    collection: 'customers',
    input: fixturePath('email/northgate-billing-prealert.eml'),
    answer: ['--answer', 'northgate'],
    // The email agent offers everything the kit checks.
    skipped: [] as CheckId[],
  },
  {
    name: 'manifest agent',
    agent: manifestAgent,
    collection: 'mappings',
    input: fixturePath('manifests/08-air-waybill-no.xlsx'),
    answer: [],
    // A manifest's required field is never answered "none of these" (admitsNone: false).
    skipped: ['none.writes-nothing'] as CheckId[],
  },
] as const;

describe.each(ourAgents)('learnables-check against our $name', ({ agent, collection, input, answer, skipped }) => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(agent as never);
  });
  afterAll(async () => stack.close());

  it('passes every check it can run, called as a function, says why it skips the rest, and rolls back what it taught', async () => {
    const report = await checkAgent(stack.agent.url, {
      inputFile: input,
      token: 'console-token',
      authority: { url: stack.authority.url, token: 'console-token' },
      ...(answer.length > 0 && { answer: answer[1] }),
    });
    expect(notPassed(report).filter((line) => !line.startsWith('SKIP'))).toEqual([]);
    expect(report.checks.filter((c) => c.status === 'SKIP').map((c) => c.id)).toEqual(skipped);
    for (const check of report.checks.filter((c) => c.status === 'SKIP')) expect(check.reason).toMatch(/admitsNone: true/);
    expect(report.counts).toEqual({ pass: CHECK_IDS.length - skipped.length, fail: 0, skip: skipped.length });
    expect(report.ok).toBe(true);
    // It taught the suggestion, added an entry and retracted the lesson, then rolled the collection back to where it was.
    expect(report.notes.join(' ')).toContain(`Rolled ${collection} back to version 1`);
    expect((await stack.authority.client.active(collection)).version).toBe(1);
    expect(report.checks.find((c) => c.id === 'retraction.keeps-later')?.reason).toMatch(
      /^Retracting the lesson of version \d+ \(the suggestion for .+\) via learnables\/retract published version \d+/,
    );
  });

  it('passes every check it can run from the command line, with --json and exit code 0', async () => {
    const run = await cli([
      stack.agent.url,
      '--input',
      input,
      '--token',
      'console-token',
      '--authority',
      stack.authority.url,
      '--authority-token',
      'console-token',
      ...answer,
      '--json',
    ]);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as Report;
    expect(notPassed(report).filter((line) => !line.startsWith('SKIP'))).toEqual([]);
    expect(report.counts.pass).toBe(CHECK_IDS.length - skipped.length);
    expect(run.code).toBe(0);
    // After the first run's rollback this run's lesson publishes a version above 1 over a task asked at
    // version 1: the kit says whose version it is, and blames no other writer for the gap.
    const pinned = report.checks.find((c) => c.id === 'pinning.new-version')?.reason ?? '';
    expect(pinned).toMatch(new RegExp(`^The kit's lesson published version \\d+ of ${collection}, live now; the task was asked at version 1\\.$`));
    expect(pinned).not.toContain('another writer');
  });

  it('says SKIP, not PASS, for the input-dependent checks when no input makes the agent ask, and exits 3 saying what input it needs', async () => {
    const report = await checkAgent(stack.agent.url, { token: 'console-token' });
    const skippedNow = report.checks.filter((c) => c.status === 'SKIP');
    expect(skippedNow.map((c) => c.section)).toEqual(expect.arrayContaining(['question', 'reread', 'none', 'preview', 'pinning', 'correction']));
    expect(skippedNow.every((c) => ['question', 'reread', 'none', 'preview', 'pinning', 'correction'].includes(c.section))).toBe(true);
    expect(skippedNow[0]!.reason).toMatch(/none of the card's examples .* made the agent ask .*give --input or --text/);
    expect(report.checks.find((c) => c.id === 'card.declaration')?.status).toBe('PASS');
    // Adding an entry and retracting need no input: they ran, and the kit took back what it added
    // through the retract method (it was given no authority to roll back on).
    expect(report.checks.filter((c) => c.section === 'entries' || c.section === 'retraction').map((c) => c.status)).toEqual(['PASS', 'PASS', 'PASS']);
    expect(report.notes.join(' ')).toMatch(
      new RegExp(
        `^Retracted what this run published \\(${collection} version \\d+ \\(the entry learnables-check-[0-9a-f]{6}-2\\)\\) through learnables/retract`,
      ),
    );
    expect((await stack.authority.client.entries(collection, (await stack.authority.client.active(collection)).version)).entries.map((e) => e.key)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^learnables-check-/)]),
    );
    // Nothing failed, but nothing input-dependent ran either: not ok, and the run says what it needs.
    expect(report.counts.fail).toBe(0);
    expect(report.ok).toBe(false);
    expect(report.needsInput).toMatch(/^None of the card's examples \(.+\) makes the agent ask any more; give an input it cannot decide yet with --text/);
    const run = await cli([stack.agent.url, '--token', 'console-token']);
    expect(run.stdout).toContain(`INCOMPLETE: ${report.needsInput}`);
    expect(run.code).toBe(3);
  });
});

describe('learnables-check against an agent that adds no entries and serves retract: two lessons, one retracted', () => {
  let stack: LoopStack;
  // The handling agent with its card's addsEntries taken away (retraction can no longer keep an added
  // entry), and two examples no handling was taught anything like, so both ask.
  const fixed = {
    ...handlingAgent,
    skill: { ...handlingAgent.skill, examples: ['qwzx blorp vantle', 'zarf quillop mendry'] },
    declaration: { ...handlingAgent.declaration, addsEntries: false },
  };
  beforeAll(async () => {
    stack = await startLoop(fixed as never);
  });
  afterAll(async () => stack.close());

  it('teaches the suggestions of two card examples to two entries, retracts the first, and sees the second kept', async () => {
    const report = await checkAgent(stack.agent.url, { token: 'console-token', authority: { url: stack.authority.url, token: 'console-token' } });
    expect(failedIds(report)).toEqual([]);
    expect(report.checks.find((c) => c.id === 'entries.add-idempotent')?.status).toBe('SKIP');
    const kept = report.checks.find((c) => c.id === 'retraction.keeps-later')!;
    expect(kept.status, kept.reason).toBe('PASS');
    expect(kept.reason).toMatch(
      /^Retracting the lesson of version \d+ \(the suggestion for .+\) via learnables\/retract published version \d+ .*; the lesson of version \d+ \(the suggestion for .+\), taught later, is still there \(teaching it again answered changed: false\)/,
    );
    expect(report.checks.find((c) => c.id === 'retraction.once')?.status).toBe('PASS');
  });
});

describe('learnables-check against our threshold agent: a value with no text, and no suggestion', () => {
  let stack: LoopStack;
  beforeAll(async () => {
    stack = await startLoop(thresholdAgent, { kinds: [weightLimitKind], seeds: [seedsFolder] });
  });
  afterAll(async () => stack.close());

  it('passes what it can run from its card example alone, previews and retracts added entries, and says why it skips the rest', async () => {
    const report = await checkAgent(stack.agent.url, { token: 'console-token', authority: { url: stack.authority.url, token: 'console-token' } });
    expect(report.input).toContain("the card's example");
    expect(report.checks.filter((c) => c.status === 'FAIL')).toEqual([]);
    const skips = Object.fromEntries(report.checks.filter((c) => c.status === 'SKIP').map((c) => [c.id, c.reason]));
    // The question offers no suggestion, so nothing is taught and pinning cannot be tested; no "none of these".
    expect(Object.keys(skips)).toEqual([
      'question.suggestion-accepted',
      'none.writes-nothing',
      'pinning.new-version',
      'pinning.answer-completes',
      'pinning.asked-version',
      'pinning.reread-live',
      'correction.keeps-task',
      'correction.once',
    ]);
    expect(skips['correction.keeps-task']).toMatch(/completed no task with a finding \(see pinning\.answer-completes\)/);
    expect(skips['question.suggestion-accepted']).toMatch(/offers no suggested value/);
    expect(skips['none.writes-nothing']).toMatch(/does not say admitsNone: true/);
    // Preview of a new entry instead of a lesson; retraction of the first entry added, keeping the second.
    expect(report.checks.find((c) => c.id === 'preview.read-only')?.reason).toMatch(
      /^Preview of the new entry "learnables-check [0-9a-f]{6}" \(the question offers no suggestion\) examined \d+ recent tasks/,
    );
    expect(report.checks.find((c) => c.id === 'preview.agrees')?.status).toBe('PASS');
    expect(report.checks.find((c) => c.id === 'retraction.keeps-later')?.reason).toMatch(
      /^Retracting the entry learnables-check-[0-9a-f]{6} added at version \d+ via learnables\/retract published version \d+ .*learnables-check-[0-9a-f]{6}-2, added later, is still there/,
    );
    expect(report.checks.find((c) => c.id === 'retraction.once')?.status).toBe('PASS');
    expect(report.ok).toBe(true);
    expect(report.notes.join(' ')).toContain('Rolled weight-limits back to version 1');
    expect((await stack.authority.client.active('weight-limits')).version).toBe(1);
  });

  it('exits 0 from the command line with --text', async () => {
    const run = await cli([
      stack.agent.url,
      '--text',
      'furniture 32',
      '--token',
      'console-token',
      '--authority',
      stack.authority.url,
      '--authority-token',
      'console-token',
    ]);
    expect(run.stdout).toMatch(/^PASS: every check that could run passed; 8 skipped/m);
    expect(run.code).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Broken agents: the fake agent (itself a conforming agent on our runtime) behind a hand-written
// express front that breaks one rule each. The kit must name exactly that rule.

interface Hooks {
  card?(card: Record<string, unknown>): void;
  /** Answer a JSON-RPC call, or return undefined to pass it on; `forward` passes it on unchanged and returns the upstream's JSON. */
  rpc?(
    body: { id?: unknown; method?: string; params?: Record<string, unknown> },
    forward: () => Promise<unknown>,
    caller: { authorization?: string },
  ): Promise<unknown> | undefined;
  /** Drop the A2A-Extensions echo from every response. */
  noEcho?: boolean;
}

/** A hand-written front (plain node:http) that passes everything to `upstream` but what its hooks change. */
async function brokenFront(upstream: string, hooks: Hooks): Promise<{ url: string; close(): Promise<void> }> {
  let url = '';
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'a2a-version', 'a2a-extensions', 'authorization']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      let upstreamHeaders = new Headers();
      const reply = (status: number, body: string | Buffer) => {
        const out: Record<string, string> = {};
        for (const name of ['content-type', 'a2a-extensions']) {
          const value = upstreamHeaders.get(name);
          if (value !== null && !(hooks.noEcho && name === 'a2a-extensions')) out[name] = value;
        }
        res.writeHead(status, { 'content-type': 'application/json', ...out }).end(body);
      };
      const path = req.url ?? '/';
      const pass = async () => {
        const method = req.method ?? 'GET';
        const answer = await fetch(`${upstream}${path}`, { method, headers, ...(method !== 'GET' && method !== 'HEAD' && { body: new Uint8Array(raw) }) });
        upstreamHeaders = answer.headers;
        return answer;
      };
      if (req.method === 'GET' && path.startsWith('/.well-known/agent-card.json')) {
        const card = JSON.parse((await (await pass()).text()).split(upstream).join(url)) as Record<string, unknown>;
        hooks.card?.(card);
        reply(200, JSON.stringify(card));
        return;
      }
      if (req.method === 'POST' && path === '/a2a/jsonrpc' && hooks.rpc) {
        const body = JSON.parse(raw.toString('utf8')) as Parameters<NonNullable<Hooks['rpc']>>[0];
        const hooked = hooks.rpc(body, async () => (await pass()).json(), { ...(headers.authorization && { authorization: headers.authorization }) });
        if (hooked) {
          reply(200, JSON.stringify(await hooked));
          return;
        }
      }
      const answer = await pass();
      reply(answer.status, Buffer.from(await answer.arrayBuffer()));
    })();
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

type Json = Record<string, unknown>;
const learnablesEntry = (card: Json) => ((card.capabilities as Json).extensions as Json[]).find((e) => e.uri === LEARNABLES_URI)!;

let upstream = '';
const upstreamOf = () => upstream;
let authority = { url: '', token: '' };

/** A JSON-RPC call straight to the fake agent behind the front, as the caller. */
async function callUpstream(caller: { authorization?: string }, method: string, params: unknown): Promise<{ result?: Json; error?: unknown }> {
  const response = await fetch(`${upstreamOf()}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...caller },
    body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params }),
  });
  return (await response.json()) as { result?: Json; error?: unknown };
}

const labelsAdded = new Set<string>();
const retracted = new Set<number>();

const broken: { name: string; hooks: Hooks; fails: CheckId[]; says: RegExp }[] = [
  {
    name: 'a card that says required: true',
    hooks: {
      card: (card) => {
        learnablesEntry(card).required = true;
      },
    },
    fails: ['card.required-false'],
    says: /expected required: false on the learnables entry, got required: true/i,
  },
  {
    name: 'a card whose declaration has no how and a choice without choices',
    hooks: {
      card: (card) => {
        const params = learnablesEntry(card).params as Json;
        delete params.how;
        (params.lessonFields as Json[]).push({ name: 'shade', label: 'Shade', kind: 'choice' });
      },
    },
    // A choice without choices still renders (as a text box): fieldsToRender never drops a field.
    fails: ['card.declaration', 'card.how', 'card.lesson-fields'],
    says: /the zod schema says how is missing.*schemas\/declaration\.json says .*how/i,
  },
  {
    name: 'an agent that never echoes A2A-Extensions',
    hooks: { noEcho: true },
    fails: ['activation.jsonrpc-send', 'activation.jsonrpc-get', 'activation.rest-send', 'activation.extension-method'],
    says: /expected A2A-Extensions: https:\/\/rsaxb\.com\/a2a\/learnables\/v1 in the response to an activated SendMessage, got no A2A-Extensions header/i,
  },
  {
    name: 'a reread that creates a task',
    hooks: {
      rpc: (body, forward, caller) => {
        if (body.method !== 'learnables/reread') return undefined;
        return (async () => {
          // The side effect: a task nobody asked for, in the caller's own scope.
          await fetch(`${upstreamOf()}/a2a/jsonrpc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...caller },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'SendMessage',
              params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'a side effect of reread' }] } },
            }),
          });
          return forward();
        })();
      },
    },
    fails: ['reread.no-task'],
    says: /expected ListTasks totalSize to stay \d+ across reread, got \d+: reread created a task/i,
  },
  {
    name: 'an answer that reports the live version instead of the pinned one',
    hooks: {
      rpc: (body, forward) => {
        const message = body.params?.message as { taskId?: string } | undefined;
        if (body.method !== 'SendMessage' || !message?.taskId) return undefined;
        return (async () => {
          const json = (await forward()) as { result?: { task?: { status?: { message?: { metadata?: Json } } } } };
          const meta = json.result?.task?.status?.message?.metadata?.[LEARNABLES_URI] as { versions?: Record<string, number> } | undefined;
          for (const key of Object.keys(meta?.versions ?? {})) meta!.versions![key]! += 1;
          return json;
        })();
      },
    },
    fails: ['pinning.asked-version'],
    says: /expected metadata\[URI\]\.versions\.swatches = 1 \(the version the task was asked at\).*"versions":\{"swatches":2\}/i,
  },
  {
    name: 'a "none of these" answer that writes (it adds an entry on the side)',
    hooks: {
      rpc: (body, forward, caller) => {
        const message = body.params?.message as { taskId?: string; parts?: { data?: { none?: unknown } }[] } | undefined;
        if (body.method !== 'SendMessage' || !message?.parts?.some((part) => part.data?.none === true)) return undefined;
        return (async () => {
          await callUpstream(caller, 'learnables/teach', {
            collection: 'swatches',
            newEntry: { label: `side effect ${randomUUID()}` },
            taughtBy: 'broken',
            reason: 'a write nobody asked for',
          });
          return forward();
        })();
      },
    },
    fails: ['none.writes-nothing'],
    says: /expected the answer \{ "none": true \} to complete task .* writing nothing, but the live version moved .*; the authority recorded a new activation/i,
  },
  {
    name: 'a preview that creates a task',
    hooks: {
      rpc: (body, forward, caller) => {
        if (body.method !== 'learnables/preview') return undefined;
        return (async () => {
          await callUpstream(caller, 'SendMessage', { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'a side effect of preview' }] } });
          return forward();
        })();
      },
    },
    fails: ['preview.read-only'],
    says: /expected preview of the suggestion .* to answer a PreviewResult and write nothing, but ListTasks counted (\d+) tasks before and (?!\1)\d+ after: preview created a task/i,
  },
  {
    name: 'a preview that foresees no change',
    hooks: {
      rpc: (body, forward) => {
        if (body.method !== 'learnables/preview' || body.params?.lesson === undefined) return undefined;
        return (async () => {
          const json = (await forward()) as { result?: Json };
          if (json.result) Object.assign(json.result, { examples: [], counts: { settles: 0, changes: 0, unsettles: 0, stillOpen: 0 } });
          return json;
        })();
      },
    },
    fails: ['preview.agrees'],
    says: /preview listed no change for swatch, and reread now reads settled true, winner "warm"/i,
  },
  {
    name: 'an entry added again that becomes a second entry',
    hooks: {
      rpc: (body, forward, caller) => {
        const params = body.params as { newEntry?: { label: string; key?: string } } | undefined;
        if (body.method !== 'learnables/teach' || !params?.newEntry) return undefined;
        const label = params.newEntry.label;
        if (!labelsAdded.has(label)) {
          labelsAdded.add(label);
          return undefined;
        }
        // Under another key and a label that reads otherwise: a receiver answers one that reads the same with the entry there (§3.5).
        return (async () => ({
          jsonrpc: '2.0',
          id: body.id,
          ...(await callUpstream(caller, 'learnables/teach', { ...params, newEntry: { label: `${label} again`, key: `again-${randomUUID().slice(0, 8)}` } })),
        }))();
      },
    },
    fails: ['entries.add-idempotent'],
    says: /expected adding "learnables-check [0-9a-f]{6}" a second time to answer changed: false at version \d+, but it answered changed: true, version \d+, entry "again-/i,
  },
  {
    name: 'a retraction that is a rollback (it takes every later activation with it)',
    hooks: {
      rpc: (body) => {
        const params = body.params as { collection: string; version: number } | undefined;
        if (body.method !== 'learnables/retract' || !params || retracted.has(params.version)) return undefined;
        retracted.add(params.version);
        return (async () => {
          const response = await fetch(`${authority.url}/v1/collections/${params.collection}/rollback`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${authority.token}` },
            body: JSON.stringify({ version: params.version - 1, author: 'broken', reason: 'a retraction done as a rollback' }),
          });
          const rolled = (await response.json()) as { version: number };
          const result = {
            collection: params.collection,
            entry: 'warm',
            retracted: params.version,
            changed: true,
            version: rolled.version,
            audit: 'rolled back',
          };
          return { jsonrpc: '2.0', id: body.id, result };
        })();
      },
    },
    fails: ['retraction.keeps-later'],
    says: /where a retraction publishes a new version above \d+, the live one; learnables-check-[0-9a-f]{6}, added later at version \d+, is gone: preview of adding it again answered changed: true/i,
  },
  {
    name: 'a retraction that publishes again when asked twice',
    hooks: {
      rpc: (body, forward) => {
        if (body.method !== 'learnables/retract') return undefined;
        return (async () => {
          const json = (await forward()) as { result?: { changed: boolean; version: number } };
          if (json.result && !json.result.changed) Object.assign(json.result, { changed: true, version: json.result.version + 1 });
          return json;
        })();
      },
    },
    fails: ['retraction.once'],
    says: /expected retracting version \d+ a second time to answer changed: false at the live version \d+, but it answered changed: true, version \d+/i,
  },
  {
    name: 'a correction that is recorded again when made twice',
    hooks: {
      rpc: (body, forward) => {
        if (body.method !== 'learnables/correct') return undefined;
        return (async () => {
          const json = (await forward()) as { result?: { changed: boolean } };
          if (json.result && !json.result.changed) json.result.changed = true;
          return json;
        })();
      },
    },
    fails: ['correction.once'],
    says: /expected the same correction a second time to record nothing, but it answered changed: true/i,
  },
  {
    name: 'a teach method that refuses with a bare status phrase',
    hooks: {
      rpc: (body) => {
        if (body.method !== 'learnables/teach' || body.params?.taughtBy !== undefined) return undefined;
        return Promise.resolve({ jsonrpc: '2.0', id: body.id, error: { code: -32602, message: 'Invalid params' } });
      },
    },
    fails: ['refusals.teach-malformed'],
    says: /its message "Invalid params" is not a sentence a person can act on; its data nothing is not a Refusal/i,
  },
];

describe('learnables-check against deliberately broken agents', () => {
  let fake: RunningFakeAgent;
  beforeAll(async () => {
    fake = await startFakeAgent();
    upstream = fake.url;
    authority = { url: fake.authorityUrl, token: fake.token };
  });
  afterAll(async () => fake.close());

  it('passes the fake agent itself, unbroken, from its card example alone', async () => {
    const report = await checkAgent(fake.url, { token: fake.token, authority: { url: fake.authorityUrl, token: fake.token } });
    // The fake agent's card is not signed (a front that rewrites it could not keep a signature).
    expect(notPassed(report)).toEqual(['SKIP card.signature: The card carries no signature (signatures are optional), so there is none to verify.']);
  });

  it.each(broken)('names the broken rule: $name', async ({ hooks, fails, says }) => {
    const front = await brokenFront(fake.url, hooks);
    try {
      const report = await checkAgent(front.url, { token: fake.token, authority: { url: fake.authorityUrl, token: fake.token } });
      expect(failedIds(report)).toEqual(fails);
      const reasons = report.checks.filter((c) => c.status === 'FAIL').map((c) => c.reason);
      expect(
        reasons.some((reason) => says.test(reason)),
        reasons.join('\n'),
      ).toBe(true);
      expect(report.ok).toBe(false);
      // Everything else still passes: the kit does not cascade one broken rule into many.
      expect(report.checks.filter((c) => c.status === 'SKIP').map((c) => c.id)).toEqual(['card.signature']);
    } finally {
      await front.close();
    }
  });

  it('teaches through --authority when the agent offers no teach method, and skips (never passes) what it cannot test without one', async () => {
    const front = await brokenFront(fake.url, { card: (card) => void delete ((learnablesEntry(card).params as Json).methods as Json).teach });
    try {
      const viaAuthority = await checkAgent(front.url, { token: fake.token, authority: { url: fake.authorityUrl, token: fake.token } });
      expect(notPassed(viaAuthority).filter((line) => !line.startsWith('SKIP card.signature:'))).toEqual([]);
      expect(viaAuthority.checks.find((c) => c.id === 'question.suggestion-accepted')?.reason).toContain(`via POST ${fake.authorityUrl}/v1/lessons`);
      expect(viaAuthority.checks.find((c) => c.id === 'refusals.teach-malformed')?.reason).toMatch(/^The authority refused the malformed lesson with HTTP 400/);

      const nowhere = await checkAgent(front.url, { token: fake.token });
      const skipped = nowhere.checks.filter((c) => c.status === 'SKIP').map((c) => c.id);
      expect(skipped).toEqual([
        'card.signature',
        'question.suggestion-accepted',
        'preview.agrees',
        'entries.add-idempotent',
        'pinning.new-version',
        'pinning.answer-completes',
        'pinning.asked-version',
        'pinning.reread-live',
        'correction.keeps-task',
        'correction.once',
        'retraction.keeps-later',
        'retraction.once',
        'refusals.teach-malformed',
      ]);
      expect(nowhere.checks.find((c) => c.id === 'entries.add-idempotent')?.reason).toMatch(
        /no teach method and no --authority was given, so there is nowhere to add an entry/,
      );
      expect(nowhere.checks.find((c) => c.id === 'question.suggestion-accepted')?.reason).toMatch(/no teach method and no --authority was given/);
      expect(nowhere.ok).toBe(true);
    } finally {
      await front.close();
    }
  });

  it('skips, saying so, each check of a capability the declaration does not offer (no admitsNone, no addsEntries, no preview, no retract)', async () => {
    const front = await brokenFront(fake.url, {
      card: (card) => {
        const params = learnablesEntry(card).params as Json;
        delete params.admitsNone;
        delete params.addsEntries;
        delete (params.methods as Json).preview;
        delete (params.methods as Json).retract;
      },
    });
    try {
      const report = await checkAgent(front.url, { token: fake.token, authority: { url: fake.authorityUrl, token: fake.token } });
      expect(failedIds(report)).toEqual([]);
      const skips = Object.fromEntries(report.checks.filter((c) => c.status === 'SKIP').map((c) => [c.id, c.reason]));
      expect(Object.keys(skips)).toEqual([
        'card.signature',
        'none.writes-nothing',
        'preview.read-only',
        'preview.agrees',
        'entries.add-idempotent',
        'retraction.keeps-later',
        'retraction.once',
      ]);
      expect(skips['none.writes-nothing']).toBe(
        'The declaration does not say admitsNone: true, so its questions are not answered "none of these" (§2.8); nothing to check.',
      );
      expect(skips['preview.read-only']).toBe('Skipped: the declaration names no preview method (methods.preview, §1.8), so there is no preview to check.');
      expect(skips['preview.agrees']).toBe(skips['preview.read-only']);
      expect(skips['entries.add-idempotent']).toBe(
        'The declaration does not say addsEntries: true (§1.3), so entries are not added through it; nothing to check.',
      );
      // Retraction is still possible through the authority, but the run added no entry, and no second lesson is known.
      expect(skips['retraction.keeps-later']).toBe(
        'Skipped: the run added no entry (see entries.add-idempotent), and no other card example asks about another entry with a suggestion (0 other example(s) tried), so it has no two activations to retract one of and keep the other.',
      );
      expect(report.ok).toBe(true);

      // With no authority either, retraction has nothing to go through.
      const active = async () => ((await (await fetch(`${fake.authorityUrl}/v1/collections/swatches/active`)).json()) as { version: number }).version;
      const before = await active();
      const alone = await checkAgent(front.url, { token: fake.token });
      expect(alone.checks.find((c) => c.id === 'retraction.keeps-later')?.reason).toBe(
        'Skipped: the declaration names no retract method (methods.retract, §1.8) and no --authority was given, so there is nothing to retract through.',
      );
      // That run could not undo its lesson: the note says how, and this test does it, for the tests after it.
      expect(alone.notes.join(' ')).toMatch(
        /^This run published swatches version \d+ \(the suggestion for warm\); to undo it, roll swatches back to version \d+ on the agent's authority/,
      );
      await fetch(`${fake.authorityUrl}/v1/collections/swatches/rollback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${fake.token}` },
        body: JSON.stringify({ version: before, author: 'test', reason: 'undo the run without an authority' }),
      });
    } finally {
      await front.close();
    }
  });

  it('exits 1 from the command line, naming the failed check', async () => {
    const front = await brokenFront(fake.url, broken[0]!.hooks);
    try {
      const run = await cli([front.url, '--token', fake.token, '--authority', fake.authorityUrl, '--authority-token', fake.token]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^ {2}FAIL {2}card\.required-false +Expected required: false on the learnables entry, got required: true\. \[§1\.2\]$/m);
      expect(run.stdout).toMatch(/^FAIL: card\.required-false\.$/m);
    } finally {
      await front.close();
    }
  });

  it('exits 1 when the agent cannot be reached, and 2 on bad usage', async () => {
    const unreachable = await checkAgent('http://127.0.0.1:9', { timeoutMs: 5000 });
    expect(failedIds(unreachable)).toEqual(['card.fetch']);
    expect((await cli([])).code).toBe(2);
  });
});

describe('isSentence: what counts as a refusal a person can act on', () => {
  it('takes sentences and refuses bare codes and status phrases', () => {
    expect(isSentence('That lesson cannot be read: value must be an object.')).toBe(true);
    expect(isSentence('"billing@origin\\.example(" is not a usable pattern: missing )')).toBe(true);
    for (const bare of ['400', 'Bad Request', 'Invalid params', 'error', '', 'HTTP 422 Unprocessable Entity']) expect(isSentence(bare), bare).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// The fake agent: a client checklist. A minimal client, good or bad, straight on the wire.

interface ClientStyle {
  /** Drop lesson fields whose kind the client does not know (breaks SPEC §1.7). */
  readonly dropUnknownKinds?: boolean;
  /** Post the lesson to the embedded authority instead of the agent's teach method. */
  readonly viaAuthority?: boolean;
  readonly activate?: boolean;
}

async function runClient(fake: RunningFakeAgent, note: string, style: ClientStyle = {}) {
  const headers = {
    'content-type': 'application/json',
    'A2A-Version': '1.0',
    authorization: `Bearer ${fake.token}`,
    ...((style.activate ?? true) && { 'A2A-Extensions': LEARNABLES_URI }),
  };
  const card = (await (await fetch(`${fake.url}/.well-known/agent-card.json`, { headers })).json()) as Json;
  const declaration = learnablesEntry(card).params as { lessonFields: unknown[]; methods: { reread: { jsonrpc: string }; teach: { jsonrpc: string } } };
  const endpoint = String((card.supportedInterfaces as Json[]).find((i) => i.protocolBinding === 'JSONRPC' && i.protocolVersion === '1.0')!.url);
  const rpc = async (method: string, params: unknown) =>
    (await (await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params }) })).json()) as {
      result?: Json;
      error?: { message: string };
    };

  // Ask; the teach block comes with the question.
  const sent = await rpc('SendMessage', { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: note }] } });
  const task = sent.result!.task as { id: string; contextId: string; status: { state: string; message: { metadata: Json } } };
  expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  const block = task.status.message.metadata[LEARNABLES_URI] as { collection: string; entries: { key: string }[]; suggested: Json };
  const entry = block.entries[0]!.key;

  // Answer on the same task, then render the form blind, prefilled from the suggestion, and post it untouched.
  await rpc('SendMessage', {
    message: { messageId: randomUUID(), role: 'ROLE_USER', taskId: task.id, contextId: task.contextId, parts: [{ data: { entry } }] },
  });
  const fields = fieldsToRender(declaration.lessonFields).filter((f) => !style.dropUnknownKinds || f.declaredKind === 'text' || f.declaredKind === 'choice');
  const lesson = {
    collection: block.collection,
    entry,
    value: prefillFields(fields, block.suggested),
    taughtBy: 'dana@client.example',
    reason: 'she knows this note',
  };
  const taught = style.viaAuthority
    ? ((await (await fetch(`${fake.authorityUrl}/v1/lessons`, { method: 'POST', headers, body: JSON.stringify(lesson) })).json()) as Json)
    : await rpc(declaration.methods.teach.jsonrpc, lesson);

  // Show back what the lesson changed.
  const reread = await rpc(declaration.methods.reread.jsonrpc, { taskId: task.id });
  return { taught, reread };
}

describe('the fake agent: a client checklist as code', () => {
  let fake: RunningFakeAgent;
  beforeAll(async () => {
    fake = await startFakeAgent();
  });
  afterAll(async () => fake.close());

  it('starts with every item pending, at /checklist and /checklist.txt', async () => {
    fake.reset();
    const json = (await (await fetch(`${fake.url}/checklist`)).json()) as { ok: boolean; items: { status: string }[] };
    expect(json.ok).toBe(false);
    expect(json.items.map((i) => i.status)).toEqual(['PENDING', 'PENDING', 'PENDING', 'PENDING', 'PENDING']);
    expect(await (await fetch(fake.checklistUrl)).text()).toContain('PENDING  rendered-unknown-kind');
  });

  it('passes a good client on every item: it activates, answers, renders the colour field, posts the suggestion untouched, rereads', async () => {
    fake.reset();
    const { taught, reread } = await runClient(fake, 'Pale green, like sea glass');
    expect(taught.result).toMatchObject({ changed: true });
    expect(reread.result).toMatchObject({ swatch: { settled: true } });
    const checklist = fake.checklist();
    expect(checklist.items.map((i) => `${i.id} ${i.status}`)).toEqual([
      'activated PASS',
      'answered-on-task PASS',
      'rendered-unknown-kind PASS',
      'value-untouched PASS',
      'reread-after-teach PASS',
    ]);
    expect(checklist.ok).toBe(true);
    const text = await (await fetch(fake.checklistUrl)).text();
    expect(text).toContain("PASS     rendered-unknown-kind  Every lesson carried 'tint' (kind 'colour', which no client knows), so the client rendered it.");
    expect(text).toContain('PASS: the client did everything on the list.');
  });

  it('passes a good client that posts its lesson to the embedded authority instead', async () => {
    fake.reset();
    const { taught } = await runClient(fake, 'Burnt orange, like a brick', { viaAuthority: true });
    expect(taught).toMatchObject({ changed: true });
    expect(fake.checklist().ok).toBe(true);
    expect(fake.checklist().calls.find((c) => c.kind === 'lesson')).toMatchObject({ via: 'authority POST /v1/lessons' });
  });

  it('fails a client that drops the field of a kind it does not know, and the agent refuses its lesson in its own words', async () => {
    fake.reset();
    const { taught } = await runClient(fake, 'Slate grey, like a roof', { dropUnknownKinds: true });
    expect((taught as { error?: { message: string } }).error?.message).toContain("the 'tint' field (kind 'colour') was left out");
    const items = Object.fromEntries(fake.checklist().items.map((i) => [i.id, i]));
    expect(items['rendered-unknown-kind']).toMatchObject({
      status: 'FAIL',
      reason: "1 of 1 lessons had no 'tint': the client skipped the field of kind 'colour' instead of rendering it as a text input.",
    });
    expect(items['activated']?.status).toBe('PASS');
    expect(fake.checklist().ok).toBe(false);
  });

  it('fails a client that never activates the extension', async () => {
    fake.reset();
    await runClient(fake, 'Midnight blue, like ink', { activate: false });
    const items = Object.fromEntries(fake.checklist().items.map((i) => [i.id, i.status]));
    expect(items).toMatchObject({ activated: 'FAIL', 'rendered-unknown-kind': 'PASS', 'value-untouched': 'PASS' });
  });

  it('runs from the command line: learnables-fake-agent prints where it is and serves the checklist', async () => {
    const child = spawn(process.execPath, [FAKE_BIN, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const first = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
        });
        child.once('exit', (code) => reject(new Error(`the fake agent exited (${String(code)}) before it was ready`)));
      });
      const started = JSON.parse(first) as { url: string; authorityUrl: string; token: string; checklistUrl: string };
      expect(started.checklistUrl).toBe(`${started.url}/checklist.txt`);
      expect(await (await fetch(started.checklistUrl)).text()).toContain('learnables fake agent: client checklist');
      const card = (await (await fetch(`${started.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json()) as Json;
      expect((learnablesEntry(card).params as { lessonFields: unknown[] }).lessonFields).toContainEqual({
        name: 'tint',
        label: 'Tint',
        kind: 'colour',
        help: expect.any(String) as string,
      });
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
