import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitWaitFrom, parseTokens, realToken, repoRoot } from './config.ts';

describe('the commit wait setting', () => {
  it('is 25 ms unset, takes whole milliseconds from 0 to 1,000, and refuses anything else in a sentence', () => {
    expect(commitWaitFrom(undefined)).toBe(25);
    expect(commitWaitFrom(' ')).toBe(25);
    expect(commitWaitFrom('0')).toBe(0);
    expect(commitWaitFrom(' 300 ')).toBe(300);
    expect(commitWaitFrom('1000')).toBe(1000);
    for (const bad of ['-1', '2.5', '1001', '25ms', 'soon', '1e2']) {
      expect(() => commitWaitFrom(bad)).toThrow(
        `AUTHORITY_COMMIT_WAIT_MS must be a whole number of milliseconds from 0 to 1000 (how long an activation is held back after its commit; default 25); "${bad}" is not.`,
      );
    }
  });
});

describe('placeholder tokens', () => {
  it('are refused wherever a token is read, in a sentence saying how to make one', () => {
    for (const placeholder of ['change-me-agents', 'change-me-console', 'CHANGE_ME', 'changeme', 'token', 'secret', 'xxxx']) {
      expect(() => parseTokens(`agents=${placeholder}`), placeholder).toThrow(
        `AUTHORITY_TOKENS (for agents) holds the placeholder token "${placeholder}", which anyone can read; set a token of your own, e.g. openssl rand -hex 32.`,
      );
      expect(() => realToken(placeholder, 'CONSOLE_AGENT_TOKEN'), placeholder).toThrow(/^CONSOLE_AGENT_TOKEN holds the placeholder token/);
    }
    expect(parseTokens('agents=9f2c4e1ab3,console=console-token')).toEqual(
      new Map([
        ['9f2c4e1ab3', 'agents'],
        ['console-token', 'console'],
      ]),
    );
    expect(realToken('9f2c4e1ab3', 'AUTHORITY_TOKEN')).toBe('9f2c4e1ab3');
  });

  it('stop the authority, an agent and the console at start, before they open anything (a copied .env with change-me fails too)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'placeholder-'));
    try {
      const started = (entry: readonly string[], env: Record<string, string>) =>
        spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'stack/src', entry[0]!), ...entry.slice(1)], {
          cwd: repoRoot,
          env: {
            ...process.env,
            AUTHORITY_STORE: `sqlite:${dir}/authority.db`,
            THRESHOLD_AGENT_STORE: `sqlite:${dir}/agent.db`,
            AUTHORITY_PORT: '0',
            THRESHOLD_AGENT_PORT: '0',
            CONSOLE_PORT: '0',
            ...env,
          },
          encoding: 'utf8',
          timeout: 60_000,
        });
      const cases: readonly (readonly [readonly string[], Record<string, string>, string])[] = [
        [['authority-main.ts'], { AUTHORITY_TOKENS: 'agents=change-me-agents,console=change-me-authority' }, 'AUTHORITY_TOKENS (for agents)'],
        [['agent-main.ts', 'threshold'], { AUTHORITY_TOKEN: 'change-me-agents', AGENT_TOKENS: 'operator-desk=4b1d0c9e' }, 'AUTHORITY_TOKEN'],
        [['agent-main.ts', 'threshold'], { AUTHORITY_TOKEN: '4b1d0c9e', AGENT_TOKENS: 'operator-desk=change-me-console' }, 'AGENT_TOKENS (for operator-desk)'],
        [['console-main.ts'], { CONSOLE_AGENT_TOKEN: 'change-me-console', CONSOLE_AUTHORITY_TOKEN: '4b1d0c9e' }, 'CONSOLE_AGENT_TOKEN'],
      ];
      for (const [entry, env, variable] of cases) {
        const run = started(entry, env);
        expect(run.status, entry.join(' ')).not.toBe(0);
        expect(run.stderr, entry.join(' ')).toContain(`${variable} holds the placeholder token`);
        expect(run.stderr, entry.join(' ')).toContain('openssl rand -hex 32');
      }
      // Nothing was opened: no database file was made.
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
