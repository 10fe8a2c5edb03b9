/** The generation journey in real Chromium: the playground page, the agency proxy and the mock, over real HTTP. */
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  buildLog,
  builderRegion,
  mockGenerationPosts,
  showBuildDetails,
  useBrowserHarness,
  tabTo,
  waitForState,
  type BrowserHarness,
  type PlaygroundPage,
} from './browser-harness.js';

const harness = useBrowserHarness();

const open = (...args: Parameters<BrowserHarness['openPage']>) => harness.openPage(...args);

function onlyProject() {
  const projects = harness.mock.api.admin.projects();
  expect(projects).toHaveLength(1);
  return projects[0]!;
}

async function fetchFromPage(entry: PlaygroundPage, method: 'GET' | 'POST', path: string, body?: unknown) {
  return entry.page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: {
          'content-type': 'application/json',
          accept: method === 'POST' ? 'text/event-stream' : 'application/json',
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return {
        status: response.status,
        body: (await response.json()) as { message?: string; project_status?: string },
      };
    },
    { method, path, body },
  );
}

describe('the generation journey in Chromium', () => {
  it('Ada signs in, generates, watches it complete, previews the app and follows up; Grace cannot reach the project', async () => {
    const ada = await open({ user: null });
    const { page } = ada;
    await page.getByText('Sign in as one of the fake end users to start building.').waitFor();
    await page.getByLabel('Signed in as').selectOption('ada');
    const form = page.getByRole('form', { name: 'Create an app' });
    await waitForState(form, 'idle');
    await page.locator('.ae-builder[data-phase="idle"]').waitFor();
    // The file rows' font is in the page with the builder, before a build shows files (so it is looked up then).
    const fontSample = page.locator('.ae-builder .ae-file-font').first();
    await fontSample.waitFor({ state: 'attached' });

    await page.getByLabel('Describe the app you want').fill('A recipe box with tags and a shopping list');
    await page.getByRole('button', { name: 'Generate' }).click();

    const log = buildLog(page);
    await waitForState(builderRegion(page), 'completed');
    const project = onlyProject();
    expect(project.status).toBe('ready');
    expect(project.prompts).toEqual(['A recipe box with tags and a shopping list']);

    // Progress: the container bar reached 100 %, the container was ready, and every file was listed.
    await showBuildDetails(page);
    const progress = log.getByRole('progressbar', { name: 'Build progress' });
    expect(await progress.getAttribute('aria-valuenow')).toBe('100');
    expect(await progress.getAttribute('aria-valuetext')).toBe('100% done');
    await log.getByText('Finished.').waitFor();
    await log.getByText(`${project.files.length} new files`).waitFor();
    const rows = log.getByRole('region', { name: 'Generated files' }).getByRole('listitem');
    expect(await rows.first().locator('.ae-file-path').textContent()).toBe(project.files[0]);
    expect(await rows.first().getAttribute('aria-setsize')).toBe(String(project.files.length));
    const fontOf = (locator: Locator) =>
      locator.evaluate((element) => {
        const { fontFamily, fontSize, fontWeight } = getComputedStyle(element);
        return `${fontFamily} ${fontSize} ${fontWeight}`;
      });
    expect(await fontOf(fontSample)).toBe(await fontOf(rows.first()));
    expect(await fontOf(fontSample)).not.toBe(await fontOf(log.getByRole('log')));
    expect(await log.getByRole('log').textContent()).toBe('Your app is ready.');

    // The app link and the preview point at the mock's live app page, over http only.
    expect(project.appUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/apps\//);
    const appLink = log.getByRole('link', { name: 'Open the app' });
    expect(await appLink.getAttribute('href')).toBe(project.appUrl);
    expect(await appLink.getAttribute('rel')).toBe('noopener noreferrer');
    // The builder's toolbar names the project and says it is ready, as every other part does.
    await page.locator('.ae-builder[data-phase="ready"]').waitFor();
    await page.getByRole('toolbar', { name: 'Project' }).getByText(project.name).waitFor();
    const frame = page.getByTitle('Preview of the generated app');
    expect(await frame.getAttribute('src')).toBe(project.appUrl);
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-forms allow-same-origin allow-popups');
    await frame.scrollIntoViewIfNeeded();
    const app = page.frameLocator('iframe[title="Preview of the generated app"]');
    expect(await app.getByRole('heading', { level: 1 }).textContent()).toBe(project.name);
    await app.getByText('Live app').waitFor();
    expect(ada.generationPosts).toEqual(['/api/agent/agent/generate']);

    // The follow-up goes to the same project and changes two files.
    const followUp = page.getByRole('form', { name: 'Refine your app' });
    await followUp.getByText(/^Changes go to /).waitFor();
    await followUp.getByLabel('What should change?').fill('Add a dark mode toggle to the header');
    await followUp.getByRole('button', { name: 'Send follow-up' }).click();
    // The follow-up's own log (the details stay open as the user left them): the two files it modified
    // and the one it created.
    await log.getByText('1 new, 2 changed files').waitFor();
    await waitForState(builderRegion(page), 'completed');
    expect(onlyProject().prompts).toEqual([
      'A recipe box with tags and a shopping list',
      'Add a dark mode toggle to the header',
    ]);
    expect(onlyProject().files).toHaveLength(project.files.length + 1);
    expect(ada.generationPosts).toEqual(['/api/agent/agent/generate', `/api/agent/agent/generate/${project.id}`]);
    expect(mockGenerationPosts(harness.mock)).toEqual([
      '/api/v1/agent/generate',
      `/api/v1/agent/generate/${project.id}`,
    ]);

    // Grace, on the same browser: a fresh session that knows nothing of Ada's project and cannot reach it.
    await page.getByLabel('Signed in as').selectOption('grace');
    await waitForState(page.getByRole('form', { name: 'Create an app' }), 'idle');
    await page.locator('.ae-builder[data-phase="idle"]').waitFor();
    await page.getByRole('toolbar', { name: 'Project' }).getByText('New app').waitFor();
    expect(await fetchFromPage(ada, 'GET', `/api/agent/agent/project/${project.id}`)).toEqual({
      status: 404,
      body: { status: false, message: 'Project not found.' },
    });
    const foreignFollowUp = await fetchFromPage(ada, 'POST', `/api/agent/agent/generate/${project.id}`, {
      prompt: 'Delete every recipe please',
    });
    expect(foreignFollowUp).toEqual({ status: 404, body: { status: false, message: 'Project not found.' } });
    expect(mockGenerationPosts(harness.mock)).toHaveLength(2);
    expect(onlyProject().prompts).toHaveLength(2);

    // Ada still reaches it: the 404 is ownership, not a missing project.
    const adaAgain = await open({ user: 'ada' });
    const own = await fetchFromPage(adaAgain, 'GET', `/api/agent/agent/project/${project.id}`);
    expect(own.status).toBe(200);
    expect(own.body.project_status).toBe('ready');
  });

  it('shows the inline error for a prompt under 10 characters and sends nothing', async () => {
    const { page, generationPosts } = await open();
    const prompt = page.getByLabel('Describe the app you want');
    await prompt.fill('Todo app');
    await page.getByRole('button', { name: 'Generate' }).click();
    const error = page.getByText('The prompt must be at least 10 characters.');
    await error.waitFor();
    expect(await prompt.getAttribute('aria-invalid')).toBe('true');
    const errorId = await error.getAttribute('id');
    expect((await prompt.getAttribute('aria-describedby'))?.split(' ')).toContain(errorId);
    expect(await prompt.evaluate((element) => element === document.activeElement)).toBe(true);
    await waitForState(page.getByRole('form', { name: 'Create an app' }), 'idle');
    expect(generationPosts).toEqual([]);
    expect(mockGenerationPosts(harness.mock)).toEqual([]);

    await prompt.pressSequentially('s!');
    await error.waitFor({ state: 'detached' });
    expect(await prompt.getAttribute('aria-invalid')).toBeNull();
  });

  it('"No credits" refuses the generation with the API message; credits running out mid-build end in the credits state', async () => {
    const { page, generationPosts } = await open();
    const scenarios = page.getByRole('complementary', { name: 'Mock scenarios' });
    await scenarios.getByRole('button', { name: 'No credits' }).click();
    await scenarios.getByRole('status').getByText('Done: No credits').waitFor();
    expect(harness.mock.api.admin.credits()).toBe(0);

    await page.getByLabel('Describe the app you want').fill('A landing page for a bakery in Lyon');
    await page.getByRole('button', { name: 'Generate' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('You have run out of credits. Buy more credits to continue.').waitFor();
    await alert.getByText('Your app could not be started').waitFor();
    expect(harness.mock.api.admin.projects()).toEqual([]);
    expect(generationPosts).toEqual(['/api/agent/agent/generate']);

    await scenarios.getByRole('button', { name: 'Credits run out mid-build' }).click();
    await scenarios.getByRole('status').getByText('Done: Credits run out mid-build').waitFor();
    await page.getByRole('button', { name: 'Generate' }).click();
    const log = buildLog(page);
    await waitForState(log, 'credits_exhausted');
    await log.locator('.ae-outcome[data-phase="credits_exhausted"]').getByText('Your credits ran out.').waitFor();
    await log.getByText('Buy more credits to continue building.').waitFor();
    await log.getByText('3 new files').waitFor();
    expect(onlyProject().status).toBe('credits_exhausted');
    expect(generationPosts).toEqual(['/api/agent/agent/generate', '/api/agent/agent/generate']);
  });

  it('sends exactly one generate POST per click, for a double click and for two clicks in one task', async () => {
    const { page, generationPosts } = await open();
    await page.getByLabel('Describe the app you want').fill('A booking site for a yoga studio');
    await page.getByRole('button', { name: 'Generate' }).dblclick();
    await waitForState(builderRegion(page), 'completed');
    expect(generationPosts).toEqual(['/api/agent/agent/generate']);
    expect(mockGenerationPosts(harness.mock)).toEqual(['/api/v1/agent/generate']);

    await page.getByRole('button', { name: 'New project' }).click();
    await page.getByLabel('Describe the app you want').fill('A portfolio for a ceramic artist');
    const submit = page.getByRole('button', { name: 'Generate' });
    // Both clicks land before React can disable the button: only the store stands between them and a second POST.
    await submit.evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    await expect.poll(() => harness.mock.api.admin.projects().length, { timeout: 20_000 }).toBe(2);
    const second = harness.mock.api.admin.projects()[1]!;
    await page.getByText(`Changes go to \u2068${second.name}\u2069.`).waitFor();
    await waitForState(builderRegion(page), 'completed');
    expect(generationPosts).toEqual(['/api/agent/agent/generate', '/api/agent/agent/generate']);
    expect(mockGenerationPosts(harness.mock)).toEqual(['/api/v1/agent/generate', '/api/v1/agent/generate']);
  });

  it('works from the keyboard: Tab to the prompt, type, Enter on Generate, then Space on Send follow-up', async () => {
    const { page, generationPosts } = await open();
    const prompt = page.getByLabel('Describe the app you want');
    await tabTo(page, prompt);
    await page.keyboard.type('A habit tracker with streaks');
    await tabTo(page, page.getByRole('button', { name: 'Generate' }));
    await page.keyboard.press('Enter');
    const log = buildLog(page);
    await waitForState(builderRegion(page), 'completed');
    const project = onlyProject();
    expect(project.prompts).toEqual(['A habit tracker with streaks']);

    const followUpPrompt = page.getByLabel('What should change?');
    await followUpPrompt.waitFor();
    await tabTo(page, followUpPrompt);
    await page.keyboard.type('Add weekly charts');
    await tabTo(page, page.getByRole('button', { name: 'Send follow-up' }));
    await page.keyboard.press('Space');
    // The follow-up's own log: the two files it modified and the one it created.
    await page.locator('.ae-turn[data-outcome="completed"]').nth(1).waitFor();
    await tabTo(page, page.getByRole('button', { name: 'Show build details' }));
    await page.keyboard.press('Enter');
    await log.getByText('1 new, 2 changed files').waitFor();
    await waitForState(builderRegion(page), 'completed');
    expect(onlyProject().prompts).toEqual(['A habit tracker with streaks', 'Add weekly charts']);
    expect(generationPosts).toEqual(['/api/agent/agent/generate', `/api/agent/agent/generate/${project.id}`]);
  });
});
