import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkRegistry, registerAgent } from './registered-agent.ts';
import { agentNamed, agents, learnableKinds, localAgentUrls, seedFolders } from './registry.ts';
import { portFrom } from './config.ts';
import type { LearnableAgent } from '@learnables/runtime';

const threshold = await agents.find((entry) => entry.name === 'threshold')!.create();
const lineOf = (agent: LearnableAgent<unknown, unknown>) => ({ kinds: agent.kinds, agent: async () => agent });

describe('the registry', () => {
  it('derives every name from one line', () => {
    const carrier = registerAgent({ name: 'parcel-carrier', ...lineOf(threshold), port: 4204, vocabulary: ['carrier'] });
    expect(carrier).toMatchObject({ envPrefix: 'PARCEL_CARRIER_AGENT', service: 'parcel-carrier-agent', storeFile: 'parcel-carrier-agent.db', replicas: 1 });
    expect(carrier.kinds).toBe(threshold.kinds);
  });

  it("hands the authority every agent's kinds, and each seed folder once", () => {
    expect(learnableKinds.map((kind) => kind.collection)).toEqual(agents.flatMap((entry) => entry.kinds.map((kind) => kind.collection)));
    expect(new Set(seedFolders).size).toBe(seedFolders.length);
  });

  it('finds an agent by name or service name, and names the ones it has when it cannot', () => {
    expect(agentNamed('threshold').name).toBe('threshold');
    expect(agentNamed('threshold-agent').name).toBe('threshold');
    expect(() => agentNamed('carrier')).toThrow(`There is no agent "carrier" in stack/src/agents.ts; the agents are ${agents.map((e) => e.name).join(', ')}.`);
  });

  it('gives each agent its URL from <PREFIX>_URL, else from its port', () => {
    const urls = localAgentUrls({ THRESHOLD_AGENT_PORT: '5999', EMAIL_AGENT_URL: 'http://mail.internal:80' }, portFrom);
    expect(urls.get('threshold')).toBe('http://127.0.0.1:5999');
    expect(urls.get('email')).toBe('http://mail.internal:80');
    expect(urls.get('manifest')).toBe(`http://127.0.0.1:${agents.find((e) => e.name === 'manifest')!.port}`);
  });

  it.each([
    [{ name: 'Carrier', port: 4204 }, 'agents.ts: "Carrier" is not an agent name; use lower-case words joined by hyphens, e.g. "carrier".'],
    [{ name: 'carrier', port: 70000 }, 'agents.ts: carrier needs a port number, not 70000.'],
  ])('refuses a line it cannot run: %j', (line, sentence) => {
    expect(() => registerAgent({ ...line, ...lineOf(threshold), vocabulary: [] })).toThrow(sentence);
  });

  it('refuses an agent whose card its own kinds cannot serve, naming the agent and what to change', async () => {
    const mistaken = { ...threshold, declaration: { ...threshold.declaration, collection: 'carrier-limits' } };
    await expect(registerAgent({ name: 'carrier', ...lineOf(mistaken), port: 4204, vocabulary: [] }).create()).rejects.toThrow(
      `${threshold.name}: its card declares the collection "carrier-limits", and its kinds are for "weight-limits"; list that collection's kind in kinds.`,
    );
  });

  it("refuses an agent that learns other kinds than its line names (the authority serves the line's)", async () => {
    const other = agents.find((entry) => entry.name === 'handling')!.kinds;
    await expect(registerAgent({ name: 'carrier', kinds: other, agent: async () => threshold, port: 4204, vocabulary: [] }).create()).rejects.toThrow(
      "agents.ts: carrier's line names the kinds handling and its agent learns weight-limits; list the same kind objects, in the same order.",
    );
  });

  it('imports no agent to list the agents: a service loads only the agent it runs', async () => {
    // A child process, so that nothing this test file imported counts: the registry alone, then one agent.
    const { execFileSync } = await import('node:child_process');
    const loaded = (code: string) =>
      JSON.parse(
        execFileSync(process.execPath, ['--conditions=@learnables/source', '--import', 'tsx', '--input-type=module', '-e', code], {
          cwd: fileURLToPath(new URL('..', import.meta.url)),
          encoding: 'utf8',
        }),
      ) as string[];
    const heavy = ['mailparser', 'exceljs', 'wink-naive-bayes-text-classifier'];
    const probe = (then: string) =>
      `import { createRequire } from 'node:module';
      const { agentNamed } = await import('./src/registry.ts');
      ${then}
      const require = createRequire(import.meta.url);
      const has = (name) => Object.keys(require.cache).some((file) => file.includes('/node_modules/' + name + '/'));
      console.log(JSON.stringify(${JSON.stringify(heavy)}.filter(has)));`;
    expect(loaded(probe(''))).toEqual([]);
    expect(loaded(probe("await agentNamed('threshold').create();"))).toEqual([]);
    expect(loaded(probe("await agentNamed('manifest').create();"))).toEqual(['exceljs']);
  });

  it("refuses two agents on one port, or on the authority's, or serving one collection", () => {
    const line = (name: string, port: number) => registerAgent({ name, ...lineOf(threshold), port, vocabulary: [] });
    expect(() => checkRegistry([line('a', 4300)], new Map([[4300, 'the console']]))).toThrow(
      'agents.ts: a and the console both use port 4300; give each its own.',
    );
    expect(() => checkRegistry([line('a', 4204), line('b', 4205)], new Map())).toThrow(
      'agents.ts: b and a both use collection weight-limits; give each its own.',
    );
  });
});
