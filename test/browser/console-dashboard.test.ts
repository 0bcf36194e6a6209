// The dashboard tells the right story: the headline is the latest week with enough messages (a
// week of 5 messages reading "60 per 100" is drawn hollow and named as too few, never the
// headline), every week's message count is on the chart, both panels share one scale, and a week
// without messages leaves a gap in the line.
//
// The weekly numbers are served to the page in place of the console's /api/stats (the agents'
// counting is tested with the agents); the console, its page and the browser are real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsole } from '@learnables/console';
import type { RunningConsole } from '@learnables/console';
import type { Browser, Page } from 'playwright-core';
import { scratchDir } from '@learnables/testing';
import type { ScratchDir } from '@learnables/testing';
import { launchBrowser, signedInPage, testAccounts } from './console-harness.ts';
import { silentLogger } from '@learnables/authority';

const week = (period: string, messages: number, questions: number) => ({
  period,
  messages,
  questions,
  questionsPer100: messages === 0 ? 0 : Math.round((questions * 1000) / messages) / 10,
});

const STATS = {
  agents: [
    {
      agentId: 'email',
      name: 'Email agent',
      periods: [week('2026-10-05', 40, 16), week('2026-10-12', 40, 8), week('2026-10-19', 0, 0), week('2026-10-26', 50, 4), week('2026-11-02', 5, 3)],
    },
    { agentId: 'manifest', name: 'Manifest agent', periods: [week('2026-10-05', 30, 3), week('2026-10-12', 30, 2)] },
  ],
};

describe('the dashboard', () => {
  let consoleApp: RunningConsole;
  let browser: Browser;
  let dir: ScratchDir;
  let page: Page;

  beforeAll(async () => {
    dir = scratchDir('console-dashboard-');
    [consoleApp, browser] = await Promise.all([
      createConsole({ accounts: await testAccounts(dir.path), agents: [], authority: { url: 'http://127.0.0.1:9', token: 'unused' }, logger: silentLogger() }),
      launchBrowser(),
    ]);
    page = await signedInPage(browser, consoleApp.url, 'dana');
    await page.route('**/api/stats', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(STATS) }));
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.locator('svg.chart').first().waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await consoleApp?.close();
    dir?.remove();
  });

  const panel = (name: string) => page.getByRole('region', { name });

  it('headlines the latest week with enough messages, and says the later week had too few', async () => {
    const headline = (await panel('Email agent').locator('.headline').textContent()) ?? '';
    expect(headline).toContain('8 questions per 100 messages in the week of Oct 26 (50 messages)');
    expect(headline).not.toMatch(/^60/);
    expect(headline).toContain('fewer than 20 messages (5 in the week of Nov 2)');
    expect(await panel('Email agent').locator('.figure').textContent()).toBe('8');
  });

  it('draws the week with few messages hollow, saying so, and shows each week’s message count', async () => {
    const email = panel('Email agent');
    expect(await email.locator('circle.point.few').count()).toBe(1);
    expect(await email.locator('circle.point.few title').textContent()).toContain('Week of Nov 2: 60 per 100 (3 questions in 5 messages) — few messages');
    expect(await email.locator('text.count').allTextContents()).toEqual(['40 messages', '40 messages', '50 messages', '5 messages']);
  });

  it('says plainly when an agent does not count decisions corrected later (its numbers carry no such count)', async () => {
    expect(await panel('Manifest agent').locator('.corrections-line').textContent()).toBe(
      'Manifest agent does not count decisions corrected later, so a falling line here cannot show whether it fell by deciding wrongly.',
    );
  });

  it('leaves a gap for the week without messages and puts both panels on one scale', async () => {
    expect(await panel('Email agent').locator('circle.point').count()).toBe(4);
    const d = (await panel('Email agent').locator('path.line').getAttribute('d')) ?? '';
    expect(d.match(/M/g)).toHaveLength(2);
    const ticks = (name: string) => panel(name).locator('text.tick:not(.count)').allTextContents();
    const emailTicks = await ticks('Email agent');
    expect(emailTicks.slice(0, 4)).toEqual(['0', '20', '40', '60']);
    expect((await ticks('Manifest agent')).slice(0, 4)).toEqual(emailTicks.slice(0, 4));
    expect(await page.locator('svg.chart .axis-title').first().textContent()).toBe('per 100 messages');
  });

  it('keeps axis labels readable: at least 9 px on screen at 390 px wide', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    const smallest = await page.locator('svg.chart text').evaluateAll((texts) => Math.min(...texts.map((text) => text.getBoundingClientRect().height)));
    expect(smallest).toBeGreaterThanOrEqual(9);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });
});
