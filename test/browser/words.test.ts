/**
 * The playground as a new end user meets it in real Chromium: a first load with no console noise that shows
 * the prompt box, and the failure scenarios of the scenario panel read in end-user words, each once.
 */
import type { ConsoleMessage, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { defaultErrorLabels } from 'agent-embed';
import { useBrowserHarness, watchRequests } from './browser-harness.js';

const harness = useBrowserHarness();

/** The API's words for operators, which end users must never read. */
const operatorWords = ['API token', 'team', 'external user', 'Unauthorized.', 'Too Many Attempts.', 'Server Error'];

/** What the end user reads: the embed's visible text (closed Details and the playground's own panel excluded). */
function visibleText(page: Page): Promise<string> {
  return page.getByRole('main', { name: 'App builder' }).innerText();
}

/**
 * What a sighted end user reads, line by line: the text that is rendered on screen, without the build
 * log's screen-reader announcements (clipped to a pixel) or the inside of a closed Details.
 */
function seenText(page: Page): Promise<string> {
  return page.getByRole('main', { name: 'App builder' }).evaluate((main) => {
    const lines: string[] = [];
    const walker = main.ownerDocument.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim() ?? '';
      if (text === '' || parent === null || parent.closest('.ae-visually-hidden') !== null) continue;
      if (!parent.checkVisibility({ visibilityProperty: true })) continue;
      lines.push(text);
    }
    return lines.join('\n');
  });
}

/** How often the end user reads that credits ran out, in whatever words. */
const creditsWords = /run out of credits|credits ran out|out of credits/gi;

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

async function runScenario(page: Page, label: string) {
  await page.getByRole('button', { name: label, exact: true }).click();
  await page.getByText(`Done: ${label}`).waitFor();
}

async function generate(page: Page) {
  await page.getByLabel('Describe the app you want').fill('A recipe box with tags and a shopping list');
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
}

describe('a first load of the playground', () => {
  it('opens signed in as the first fake user on the builder, with no console error or warning', async () => {
    // A visitor with no cookie at all: not the harness's signed-in page.
    const context = await harness.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const requestsSettled = watchRequests(page);
      const noise: string[] = [];
      page.on('console', (message: ConsoleMessage) => {
        if (message.type() === 'error' || message.type() === 'warning') noise.push(message.text());
      });
      page.on('pageerror', (error) => noise.push(error.message));
      await page.goto(harness.playground.url);
      await page.getByLabel('Describe the app you want').waitFor();
      expect(await page.getByLabel('Signed in as').inputValue()).toBe('ada');
      // The connection lookups of a new user ("not connected yet") answer 200, so nothing is logged in red.
      // Deploy, code host and plans wait in the builder's sheets.
      await page.getByRole('button', { name: 'Publish' }).click();
      await page.locator('section.ae-codehost[data-state="missing"]').waitFor();
      await page.locator('section.ae-deploy[data-state="missing"]').waitFor();
      await page.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('button', { name: 'Plans' }).click();
      await page.locator('section.ae-plans[data-state="success"]').waitFor();
      await requestsSettled();
      expect(noise).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the whole page follows the dark theme, not only the embed', async () => {
    const { page } = await harness.openPage({ colorScheme: 'dark' });
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const luminance = (color: string) => {
      const [red = 0, green = 0, blue = 0] = color.match(/\d+/g)!.map(Number);
      return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
    };
    expect(luminance(await background())).toBeLessThan(60);
    await page.getByLabel('Theme').selectOption('light');
    expect(luminance(await background())).toBeGreaterThan(200);
  });
});

describe('failure scenarios in end-user words', () => {
  const scenarios = [
    { label: 'Expire the API token', copy: defaultErrorLabels.kinds.token_expired },
    { label: 'Suspend the team', copy: defaultErrorLabels.kinds.suspended },
    { label: 'No credits', copy: defaultErrorLabels.kinds.insufficient_credits },
    { label: 'Next request: HTTP 500', copy: defaultErrorLabels.kinds.upstream },
  ];

  for (const { label, copy } of scenarios) {
    it(`${label}: no operator words, and the failure reads once`, async () => {
      const { page, requestsSettled } = await harness.openPage();
      await runScenario(page, label);
      await generate(page);
      await page.locator('[role="alert"]').first().waitFor();
      await requestsSettled();
      const text = await visibleText(page);
      for (const word of operatorWords) expect(text, `"${word}" on screen`).not.toContain(word);
      expect(occurrences(text, copy), text).toBe(1);
    });
  }

  it('an account-wide failure met by every component on a fresh load still reads once', async () => {
    const { page } = await harness.openPage();
    await runScenario(page, 'Expire the API token');
    await page.reload();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.locator('section.ae-deploy[data-state="error"]').waitFor();
    await page.locator('section.ae-codehost[data-state="error"]').waitFor();
    const text = await visibleText(page);
    for (const word of operatorWords) expect(text, `"${word}" on screen`).not.toContain(word);
    expect(occurrences(text, defaultErrorLabels.kinds.token_expired), text).toBe(1);
  });

  it('No credits: told once, in the prompt box, with "Buy credits" (the plans), and nothing else says it', async () => {
    const { page, requestsSettled } = await harness.openPage();
    await runScenario(page, 'No credits');
    await generate(page);
    const alert = page.getByRole('alert');
    await alert.getByText(defaultErrorLabels.kinds.insufficient_credits).waitFor();
    await requestsSettled();
    const seen = await seenText(page);
    // One sentence, one place: no "Out of credits" pill, build log or stage beside the prompt box's alert.
    expect(seen.match(creditsWords), seen).toEqual(['run out of credits']);
    expect(await page.getByRole('region', { name: 'Build progress' }).count()).toBe(0);
    expect(await page.locator('.ae-builder').getAttribute('data-phase')).toBe('idle');
    await alert.getByRole('button', { name: 'Buy credits' }).click();
    await page.getByRole('dialog', { name: 'Plans' }).locator('section.ae-plans[data-state="success"]').waitFor();
  });

  it('credits running out mid-build: told once, in the build log on the stage, with "Buy credits"', async () => {
    const { page, requestsSettled } = await harness.openPage();
    await runScenario(page, 'Credits run out mid-build');
    await generate(page);
    const log = page.getByRole('region', { name: 'Build progress' });
    await log.locator('.ae-outcome[data-phase="credits_exhausted"]').waitFor();
    await requestsSettled();
    const seen = await seenText(page);
    const told = (seen.match(creditsWords) ?? []).filter((words) => words !== 'Out of credits');
    // The pills name the state; the sentence with its next step is the log's alone.
    expect(told, seen).toEqual(['credits ran out']);
    expect(await page.getByRole('button', { name: 'Buy credits' }).count()).toBe(1);
    // No app to show: the stage holds the log, with its next step.
    expect(
      await page.getByRole('group', { name: 'Preview' }).getByRole('button', { name: 'Buy credits' }).count(),
    ).toBe(1);
  });

  it('a 429 counts down from Retry-After', async () => {
    const { page } = await harness.openPage();
    await runScenario(page, 'Next request: 429');
    await generate(page);
    const countdown = page.getByText(/You can try again in \d+ s\./);
    await countdown.first().waitFor();
    const first = Number((await countdown.first().innerText()).match(/in (\d+) s/)![1]);
    expect(first).toBeGreaterThan(15);
    expect(first).toBeLessThanOrEqual(20);
    await page.waitForFunction(
      (start) => {
        const match = document.body.innerText.match(/You can try again in (\d+) s\./);
        return match !== null && Number(match[1]) < start;
      },
      first,
      { timeout: 5_000 },
    );
    const text = await visibleText(page);
    for (const word of operatorWords) expect(text, `"${word}" on screen`).not.toContain(word);
    expect(occurrences(text, 'You can try again in')).toBe(1);
  });

  it('a dropped stream: no operator words, no failure repeated, the prompt once in the conversation', async () => {
    const { page, requestsSettled } = await harness.openPage();
    await runScenario(page, 'Drop the next stream');
    await generate(page);
    await page.locator('.ae-builder[data-phase="ready"], .ae-builder[data-phase="interrupted"]').waitFor();
    await requestsSettled();
    const text = await visibleText(page);
    for (const word of operatorWords) expect(text, `"${word}" on screen`).not.toContain(word);
    expect(await page.getByRole('alert').count()).toBeLessThanOrEqual(1);
    // The proxy's record of the turn and this browser's are one turn, not one stuck "Working on it…" and one done.
    const turns = page.getByRole('region', { name: 'Conversation' }).getByRole('listitem');
    expect(await turns.count()).toBe(1);
    expect(occurrences(await seenText(page), 'A recipe box with tags and a shopping list')).toBe(1);
    expect(await turns.first().innerText()).not.toContain('Working on it');
  });
});
