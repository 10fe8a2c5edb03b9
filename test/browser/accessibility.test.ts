/** axe-core in real Chromium (colour contrast included): every state of the generation experience, light and dark. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  axeViolations,
  buildLog,
  builderRegion,
  useBrowserHarness,
  useColorScheme,
  waitForState,
} from './browser-harness.js';

const harness = useBrowserHarness();

async function generate(page: Page, prompt = 'A recipe box with tags and a shopping list'): Promise<void> {
  await page.getByLabel('Describe the app you want').fill(prompt);
  await page.getByRole('button', { name: 'Generate' }).click();
}

/** Each state as a user reaches it, held still while axe runs. */
const states: ReadonlyArray<readonly [string, (page: Page) => Promise<void>]> = [
  ['idle', async (page) => waitForState(page.getByRole('form', { name: 'Create an app' }), 'idle')],
  [
    'prompt too short',
    async (page) => {
      await generate(page, 'Too short');
      await page.getByText('The prompt must be at least 10 characters.').waitFor();
    },
  ],
  [
    'refused: no credits',
    async (page) => {
      harness.mock.api.admin.setCredits(0);
      await generate(page);
      await page.getByRole('alert').getByText('You have run out of credits. Buy more credits to continue.').waitFor();
    },
  ],
  [
    'provisioning',
    async (page) => {
      harness.mock.api.admin.injectFault({ kind: 'pause_after', events: 3 });
      await generate(page);
      await waitForState(buildLog(page), 'provisioning');
      // Container at 35%: the first 35% of the build is the container, so the one bar reads 12%.
      await buildLog(page).locator('[role="progressbar"][aria-valuenow="12"]').waitFor();
    },
  ],
  [
    'generating',
    async (page) => {
      harness.mock.api.admin.injectFault({ kind: 'pause_after', events: 12 });
      await generate(page);
      await waitForState(buildLog(page), 'generating');
      await buildLog(page).getByText('3 new files').waitFor();
      await page.getByRole('button', { name: 'Stop watching' }).waitFor();
    },
  ],
  [
    'cancelled',
    async (page) => {
      harness.mock.api.admin.injectFault({ kind: 'pause_after', events: 12 });
      await generate(page);
      await buildLog(page).getByText('3 new files').waitFor();
      await page.getByRole('button', { name: 'Stop watching' }).click();
      await waitForState(buildLog(page), 'aborted');
    },
  ],
  [
    'recovering after a reload',
    async (page) => {
      // The stream is held open and the page reloads mid-build: the provider resumes the saved project through
      // the proxy's events route, so the whole file list comes back and the build keeps streaming.
      harness.mock.api.admin.injectFault({ kind: 'pause_after', events: 12 });
      await generate(page);
      await buildLog(page).getByText('3 new files').waitFor();
      await page.reload();
      await buildLog(page).getByText('3 new files').waitFor();
      await page.locator('.ae-build-log:is([data-phase="generating"], [data-phase="recovering"])').waitFor();
    },
  ],
  [
    'completed with the preview',
    async (page) => {
      await generate(page);
      await waitForState(builderRegion(page), 'completed');
      await page.locator('.ae-builder[data-phase="ready"]').waitFor();
      await page.getByTitle('Preview of the generated app').scrollIntoViewIfNeeded();
      await page.frameLocator('iframe[title="Preview of the generated app"]').getByText('Live app').waitFor();
    },
  ],
  [
    'credits ran out mid-build',
    async (page) => {
      harness.mock.api.admin.setCredits(3);
      await generate(page);
      await waitForState(buildLog(page), 'credits_exhausted');
    },
  ],
  [
    'failed',
    async (page) => {
      harness.mock.api.admin.injectFault({ kind: 'error_event', afterEvents: 10, message: 'The build step crashed.' });
      await generate(page);
      await waitForState(buildLog(page), 'failed');
      // End-user words; the API's own message goes to the agency's onError.
      await buildLog(page).getByRole('alert').getByText('The build failed.').waitFor();
    },
  ],
];

describe('zero axe violations in Chromium', () => {
  it.each(states)('%s, in light and dark', async (_name, reach) => {
    const opened = await harness.openPage();
    const { page } = opened;
    await reach(page);
    const found: string[] = [];
    const colours: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await useColorScheme(page, scheme);
      colours.push(
        await page
          .locator('.ae-builder')
          .evaluate((element) => `${getComputedStyle(element).color} on ${getComputedStyle(element).backgroundColor}`),
      );
      found.push(...(await axeViolations(page)).map((line) => `${scheme}: ${line}`));
    }
    // The dark pass must really be dark: the components' colours changed.
    expect(colours[0]).not.toBe(colours[1]);
    expect(found, `axe violations:\n${found.join('\n')}`).toEqual([]);
  });
});
