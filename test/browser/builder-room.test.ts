/**
 * Room for the build and one story per state (#25), in real Chromium at the sizes people use: what needs an
 * action is seen without scrolling at 1280×800, Stop watching is said once and then settled by a status poll, a
 * poll refused with 429 says its wait, the newest turn is in view after follow-ups, and a phone that finishes a
 * build points at the preview.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { builderRegion, useBrowserHarness } from './browser-harness.js';

const harness = useBrowserHarness();
const laptop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
const prompt = 'A recipe box with tags and a shopping list';

async function send(page: Page, text: string) {
  await page.locator('.ae-builder-prompt textarea').fill(text);
  await page.locator('.ae-builder-prompt button[type="submit"]').click();
}

const phase = (page: Page, value: string) => page.locator(`.ae-builder[data-phase="${value}"]`).waitFor();

/** Where an element is on screen: wholly inside the window, not covered or clipped there, and how far the page scrolled. */
function placement(locator: Locator) {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {
      inWindow: box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth,
      onTop: hit !== null && element.contains(hit),
      scrollY: window.scrollY,
    };
  });
}

/** How many project status GETs the mock received. */
const statusPolls = () =>
  harness.mock.api.admin.requests.filter(
    (request) => request.method === 'GET' && /\/agent\/project\/[^/]+$/.test(request.path),
  ).length;

/** The visible text of the builder (what a person reads, hidden parts left out). */
const builderText = (page: Page) => builderRegion(page).innerText();

describe('room for the build (1280×800 and 390 px)', () => {
  it('credits that run out mid-build put "Buy credits" on the stage, seen at 1280×800 without scrolling', async () => {
    const { page } = await harness.openPage({ viewport: laptop });
    harness.mock.api.admin.setCredits(3);
    await send(page, prompt);
    await phase(page, 'credits_exhausted');
    const stage = page.getByRole('group', { name: 'Preview' });
    const buy = stage.getByRole('button', { name: 'Buy credits' }).or(stage.getByRole('link', { name: 'Buy credits' }));
    expect(await placement(buy)).toEqual({ inWindow: true, onTop: true, scrollY: 0 });
    expect(await stage.innerText()).toContain('Your credits ran out.');
    expect(await stage.innerText()).not.toContain('Your app will appear here');
  });

  it('"Stop watching" is said once (no progress still writing, no update note), then the status poll finds it ready', async () => {
    const { page } = await harness.openPage({ viewport: laptop });
    harness.mock.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 250 });
    await send(page, prompt);
    await page.locator('.ae-file').first().waitFor();
    await page.getByRole('button', { name: 'Stop watching' }).click();
    await phase(page, 'stopped');

    const text = await builderText(page);
    for (const contradiction of ['Writing your app', 'Updating your app', 'Working on it', 'Preparing a place'])
      expect(text, `"${contradiction}" beside Stop watching`).not.toContain(contradiction);
    expect(text).toContain('You stopped watching this build.');
    // The phase is said once, by the toolbar: the log under it does not repeat it.
    expect(await page.locator('.ae-badge:visible').allInnerTexts()).toEqual(['Stopped watching']);
    expect(await page.getByRole('progressbar').count()).toBe(0);

    await phase(page, 'ready');
    expect(await builderRegion(page).getAttribute('data-state')).toBe('completed');
    await page.frameLocator('iframe.ae-frame').locator('h1').waitFor();
    expect(await page.locator('.ae-badge:visible').allInnerTexts()).toEqual(['Ready']);
  });

  it('a status poll refused with 429 after Stop watching says when it checks again', async () => {
    const { page } = await harness.openPage({ viewport: laptop });
    // The build stays where it is: polling goes on, and the poll after Stop watching is refused for a while.
    harness.mock.api.admin.injectFault({ kind: 'pause_after', events: 10 });
    await send(page, prompt);
    await page.locator('.ae-file').first().waitFor();
    // The status poll the first event asks for must be answered before the fault is queued, or it takes the fault.
    await expect.poll(() => statusPolls(), { timeout: 20_000 }).toBeGreaterThan(0);
    harness.mock.api.admin.injectFault({ kind: 'rate_limited', retryAfterSeconds: 30, route: 'getProject' });
    await page.getByRole('button', { name: 'Stop watching' }).click();
    await phase(page, 'stopped');
    const wait = page.getByText(/^Checking again in \d+ s\.$/);
    await wait.waitFor();
    const seconds = Number(/\d+/.exec(await wait.innerText())![0]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(30);
    expect(await placement(wait)).toMatchObject({ inWindow: true, onTop: true });
  });

  it('after follow-ups the newest turn is in view in the thread, with room for its build', async () => {
    const { page } = await harness.openPage({ viewport: laptop });
    await send(page, prompt);
    await phase(page, 'ready');
    const changes = ['Add a dark theme to the whole app', 'Add a print view for each recipe', 'Add a search box'];
    for (const [index, change] of changes.entries()) {
      await send(page, change);
      await page.waitForFunction(
        (count) => document.querySelectorAll('.ae-turn[data-outcome="completed"]').length === count,
        index + 2,
      );
    }
    const newest = page.locator('.ae-turn').last();
    expect(await newest.innerText()).toContain('Add a search box');
    const fit = await newest.evaluate((turn) => {
      const thread = turn.closest('.ae-builder-thread')!.getBoundingClientRect();
      const box = turn.getBoundingClientRect();
      const overflowing = turn.closest('.ae-builder-thread')!.scrollHeight > thread.height;
      return { overflowing, inThread: box.top >= thread.top - 1 && box.bottom <= thread.bottom + 1 };
    });
    // The thread holds more than it shows (else this would prove nothing), and the newest turn is in its view.
    expect(fit).toEqual({ overflowing: true, inThread: true });
    expect(await placement(newest)).toMatchObject({ inWindow: true, onTop: true });
  });

  it('on a phone, a finished build points at the preview where the eye is, and the button goes there', async () => {
    const { page } = await harness.openPage({ viewport: phone });
    await send(page, prompt);
    await phase(page, 'ready');
    const seeIt = page.getByRole('button', { name: 'See it in Preview' });
    await seeIt.waitFor();
    expect(await placement(seeIt)).toMatchObject({ inWindow: true, onTop: true });
    await seeIt.click();
    expect(await page.getByRole('tab', { name: 'Preview' }).getAttribute('aria-selected')).toBe('true');
    await page.frameLocator('iframe.ae-frame').locator('h1').waitFor();
    // A phone gets the phone's width: no device choice it could not show.
    expect(await page.getByRole('button', { name: 'Desktop' }).count()).toBe(0);
    expect(await page.locator('.ae-preview').getAttribute('data-device')).toBe('mobile');
  });

  it('keeps a half-typed prompt and the loaded app through tab switches and a resize across the breakpoint', async () => {
    const { page } = await harness.openPage({ viewport: phone });
    await send(page, prompt);
    await phase(page, 'ready');
    const draft = 'Add a dark theme and a print view';
    const box = page.locator('.ae-builder-prompt textarea');
    await box.fill(draft);

    // To the app and back: the draft is still in the box, and the app was loaded once, not again on return.
    await page.getByRole('tab', { name: 'Preview' }).click();
    const frame = page.locator('iframe.ae-frame');
    await page.frameLocator('iframe.ae-frame').locator('h1').waitFor();
    await frame.evaluate((element) => element.setAttribute('data-loaded-once', ''));
    await page.getByRole('tab', { name: 'Chat' }).click();
    expect(await box.inputValue()).toBe(draft);
    await page.getByRole('tab', { name: 'Preview' }).click();
    expect(await frame.getAttribute('data-loaded-once')).toBe('');

    // The window widened and narrowed again (390 → 1280 → 390 px): the same box, the same draft, the same frame.
    await page.setViewportSize(laptop);
    await page.locator('.ae-builder[data-layout="wide"]').waitFor();
    expect(await page.getByRole('tab').count()).toBe(0);
    expect(await box.inputValue()).toBe(draft);
    expect(await frame.getAttribute('data-loaded-once')).toBe('');
    await page.setViewportSize(phone);
    await page.locator('.ae-builder[data-layout="narrow"]').waitFor();
    await page.getByRole('tab', { name: 'Chat' }).click();
    expect(await box.inputValue()).toBe(draft);
  });
});
