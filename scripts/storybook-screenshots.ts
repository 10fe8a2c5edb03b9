/**
 * `npx tsx scripts/storybook-screenshots.ts` (after `npm run build-storybook`): serves storybook-static/ on a
 * free port and takes, in Debian's Chromium, the DeployButton docs page as a designer sees it in the
 * Storybook (sidebar, props table, every state) and the docs page alone from top to bottom, to
 * docs/screenshots/storybook-deploy-button-*.png. The docs page renders each state as set up before its story
 * renders; nothing is clicked here.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';

const site = new URL('../storybook-static/', import.meta.url).pathname;
const outputDirectory = new URL('../docs/screenshots/', import.meta.url).pathname;
if (!existsSync(join(site, 'index.html')))
  throw new Error('storybook-static/ is missing: run `npm run build-storybook`.');
mkdirSync(outputDirectory, { recursive: true });

const types: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

const server = createServer((request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname));
  const file = join(site, path.endsWith('/') ? `${path}index.html` : path);
  if (!file.startsWith(site) || !existsSync(file)) return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
  response.end(readFileSync(file));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
const browser = await launchChromium();

/** Waits until every DeployButton on the page (frames included) has left `loading`, and the fonts are in. */
async function settled(page: Page): Promise<void> {
  for (const frame of page.frames()) {
    await frame.waitForLoadState('load');
    await frame.waitForFunction(() =>
      [...document.querySelectorAll('section.ae-deploy')].every(
        (region) => region.getAttribute('data-state') !== 'loading',
      ),
    );
  }
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(500);
}

try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // The docs page alone (the Storybook's preview frame), every state from top to bottom.
  await page.goto(`${origin}/iframe.html?viewMode=docs&id=deploy-deploybutton--docs`);
  await page.locator('.sbdocs-content').waitFor();
  await page
    .locator('iframe[title]')
    .first()
    .waitFor()
    .catch(() => undefined);
  await settled(page);
  await page.screenshot({ path: join(outputDirectory, 'storybook-deploy-button-docs.png'), fullPage: true });
  // The same page as a designer opens it: the Storybook's sidebar and toolbar around it.
  await page.goto(`${origin}/?path=/docs/deploy-deploybutton--docs`);
  await page.frameLocator('#storybook-preview-iframe').locator('.sbdocs-content').waitFor();
  await settled(page);
  await page.screenshot({ path: join(outputDirectory, 'storybook-deploy-button-manager.png') });
  console.log('Wrote docs/screenshots/storybook-deploy-button-docs.png and storybook-deploy-button-manager.png');
} finally {
  await browser.close();
  server.close();
}
