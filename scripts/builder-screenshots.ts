/**
 * `npx tsx scripts/builder-screenshots.ts`: the playground's AgentBuilder after a generation and a follow-up,
 * in Debian's Chromium at 1280 px (light and dark) and 390 px, written to docs/builder-*.png for the README.
 */
import { launchChromium, scriptedPlaygroundOptions } from './chromium.ts';
import { startPlayground } from '../playground/server.ts';
import { sessionCookie } from '../playground/users.ts';

const output = (name: string) => new URL(`../docs/builder-${name}.png`, import.meta.url).pathname;

const playground = await startPlayground(scriptedPlaygroundOptions);
const browser = await launchChromium();

try {
  for (const [name, width, colorScheme] of [
    ['light', 1280, 'light'],
    ['dark', 1280, 'dark'],
    ['390', 390, 'light'],
  ] as const) {
    playground.mock?.api.admin.reset();
    const context = await browser.newContext({ colorScheme, viewport: { width, height: 900 } });
    await context.addCookies([{ name: sessionCookie, value: 'ada', url: playground.url }]);
    const page = await context.newPage();
    await page.goto(playground.url);
    await page.getByLabel('Describe the app you want').fill('A recipe box with tags and a shopping list');
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.locator('.ae-builder[data-phase="ready"]').waitFor();
    await page.getByLabel('What should change?').fill('Add a dark theme and a print view for recipes');
    await page.getByRole('button', { name: 'Send follow-up' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.ae-turn[data-outcome="completed"]').length === 2);
    if (width < 768) await page.getByRole('tab', { name: 'Chat' }).click();
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      window.scrollTo(0, 0);
    });
    await page.waitForTimeout(500);
    await page.screenshot({ path: output(name), fullPage: width < 768 });
    await context.close();
  }
} finally {
  await browser.close();
  await playground.close();
}
