// The stack of the two real agents (email and manifest) with the fixtures' seeds, for browser
// tests that drive the console with real files; and sending a file through the Send page.
import { fileURLToPath } from 'node:url';
import { loadSeeds } from '@learnables/authority';
import { emailAgent } from '@learnables/email-agent';
import { manifestAgent } from '@learnables/manifest-agent';
import type { LearnableAgent } from '@learnables/runtime';
import { learnableKinds } from '@learnables/stack';
import type { Page } from 'playwright-core';
import type { ConsoleStack } from './console-harness.ts';
import { startConsoleStack } from './console-harness.ts';

export const fixture = (path: string): string => fileURLToPath(new URL(`../../fixtures/${path}`, import.meta.url));

export function startBothAgentsStack(): Promise<ConsoleStack> {
  return startConsoleStack({
    agents: [emailAgent, manifestAgent] as LearnableAgent<unknown, unknown>[],
    kinds: learnableKinds,
    seed: (authority) => loadSeeds(authority, fixture('seeds/')),
  });
}

/** Send one file from the Send page and return what the page says became of it. */
export async function sendFile(page: Page, path: string): Promise<string> {
  await page.getByRole('link', { name: 'Send' }).click();
  await page.locator('input[type=file]').setInputFiles(path);
  await page.getByRole('button', { name: 'Send file' }).click();
  const result = page.locator('.send-result').filter({ hasText: /has a question|decided|failed|refused|did not take/ });
  await result.waitFor({ timeout: 15_000 });
  return (await result.textContent()) ?? '';
}
