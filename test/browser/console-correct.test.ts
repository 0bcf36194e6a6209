// Settling every question and undoing one mistake, through the console as a clerk does it:
// "none of these", a new customer from the question itself, what a lesson would do before it is
// kept, taking one lesson back from the customer's page, what a rollback would undo before it
// is confirmed, and what decided a task. Real agents, real authority, Chromium.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixture, startBothAgentsStack } from './both-agents.ts';
import type { ConsoleStack } from './console-harness.ts';
import { launchBrowser, openQuestion, screenshot, signedInPage } from './console-harness.ts';

async function sendEmail(client: Client, name: string): Promise<Task> {
  const raw = readFileSync(fixture(`email/${name}`)).toString('base64');
  const result = await client.sendMessage(
    SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ raw, mediaType: 'message/rfc822', filename: name }] } }),
  );
  if (!('status' in result)) throw new Error('the agent answered with a message, not a task');
  return result as Task;
}

describe('the console, through a browser: settle every question, undo one mistake', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let page: Page;
  let email: Client;
  const history = async () => (await stack.authority.client.history('customers', { limit: 100 })).activations;
  const form = () => page.locator('form.answer-form');

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startBothAgentsStack(), launchBrowser()]);
    email = await stack.sdk(stack.agents[0]!);
    page = await signedInPage(browser, stack.console.url, 'dana');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('answers "none of these": the task completes and nothing is written', async () => {
    const asked = await sendEmail(email, 'hollis-toys-origin-example-near-miss.eml');
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const before = await history();
    await openQuestion(page, 'wooden toys');
    await form().getByRole('radio', { name: 'None of these', exact: true }).check();
    // "None of these" teaches nothing: the lesson is set aside while it is chosen.
    expect(await form().locator('fieldset.remember').isHidden()).toBe(true);
    await form().getByRole('button', { name: 'Answer: none of these' }).click();
    await page.getByRole('heading', { name: 'Answered', level: 1 }).waitFor();
    expect(await page.locator('main').textContent()).toContain('You answered “None of these”.');
    const task = await email.getTask({ tenant: '', id: asked.id, historyLength: 1 });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(await history()).toEqual(before);
  });

  it('adds a new customer from the question, teaches it, and the next message from them is decided unasked', async () => {
    const asked = await sendEmail(email, 'northgate-billing-prealert.eml');
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    await openQuestion(page, 'OB-55120');
    await form().getByRole('radio', { name: 'A new customer…', exact: true }).check();
    await form().getByLabel('Name of the new customer').fill('Origin Billing Services');
    await form()
      .getByRole('checkbox', { name: /^Remember this/ })
      .check();
    // The suggestion is said in the agent's words, with no pattern in sight until the clerk asks for it.
    const words = form().locator('.lesson-words');
    expect(await words.locator('.lesson-says').innerText()).toBe("The lesson: the words 'Northgate Motors' anywhere in mail from billing@origin.example");
    expect(await form().locator('.lesson-fields').innerText()).not.toMatch(/\\|\(\?:|RE2|regular expression/);
    await words.locator('summary').click();
    expect(await words.locator('.lesson-exact').innerText()).toContain('Northgate\\s+Motors');
    // The suggestion is Northgate's name on Origin's mail (Origin names its consignee): for a new
    // customer the clerk teaches Origin's address instead, in the card's fields.
    await words.getByRole('button', { name: 'Change it…' }).click();
    const pattern = form().getByLabel('Text that gives the customer away', { exact: true });
    expect(await pattern.inputValue()).toContain('Northgate');
    await pattern.fill('<billing@origin\\.example>');
    await form().getByLabel('Where to look').selectOption('from');
    await form().getByLabel('Only in mail from', { exact: true }).fill('');
    await form().getByLabel('Why').fill('A new customer; their billing desk writes from this address');
    await form().getByRole('button', { name: 'Add the customer, answer and remember' }).click();
    await page.locator('.show-back').waitFor();
    expect(await page.locator('main').textContent()).toContain('You answered “Origin Billing Services”.');
    expect(await page.locator('.show-back .reading.settled .reads').textContent()).toContain('Origin Billing Services');
    const [lesson, added] = await history();
    expect(added).toMatchObject({ kind: 'entry-added', author: 'dana', entry: 'origin-billing-services' });
    expect(lesson).toMatchObject({
      kind: 'lesson',
      author: 'dana',
      entry: 'origin-billing-services',
      reason: 'A new customer; their billing desk writes from this address',
    });
    const next = await sendEmail(email, 'northgate-billing-prealert.eml');
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('shows what a lesson would do before it is kept, warning when it would take another customer’s messages', async () => {
    // Harbor Lane's notice is decided by one mark, its sender's domain.
    expect((await sendEmail(email, 'harborlane-html-only-asn.eml')).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await sendEmail(email, 'hollis-toys-origin-example-near-miss.eml');
    await openQuestion(page, 'wooden toys');
    await form().getByRole('radio', { name: 'Northgate Motors Ltd', exact: true }).check();
    await form()
      .getByRole('checkbox', { name: /^Remember this/ })
      .check();
    await form().getByRole('button', { name: 'Change it…' }).click();
    const pattern = form().getByLabel('Text that gives the customer away', { exact: true });
    const where = form().getByLabel('Where to look');
    const sender = form().getByLabel('Only in mail from', { exact: true });
    // The suggestion is Hollis's name on this sender's mail, which only Hollis may be taught.
    expect(await pattern.inputValue()).toContain('Hollis');
    await pattern.fill('Advance shipping notice');
    await where.selectOption('subject');
    await sender.fill('');
    await form().getByLabel('Why').fill('Hollis ships through Northgate');
    const before = await history();
    await form().getByRole('button', { name: 'Check what this lesson would do' }).click();
    const preview = form().locator('.preview-box .notice');
    await preview.waitFor();
    const said = (await preview.textContent()) ?? '';
    expect(said).toMatch(/decided for another customer would go to Northgate Motors Ltd instead|decided now would no longer be decided/);
    expect(said).toContain('Harbor Lane');
    expect(await preview.getAttribute('class')).toContain('notice-warning');
    await preview.scrollIntoViewIfNeeded();
    await screenshot(page, 'email-preview-warning');
    // The preview wrote nothing, and any change to the lesson asks for a fresh one.
    expect(await history()).toEqual(before);
    await pattern.fill('<billing@origin-example\\.example>');
    await where.selectOption('from');
    expect(await form().locator('.preview-box').textContent()).toBe('');
    await form().getByRole('button', { name: 'Check what this lesson would do' }).click();
    await preview.waitFor();
    // A message from this sender was answered "none of these" (above): what the clerk said is the truth
    // a lesson is held to (SPEC §6.5), so claiming it for Northgate warns, with the example.
    const second = (await preview.textContent()) ?? '';
    expect(second, second).toMatch(
      /someone answered or corrected \(as another customer, or none of these\) would go to Northgate Motors Ltd, against what they said\..*Answered: none of these\./,
    );
    expect(await preview.getAttribute('class')).toContain('notice-warning');
    await form().getByRole('button', { name: 'Confirm: answer and remember' }).click();
    await page.locator('.show-back').waitFor();
    expect((await history())[0]).toMatchObject({ kind: 'lesson', entry: 'northgate', author: 'dana' });
  });

  it('takes one lesson back from the customer’s page, keeping the rest', async () => {
    const taughtVersion = (await history())[0]!.version;
    await page.goto(`${stack.console.url}/#/entries/customers/northgate`);
    await page.getByRole('heading', { name: 'Northgate Motors Ltd', level: 1 }).waitFor();
    const row = page.locator('table.taught tbody tr').filter({ hasText: 'Hollis ships through Northgate' });
    // The lesson in the agent's words, who taught it and why: no pattern, no version number.
    expect(await row.textContent()).toContain(
      'Taught by dana, for Northgate Motors Ltd: mail from billing@origin-example.example, because “Hollis ships through Northgate”.',
    );
    expect(await page.locator('main').innerText()).not.toMatch(/\\|\bv\d|version \d/i);
    await row.getByRole('button', { name: 'Take back' }).click();
    await page.getByLabel('Why take back “mail from billing@origin-example.example”?').fill('Hollis is not Northgate after all');
    await page.getByRole('button', { name: 'Take back this lesson' }).click();
    await page.locator('.notice-success').waitFor();
    expect(await page.locator('.notice-success').textContent()).toBe(
      'Taken back: mail from billing@origin-example.example. Everything else taught to Northgate Motors Ltd stays.',
    );
    expect(await page.locator('table.taught').count()).toBe(0);
    expect(await page.locator('.retracted').textContent()).toContain('Hollis is not Northgate after all');
    const [retraction] = await history();
    expect(retraction).toMatchObject({ kind: 'retraction', author: 'dana', retracts: taughtVersion, entry: 'northgate' });
    // The new customer's lessons, taught before, stay.
    expect((await sendEmail(email, 'northgate-billing-prealert.eml')).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('says what a rollback would undo before it is confirmed', async () => {
    await page.getByRole('link', { name: 'History', exact: true }).click();
    await page.locator('table.history').waitFor();
    // The oldest change is the set-up: undoing everything after it is the whole way back.
    await page.getByRole('button', { name: 'Undo the changes after this' }).last().click();
    const effect = page.locator('.rollback-effect .undoes');
    await effect.waitFor();
    const listed = await effect.locator('li').allTextContents();
    const expected = (await history()).filter((activation) => activation.version > 1 && activation.kind !== 'rollback');
    expect(listed).toHaveLength(expected.length);
    expect(listed.join('\n')).toContain('Origin Billing Services');
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('names each recently decided message, and shows what decided it: the agent’s words, the version, and who taught that customer what', async () => {
    await page.getByRole('link', { name: /^Questions/ }).click();
    await page.locator('.recent table').waitFor();
    await page.locator('.recent tbody tr').filter({ hasText: 'HLT-40021' }).first().getByRole('link').first().click();
    const decided = page.locator('.decided-it');
    await decided.waitFor();
    expect(await decided.textContent()).toContain('Harbor Lane Textiles');
    expect(await decided.innerText()).not.toMatch(/harbor-lane|\bv\d|version \d/i);
    await decided.getByRole('link', { name: 'Who taught it this, and when' }).click();
    await page.getByRole('heading', { name: 'Harbor Lane Textiles', level: 1 }).waitFor();
    expect(await page.locator('main').textContent()).toContain('Nothing has been taught to Harbor Lane Textiles since the start');
  });

  it('offers a customer added while a question waited, and takes it as the answer', async () => {
    const asked = await sendEmail(email, 'hollis-toys-origin-example-near-miss.eml');
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    await stack.authority.client.addEntry({ collection: 'customers', newEntry: { label: 'Wren Toy Company' }, taughtBy: 'lee', reason: 'signed this week' });
    await openQuestion(page, 'wooden toys');
    const added = form().getByRole('radio', { name: 'Wren Toy Company (added since this message arrived)', exact: true });
    await added.check();
    await form().locator('button[type=submit]').click();
    await page
      .locator('h1')
      .filter({ hasText: /Answered|What the agent reads now/ })
      .waitFor();
    const task = await email.getTask({ tenant: '', id: asked.id, historyLength: 1 });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.stringify(task.status?.message)).toContain('Wren Toy Company');
  });
});
