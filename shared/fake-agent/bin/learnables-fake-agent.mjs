#!/usr/bin/env node
// learnables-fake-agent: the fake agent's command. Installed from the registry it runs the built
// JavaScript (dist/); in a checkout of the repository, where src/ is beside it, it runs the
// TypeScript source through tsx, so `pnpm fake-agent` needs no build step and never runs a stale one.
import { existsSync } from 'node:fs';
import { register as registerHooks } from 'node:module';

const source = new URL('../src/cli.ts', import.meta.url);
let cli;
if (existsSync(source)) {
  // The workspace's packages resolve to their source under the "@learnables/source" condition.
  const hooks = `export const resolve = (s, c, next) => next(s, { ...c, conditions: [...c.conditions, '@learnables/source'] });`;
  registerHooks(`data:text/javascript,${encodeURIComponent(hooks)}`);
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(source.href);
} else {
  cli = await import('../dist/cli.js');
}
process.exitCode = await cli.main(process.argv.slice(2));
