/**
 * `npx tsx scripts/screenshots.ts <prefix>`: drives the playground's AgentBuilder in Debian's Chromium through a
 * new end user's first visit (empty, generated, Vercel and GitHub connected in the Publish sheet, a repository
 * picked, the plans, light, dark and 390 px, the failure scenarios, a returning user's empty builder, a
 * follow-up while it builds and after it failed) and writes page and component screenshots
 * to docs/screenshots/<prefix>-*.png, so the look can be judged by eye and compared across changes. Files of
 * the prefix that this run did not write are deleted, so every remaining shot is current.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { launchChromium, scriptedPlaygroundOptions } from './chromium.ts';
import { startPlayground } from '../playground/server.ts';
import { sessionCookie } from '../playground/users.ts';

const prefix = process.argv[2] ?? 'after';
const outputDirectory = new URL('../docs/screenshots/', import.meta.url).pathname;
mkdirSync(outputDirectory, { recursive: true });
const written = new Set<string>();

const playground = await startPlayground(scriptedPlaygroundOptions);
const browser = await launchChromium();
const prompt = 'A recipe box with tags and a shopping list';

/** The components of the Publish sheet, by the name their screenshots carry. */
const publishComponents = {
  deploy: 'section.ae-deploy',
  codehost: 'section.ae-codehost',
  repositories: 'section.ae-repo-picker',
};

function file(name: string): string {
  const fileName = `${prefix}-${name}.png`;
  written.add(fileName);
  return `${outputDirectory}${fileName}`;
}

/** Lets entrances and countdown ticks settle; no hover or focus ring left on whatever was clicked last. */
async function settle(page: Page) {
  await page.mouse.move(0, 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.waitForTimeout(400);
}

/** The whole page; only the window while a sheet or dialog is open (it covers the window, not the page). */
async function shootPage(page: Page, name: string) {
  await settle(page);
  const dialogOpen = (await page.getByRole('dialog').count()) > 0;
  await page.screenshot({ path: file(name), fullPage: !dialogOpen });
}

async function shootElement(element: Locator, name: string) {
  await element.scrollIntoViewIfNeeded();
  await element.screenshot({ path: file(name) });
}

async function openSheet(page: Page, button: 'Publish' | 'Plans'): Promise<Locator> {
  await page.getByRole('button', { name: button, exact: true }).click();
  const sheet = page.getByRole('dialog');
  await sheet.waitFor();
  return sheet;
}

async function closeSheet(page: Page) {
  await page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

/**
 * The Publish sheet's components once their lookups have settled (in the sheet already open, which keeps what
 * was chosen in it), then the plans, each on its own.
 */
async function shootComponents(page: Page, state: string) {
  const open = page.getByRole('dialog');
  const sheet = (await open.count()) > 0 ? open : await openSheet(page, 'Publish');
  await sheet.locator('section.ae-codehost:not([data-state="loading"])').waitFor();
  await sheet.locator('section.ae-deploy:not([data-state="loading"])').waitFor();
  await settle(page);
  for (const [component, selector] of Object.entries(publishComponents)) {
    const element = sheet.locator(selector).first();
    if ((await element.count()) > 0) await shootElement(element, `${component}-${state}`);
  }
  await closeSheet(page);
  const plans = await openSheet(page, 'Plans');
  await plans.locator('section.ae-plans[data-state="success"]').waitFor();
  await settle(page);
  await shootElement(plans.locator('section.ae-plans'), `plans-${state}`);
  await closeSheet(page);
}

async function openPage(options: { colorScheme: 'light' | 'dark'; width: number; user?: string | null }) {
  const context = await browser.newContext({
    colorScheme: options.colorScheme,
    viewport: { width: options.width, height: 900 },
  });
  if (options.user !== null)
    await context.addCookies([{ name: sessionCookie, value: options.user ?? 'ada', url: playground.url }]);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      console.log(`  console ${message.type()}: ${message.text()}`);
  });
  await page.goto(playground.url);
  await page.getByLabel('Describe the app you want').waitFor();
  await page.waitForLoadState('networkidle');
  return page;
}

/** Connects GitHub through the mock's install page, which sends the browser back; returns the reopened sheet. */
async function connectGitHub(page: Page, sheet: Locator): Promise<Locator> {
  await sheet.getByRole('button', { name: 'Connect GitHub' }).click();
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  await page.waitForURL((url) => url.origin === new URL(playground.url).origin);
  await page.locator('.ae-builder[data-phase="ready"]').waitFor();
  return openSheet(page, 'Publish');
}

/** The looks every new state is shot in, with the name each shot carries. */
const looks = [
  { colorScheme: 'light', width: 1280, name: 'light' },
  { colorScheme: 'dark', width: 1280, name: 'dark' },
  { colorScheme: 'light', width: 390, name: '390' },
] as const;

async function scenario(page: Page, label: string) {
  await page.getByRole('button', { name: label, exact: true }).click();
  await page.getByText(`Done: ${label}`).waitFor();
}

async function submitPrompt(page: Page) {
  await page.getByLabel('Describe the app you want').fill(prompt);
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
}

try {
  playground.mock!.api.admin.reset();
  console.log('first load (no cookie: the first fake user)');
  await shootPage(await openPage({ colorScheme: 'light', width: 1280, user: null }), 'first-load');

  console.log('empty, light / dark / 390 px');
  for (const colorScheme of ['light', 'dark'] as const) {
    const page = await openPage({ colorScheme, width: 1280 });
    await shootPage(page, `empty-${colorScheme}`);
    await shootComponents(page, `empty-${colorScheme}`);
    await openSheet(page, 'Publish');
    await shootPage(page, `publish-empty-${colorScheme}`);
    await page.context().close();
  }
  const narrow = await openPage({ colorScheme: 'light', width: 390 });
  await shootPage(narrow, 'empty-390');
  await narrow.getByRole('tab', { name: 'Publish' }).click();
  await narrow.locator('section.ae-codehost[data-state="missing"]').waitFor();
  await shootPage(narrow, 'publish-390');
  await narrow.context().close();

  console.log('generated, then connected');
  const page = await openPage({ colorScheme: 'light', width: 1280 });
  await submitPrompt(page);
  await page.locator('.ae-builder[data-phase="ready"]').waitFor();
  await shootPage(page, 'generated');
  await shootComponents(page, 'generated');

  let sheet = await openSheet(page, 'Publish');
  await sheet.getByRole('button', { name: 'Connect Vercel', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Vercel' });
  await dialog.waitFor();
  await shootPage(page, 'deploy-dialog');
  await dialog.getByLabel(/token/i).fill('ada-vercel-token-123456');
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  await sheet.getByRole('button', { name: 'Deploy to Vercel', exact: true }).click();
  await sheet.locator('section.ae-deploy[data-state="deployed"]').waitFor();
  await shootPage(page, 'deployed');
  await shootComponents(page, 'deployed');

  sheet = await connectGitHub(page, await openSheet(page, 'Publish'));
  await sheet.locator('section.ae-codehost[data-state="connected"]').waitFor();
  await sheet.locator('section.ae-repo-picker[data-state="ready"]').waitFor();
  await shootPage(page, 'connected');
  await shootComponents(page, 'connected');

  sheet = await openSheet(page, 'Publish');
  await sheet.locator('section.ae-repo-picker').getByRole('option').first().click();
  await shootPage(page, 'repository-chosen');
  await shootComponents(page, 'repository-chosen');
  // The chosen repository used, then the code saved there: the linked box tells the last save, one filled action.
  const picker = (await openSheet(page, 'Publish')).locator('section.ae-repo-picker');
  await picker.getByRole('option').first().click();
  await picker.getByRole('button', { name: /^Use / }).click();
  await picker.getByRole('button', { name: /^Save the code to / }).click();
  await picker.getByText(/^Saved your code to /).waitFor();
  await shootElement(picker, 'repository-saved');
  await closeSheet(page);
  const plans = await openSheet(page, 'Plans');
  await plans.locator('section.ae-plans[data-state="success"]').waitFor();
  await shootPage(page, 'plans');
  await closeSheet(page);

  console.log('dark, connected');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shootPage(page, 'generated-dark');
  await openSheet(page, 'Publish');
  await shootPage(page, 'connected-dark');
  await shootComponents(page, 'connected-dark');
  await page.context().close();

  console.log('failures');
  const failures: { name: string; label: string; width?: number; until: (page: Page) => Promise<void> }[] = [
    { name: 'expired-token', label: 'Expire the API token', until: (failing) => failing.getByRole('alert').waitFor() },
    { name: 'suspended', label: 'Suspend the team', until: (failing) => failing.getByRole('alert').waitFor() },
    { name: 'no-credits', label: 'No credits', until: (failing) => failing.getByRole('alert').waitFor() },
    {
      name: 'no-credits-plans',
      label: 'No credits',
      until: async (failing) => {
        // "Buy credits" opens the plans, each with its "Choose" button (the playground's checkout).
        await failing.getByRole('alert').getByRole('button', { name: 'Buy credits' }).click();
        await failing.locator('section.ae-plans[data-state="success"]').waitFor();
      },
    },
    {
      name: 'no-credits-390',
      label: 'No credits',
      width: 390,
      until: (failing) => failing.getByRole('alert').waitFor(),
    },
    {
      name: 'credits-mid-build',
      label: 'Credits run out mid-build',
      until: (failing) => failing.locator('.ae-outcome[data-phase="credits_exhausted"]').waitFor(),
    },
    { name: 'http-500', label: 'Next request: HTTP 500', until: (failing) => failing.getByRole('alert').waitFor() },
    {
      name: 'rate-limited',
      label: 'Next request: 429',
      until: (failing) => failing.getByText(/You can try again in \d+ s\./).waitFor(),
    },
    {
      name: 'stream-drop',
      label: 'Drop the next stream',
      until: (failing) => failing.locator('.ae-builder[data-phase="ready"]').waitFor(),
    },
  ];
  for (const { name, label, width = 1280, until } of failures) {
    playground.mock!.api.admin.reset();
    const failing = await openPage({ colorScheme: 'light', width });
    await scenario(failing, label);
    await submitPrompt(failing);
    await until(failing);
    // A watched project may still be polled: a quiet network is waited for, not required.
    await failing.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
    await shootPage(failing, `failure-${name}`);
    await failing.context().close();
  }

  console.log('failures in the Publish sheet');
  for (const [name, component] of [
    ['deploy-500', 'deploy'],
    ['repositories-500', 'repositories'],
  ] as const) {
    playground.mock!.api.admin.reset();
    const failing = await openPage({ colorScheme: 'light', width: 1280 });
    await submitPrompt(failing);
    await failing.locator('.ae-builder[data-phase="ready"]').waitFor();
    let publish = await openSheet(failing, 'Publish');
    // The scenario panel sits behind the modal sheet: the faults go to the mock directly, as its buttons do.
    if (component === 'deploy') {
      await publish.getByRole('button', { name: 'Connect Vercel', exact: true }).click();
      const connect = failing.getByRole('dialog', { name: 'Connect Vercel' });
      await connect.getByLabel(/token/i).fill('ada-vercel-token-123456');
      await connect.getByRole('button', { name: 'Connect', exact: true }).click();
      await connect.waitFor({ state: 'detached' });
      playground.mock!.api.admin.injectFault({ kind: 'http_500', route: 'deploy' });
      await publish.getByRole('button', { name: 'Deploy to Vercel', exact: true }).click();
    } else {
      publish = await connectGitHub(failing, publish);
      await publish.locator('section.ae-repo-picker[data-state="ready"]').waitFor();
      playground.mock!.api.admin.injectFault({ kind: 'http_500', route: 'listRepositories' });
      await publish.getByRole('button', { name: 'Next page' }).click();
    }
    const element = publish.locator(publishComponents[component]);
    await element.locator('.ae-alert, [role="alert"]').first().waitFor();
    await shootPage(failing, `failure-${name}`);
    await shootElement(element, `${component}-failure`);
    await failing.context().close();
  }

  console.log('a returning end user (a new session): the empty builder offers their latest projects');
  playground.mock!.api.admin.reset();
  const earlier = await openPage({ colorScheme: 'light', width: 1280 });
  for (const earlierPrompt of [prompt, 'A habit tracker with streaks and reminders']) {
    await earlier.getByLabel('Describe the app you want').fill(earlierPrompt);
    await earlier.getByRole('button', { name: 'Generate', exact: true }).click();
    await earlier.locator('.ae-builder[data-phase="ready"]').waitFor();
    await earlier.getByRole('button', { name: 'New project', exact: true }).click();
  }
  await earlier.context().close();
  for (const { colorScheme, width, name } of looks) {
    const returning = await openPage({ colorScheme, width });
    await returning.getByRole('region', { name: 'Continue a project' }).waitFor();
    await shootPage(returning, `returning-${name}`);
    await returning.context().close();
  }

  console.log('a follow-up: while it builds and after it failed, light / dark / 390 px (the app stays on stage)');
  for (const { colorScheme, width, name } of looks) {
    for (const [state, fault, phase] of [
      ['building', { kind: 'slow_drip', intervalMs: 2_000 }, 'generating'],
      ['failed', { kind: 'error_event', afterEvents: 1 }, 'failed'],
    ] as const) {
      playground.mock!.api.admin.reset();
      const refining = await openPage({ colorScheme, width });
      await submitPrompt(refining);
      await refining.locator('.ae-builder[data-phase="ready"]').waitFor();
      playground.mock!.api.admin.injectFault({ ...fault, route: 'followUp' });
      await refining.getByLabel('What should change?').fill('Make the header dark blue and add a search bar');
      await refining.getByRole('button', { name: 'Send follow-up', exact: true }).click();
      await refining.locator(`.ae-builder[data-phase="${phase}"]`).waitFor();
      // At 390 px the stage is its own tab: shoot the app there, as a person would look at it.
      if (width === 390) await refining.getByRole('tab', { name: 'Preview' }).click();
      // The frame loads lazily once its tab shows: shoot the app, not the empty frame before it.
      await refining.frameLocator('iframe.ae-frame').locator('h1').waitFor();
      await shootPage(refining, `follow-up-${state}-${name}`);
      await refining.context().close();
    }
  }
} finally {
  await browser.close();
  await playground.close();
}

// Shots of this prefix that the run did not write are stale: a state or a component that is no more. The
// Storybook docs page shot is taken by hand from `npm run storybook`, not here.
const madeElsewhere = new Set([`${prefix}-storybook-docs-deploy-button.png`]);
for (const name of readdirSync(outputDirectory)) {
  if (name.startsWith(`${prefix}-`) && name.endsWith('.png') && !written.has(name) && !madeElsewhere.has(name)) {
    console.log(`deleting stale ${name}`);
    rmSync(`${outputDirectory}${name}`);
  }
}
