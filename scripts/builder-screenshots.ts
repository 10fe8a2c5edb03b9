/**
 * `npx tsx scripts/builder-screenshots.ts`: every state of the playground's AgentBuilder, as a person sees it
 * without scrolling, in Debian's Chromium at 1280×800 and 390×844, light and dark (and a few in Arabic, right to
 * left), written to docs/screenshots/builder-<state>-<look>.png; then the README's three pictures
 * (docs/builder-*.png: after a generation and a follow-up). Each state is reached through the mock's faults.
 */
import type { Page } from 'playwright-core';
import { launchChromium, scriptedPlaygroundOptions } from './chromium.ts';
import { startPlayground } from '../playground/server.ts';
import { sessionCookie } from '../playground/users.ts';

const shot = (name: string) => new URL(`../docs/screenshots/builder-${name}.png`, import.meta.url).pathname;
const readme = (name: string) => new URL(`../docs/builder-${name}.png`, import.meta.url).pathname;

const playground = await startPlayground(scriptedPlaygroundOptions);
const admin = playground.mock!.api.admin;
const browser = await launchChromium();
const prompt = 'A recipe box with tags and a shopping list';
const change = 'Add a dark theme and a print view for recipes';

interface Look {
  name: string;
  width: number;
  height: number;
  colorScheme: 'light' | 'dark';
  locale?: string;
}

const looks: Look[] = [
  { name: '1280-light', width: 1280, height: 800, colorScheme: 'light' },
  { name: '1280-dark', width: 1280, height: 800, colorScheme: 'dark' },
  { name: '390-light', width: 390, height: 844, colorScheme: 'light' },
  { name: '390-dark', width: 390, height: 844, colorScheme: 'dark' },
];
const arabic: Look = { name: '1280-ar', width: 1280, height: 800, colorScheme: 'light', locale: 'ar' };

async function open(look: Look): Promise<Page> {
  const context = await browser.newContext({
    colorScheme: look.colorScheme,
    viewport: { width: look.width, height: look.height },
  });
  await context.addCookies([{ name: sessionCookie, value: 'ada', url: playground.url }]);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${playground.url}${look.locale === undefined ? '' : `?locale=${look.locale}`}`);
  await page.locator('.ae-builder textarea').waitFor();
  return page;
}

const phase = (page: Page, value: string) => page.locator(`.ae-builder[data-phase="${value}"]`).waitFor();

/** Sends a prompt through the builder's prompt box (any language: the box's own textarea and submit). */
async function send(page: Page, text: string) {
  await page.locator('.ae-builder-prompt textarea').fill(text);
  await page.locator('.ae-builder-prompt button[type="submit"]').click();
}

/** Resolves once the mock has received a project status GET. */
async function statusPolled() {
  const polled = () =>
    admin.requests.some((request) => request.method === 'GET' && /\/agent\/project\/[^/]+$/.test(request.path));
  for (let waited = 0; !polled(); waited += 20) {
    if (waited > 10_000) throw new Error('The builder never polled the project status.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function generated(page: Page) {
  await send(page, prompt);
  await phase(page, 'ready');
}

/** How each state is reached from a fresh page, with the mock reset before it. */
const states: Record<string, (page: Page) => Promise<void>> = {
  empty: async () => {},
  building: async (page) => {
    admin.injectFault({ kind: 'pause_after', events: 14 });
    await send(page, prompt);
    await page.locator('.ae-file').nth(2).waitFor();
  },
  stopped: async (page) => {
    admin.injectFault({ kind: 'pause_after', events: 14 });
    await send(page, prompt);
    await page.locator('.ae-file').nth(2).waitFor();
    await page.locator('.ae-builder-prompt button[type="button"]').click();
    await phase(page, 'stopped');
  },
  'stopped-poll-wait': async (page) => {
    admin.injectFault({ kind: 'pause_after', events: 14 });
    await send(page, prompt);
    await page.locator('.ae-file').nth(2).waitFor();
    // The status poll that the first event asks for must not take the fault meant for the one after Stop watching.
    await statusPolled();
    admin.injectFault({ kind: 'rate_limited', retryAfterSeconds: 30, route: 'getProject' });
    await page.locator('.ae-builder-prompt button[type="button"]').click();
    await phase(page, 'stopped');
    await page.locator('.ae-outcome[data-phase="stopped"] .ae-hint').nth(1).waitFor();
  },
  recovering: async (page) => {
    admin.injectFault({ kind: 'pause_after', events: 10, drop: true });
    await send(page, prompt);
    await phase(page, 'recovering');
  },
  'credits-mid-build': async (page) => {
    admin.setCredits(3);
    await send(page, prompt);
    await phase(page, 'credits_exhausted');
  },
  'no-credits': async (page) => {
    admin.setCredits(0);
    await send(page, prompt);
    await page.getByRole('alert').waitFor();
  },
  failed: async (page) => {
    admin.injectFault({ kind: 'error_event', afterEvents: 10 });
    await send(page, prompt);
    await phase(page, 'failed');
  },
  ready: async (page) => {
    await generated(page);
  },
  'follow-up-building': async (page) => {
    await generated(page);
    admin.injectFault({ kind: 'pause_after', events: 4, route: 'followUp' });
    await send(page, change);
    await phase(page, 'generating');
  },
  // The stage while a change builds; on a phone, its own tab (the toolbar must fit 390 px).
  'follow-up-preview': async (page) => {
    await generated(page);
    admin.injectFault({ kind: 'pause_after', events: 4, route: 'followUp' });
    await send(page, change);
    await phase(page, 'generating');
    if ((page.viewportSize()?.width ?? 0) < 768) await page.getByRole('tab').nth(1).click();
    await page.frameLocator('iframe.ae-frame').locator('h1').waitFor();
  },
  'follow-up-ready': async (page) => {
    await generated(page);
    await send(page, change);
    await page.waitForFunction(() => document.querySelectorAll('.ae-turn[data-outcome="completed"]').length === 2);
  },
  'follow-up-failed': async (page) => {
    await generated(page);
    admin.injectFault({ kind: 'error_event', afterEvents: 1, route: 'followUp' });
    await send(page, change);
    await phase(page, 'failed');
  },
};

/** What a person sees without scrolling, once entrances have settled and nothing is hovered. */
async function take(page: Page, path: string) {
  await page.mouse.move(0, 0);
  await page.waitForTimeout(400);
  await page.screenshot({ path });
}

const only = process.argv[2];
try {
  for (const [state, reach] of Object.entries(states)) {
    if (only !== undefined && !state.startsWith(only)) continue;
    const stateLooks = ['building', 'stopped', 'credits-mid-build'].includes(state) ? [...looks, arabic] : looks;
    for (const look of stateLooks) {
      playground.reset();
      const page = await open(look);
      await reach(page);
      await take(page, shot(`${state}-${look.name}`));
      console.log(`builder-${state}-${look.name}`);
      await page.context().close();
    }
  }
  if (only === undefined) {
    for (const [name, look] of [
      ['light', looks[0]!],
      ['dark', looks[1]!],
      ['390', looks[2]!],
    ] as const) {
      playground.reset();
      const page = await open(look);
      await states['follow-up-ready']!(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      await take(page, readme(name));
      await page.context().close();
    }
  }
} finally {
  await browser.close();
  await playground.close();
}
