/**
 * `npx tsx scripts/screenshots.ts <prefix>`: drives the playground in Debian's Chromium through a new end
 * user's first visit (empty, generated, Vercel and GitHub connected, a repository picked and pushed, the
 * failure scenarios) and writes page and component screenshots to docs/screenshots/<prefix>-*.png, so the
 * look can be judged by eye and compared across changes.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { launchChromium, scriptedPlaygroundOptions } from './chromium.ts';
import { startPlayground } from '../playground/server.ts';
import { sessionCookie } from '../playground/users.ts';

const prefix = process.argv[2] ?? 'after';
const outputDirectory = new URL('../docs/screenshots/', import.meta.url).pathname;
mkdirSync(outputDirectory, { recursive: true });

const playground = await startPlayground(scriptedPlaygroundOptions);
const browser = await launchChromium();

const components = {
  deploy: 'section.ae-deploy',
  codehost: 'section.ae-codehost',
  repositories: 'section.ae-repo-picker',
  plans: 'section.ae-plans',
};

async function shoot(page: Page, name: string, withComponents = false) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${outputDirectory}${prefix}-${name}.png`, fullPage: true });
  if (!withComponents) return;
  for (const [component, selector] of Object.entries(components)) {
    const element = page.locator(selector).first();
    if ((await element.count()) > 0)
      await element.screenshot({ path: `${outputDirectory}${prefix}-${component}-${name}.png` });
  }
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
  await page.waitForLoadState('networkidle');
  return page;
}

async function scenario(page: Page, label: string) {
  await page.getByRole('button', { name: label, exact: true }).click();
  await page.getByText(`Done: ${label}`).waitFor();
}

async function generate(page: Page) {
  await page.getByLabel(/describe the app/i).fill('A recipe box with tags and a shopping list');
  await page.getByRole('button', { name: /^Generate/ }).click();
  await page.locator('[data-state="completed"]').first().waitFor();
}

try {
  playground.mock!.api.admin.reset();
  console.log('first load (no cookie: the first fake user)');
  await shoot(await openPage({ colorScheme: 'light', width: 1280 }), 'first-load');

  console.log('empty, light / dark / 390 px');
  await shoot(await openPage({ colorScheme: 'light', width: 1280 }), 'empty-light', true);
  await shoot(await openPage({ colorScheme: 'dark', width: 1280 }), 'empty-dark', true);
  await shoot(await openPage({ colorScheme: 'light', width: 390 }), 'empty-390');

  console.log('generated, then connected');
  const page = await openPage({ colorScheme: 'light', width: 1280 });
  await generate(page);
  await shoot(page, 'generated', true);
  await page.getByRole('button', { name: /^Connect Vercel$/i }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await shoot(page, 'deploy-dialog');
  await dialog.getByLabel(/token/i).fill('ada-vercel-token-123456');
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: /^Deploy to Vercel$/i }).click();
  await page.locator('section.ae-deploy[data-state="deployed"]').waitFor();
  await shoot(page, 'deployed', true);
  await page.getByRole('button', { name: 'Connect GitHub' }).click();
  await page.getByRole('button', { name: 'Install' }).click();
  await page.waitForURL((url) => url.origin === new URL(playground.url).origin);
  await page.locator('section.ae-codehost[data-state="connected"]').waitFor();
  await page.locator('section.ae-repo-picker[data-state="ready"]').waitFor();
  await shoot(page, 'connected', true);
  await page.locator('section.ae-repo-picker').getByRole('option').first().click();
  await shoot(page, 'repository-chosen', true);

  console.log('dark, connected');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'connected-dark', true);
  await page.emulateMedia({ colorScheme: 'light' });

  console.log('failures');
  for (const [name, label] of [
    ['expired-token', 'Expire the API token'],
    ['suspended', 'Suspend the team'],
    ['no-credits', 'No credits'],
    ['http-500', 'Next request: HTTP 500'],
    ['rate-limited', 'Next request: 429'],
  ] as const) {
    playground.mock!.api.admin.reset();
    const failing = await openPage({ colorScheme: 'light', width: 1280 });
    await scenario(failing, label);
    await failing.getByLabel(/describe the app/i).fill('A recipe box with tags and a shopping list');
    await failing.getByRole('button', { name: /^Generate/ }).click();
    await failing.waitForTimeout(1200);
    await shoot(failing, `failure-${name}`);
  }
} finally {
  await browser.close();
  await playground.close();
}
