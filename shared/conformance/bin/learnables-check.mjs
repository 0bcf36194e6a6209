#!/usr/bin/env node
// learnables-check: the conformance kit's command. The kit is TypeScript run through tsx, like the
// rest of this repository; registering tsx here lets `pnpm exec learnables-check` and
// `npx learnables-check` work without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
