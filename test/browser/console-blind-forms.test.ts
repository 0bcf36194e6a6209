// The console draws what the cards say and promises only what they promise: a lesson field of a
// kind it has never heard of, decidedBy rules versus model, a file routed by media type, and a
// lesson that does not settle its message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@a2a-js/sdk/client';
import type { InputPart, LearnableAgent } from '@learnables/runtime';
import type { Browser, Page } from 'playwright-core';
import { wordAgent } from '../../shared/runtime/src/word-agent.test-support.ts';
import type { ConsoleStack } from './console-harness.ts';
import { answerQuestion, launchBrowser, openQuestion, sendText, signedInPage, startConsoleStack } from './console-harness.ts';

const asText = (parts: readonly InputPart[]): InputPart[] =>
  parts.map((part) => (part.kind === 'file' ? { kind: 'text', text: new TextDecoder().decode(part.bytes) } : part));

/** The word agent with a second lesson field of a kind no client knows, reading .csv files. */
const colourAgent = {
  ...wordAgent,
  name: 'Colour stub agent',
  skill: { id: 'colour-stub', name: 'Which list, by sheet', description: 'Which list the words of a sheet belong to', inputModes: ['text/csv'] },
  declaration: {
    ...wordAgent.declaration,
    lessonFields: [
      { name: 'word', label: 'Word', kind: 'text' },
      { name: 'shade', label: 'Shade', kind: 'colour' },
    ],
  },
  parse: (parts: readonly InputPart[]) => wordAgent.parse(asText(parts)),
} as LearnableAgent<unknown, unknown>;

/** The word agent, declaring that a model decides: a lesson is one example among many. */
const modelAgent = {
  ...wordAgent,
  name: 'Model stub agent',
  skill: { ...wordAgent.skill, id: 'model-stub' },
  declaration: { ...wordAgent.declaration, decidedBy: 'model' },
} as LearnableAgent<unknown, unknown>;

describe('the console draws the cards blind and promises no more than they do', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let page: Page;
  let words: Client;
  let model: Client;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([
      startConsoleStack({ agents: [wordAgent as LearnableAgent<unknown, unknown>, colourAgent, modelAgent] }),
      launchBrowser(),
    ]);
    [words, model] = await Promise.all([stack.sdk(stack.agents[0]!), stack.sdk(stack.agents[2]!)]);
    page = await signedInPage(browser, stack.console.url, 'lee');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('sends a .csv to the only agent whose card reads text/csv, and draws its "colour" field as a text input', async () => {
    await page.getByRole('link', { name: 'Send' }).click();
    await page.locator('input[type=file]').setInputFiles({ name: 'crates.csv', mimeType: 'text/csv', buffer: Buffer.from('quince,crates\n') });
    await expect.poll(() => page.locator('.route').textContent()).toBe('Goes to Colour stub agent.');
    await page.getByRole('button', { name: 'Send file' }).click();
    await expect.poll(() => page.locator('.send-result').textContent()).toContain('Colour stub agent has a question');
    await page.getByRole('link', { name: 'Answer it' }).click();

    const form = page.locator('form.answer-form');
    await form.getByRole('checkbox', { name: /^Remember this/ }).check();
    const shade = form.getByLabel(/^Shade/);
    expect(await shade.evaluate((element) => `${element.tagName.toLowerCase()}[type=${element.getAttribute('type')}]`)).toBe('input[type=text]');
    expect(await form.locator('input[name="shade"]').count()).toBe(1);
    expect(await form.locator('label', { hasText: 'Shade' }).textContent()).toBe('Shade (colour, typed as text)');
    expect(await form.getByLabel('Word', { exact: true }).inputValue()).toBe('quince,crates');
  });

  it('says no agent reads a file of a type no card lists, and sends nothing', async () => {
    await page.getByRole('link', { name: 'Send' }).click();
    await page.locator('input[type=file]').setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await expect.poll(() => page.locator('.file-details [role=alert]').textContent()).toContain('No agent here reads PDF document (application/pdf)');
    expect(await page.getByRole('button', { name: 'Send file' }).isDisabled()).toBe(true);
  });

  it('promises "the next message" under rules, and only "one example among many" under a model', async () => {
    await sendText(words, 'grape juice');
    await openQuestion(page, 'grape juice');
    await page.getByRole('checkbox', { name: /^Remember this/ }).check();
    expect(await page.locator('.honesty').textContent()).toContain('takes effect on the next message');

    await sendText(model, 'melon slice');
    await openQuestion(page, 'melon slice');
    expect(await page.locator('.eyebrow').first().textContent()).toContain('Model stub agent');
    await page.getByRole('checkbox', { name: /^Remember this/ }).check();
    const promise = await page.locator('.honesty').textContent();
    expect(promise).toContain('one example among many');
    expect(promise).not.toContain('takes effect on the next message');
  });

  it('answers a question with "remember this" from the keyboard alone', async () => {
    await sendText(words, 'date palm');
    await openQuestion(page, 'date palm');
    await page.locator('h1:focus').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await page.getByRole('radio', { name: 'List alpha', exact: true }).isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await page.getByRole('checkbox', { name: /^Remember this/ }).isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('date');
    await page.keyboard.press('Tab');
    await page.keyboard.type('palms go on alpha');
    await page.keyboard.press('Tab');
    // The first press shows what the lesson would do; focus stays on the button, the second confirms.
    await page.keyboard.press('Enter');
    await page.locator('.preview-box .notice').waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Confirm: answer and remember');
    await page.keyboard.press('Enter');
    await page.locator('.show-back .reading.settled').waitFor();
    expect(await page.locator('.show-back .reading.settled .reads').textContent()).toBe('Belongs to List alpha');
  });

  it('shows a lesson that does not settle its message as a warning, and teaching again settles it', async () => {
    await sendText(words, 'plum jam');
    await openQuestion(page, 'plum jam');
    await answerQuestion(page, { entry: 'List alpha', remember: { reason: 'jams are alpha', fields: { Word: 'damson' } } });

    const unsettled = page.locator('.show-back .reading.unsettled');
    await unsettled.waitFor();
    expect(await unsettled.locator('.reads').textContent()).toBe('Still cannot tell which list this is.');
    expect(await unsettled.getAttribute('role')).toBe('alert');

    await unsettled.getByRole('button', { name: 'Teach again' }).click();
    const again = page.locator('.teach-again form');
    expect(await again.getByLabel('Word', { exact: true }).inputValue()).toBe('damson');
    await again.getByLabel('Word', { exact: true }).fill('plum');
    await again.getByLabel('Why').fill('the jam is plum');
    await again.getByRole('button', { name: 'Teach this' }).click();
    await page.locator('.show-back .reading.settled').waitFor();
    expect(await page.locator('.show-back .reading.settled .reads').textContent()).toBe('Belongs to List alpha');
    expect((await stack.authority.client.history('lists')).activations.slice(0, 2).map((a) => [a.author, a.audit])).toEqual([
      ['lee', "alpha knows the word 'plum'"],
      ['lee', "alpha knows the word 'damson'"],
    ]);
  });
});
