/**
 * The playground's "Reset the mock" starts everything again: the mock forgets its projects and connections,
 * the proxy its records of them (the projects it lists, their conversations), and the page what it showed,
 * so nothing lists a project that then opens as "App not found" or shows a connection the mock forgot.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { builderRegion, useBrowserHarness, waitForState } from './browser-harness.js';

const harness = useBrowserHarness();

/** A GET through the playground's proxy as the page's signed-in end user: its status and JSON body. */
function proxyGet(page: Page, path: string): Promise<{ status: number; body: unknown }> {
  return page.evaluate(async (url) => {
    const response = await fetch(url);
    return { status: response.status, body: response.status === 200 ? await response.json() : null };
  }, `/api/agent${path}`);
}

async function generate(page: Page, prompt: string) {
  await page.getByLabel('Describe the app you want').fill(prompt);
  await page.getByRole('button', { name: 'Generate' }).click();
  await waitForState(builderRegion(page), 'completed');
}

describe('the playground\'s "Reset the mock"', () => {
  it('forgets the projects listed, their conversation and the connections shown', async () => {
    const { page } = await harness.openPage();
    await generate(page, 'A recipe box with tags and a shopping list');
    const [project] = harness.mock.api.admin.projects();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: /^Connect Vercel$/i }).click();
    const dialog = page.getByRole('dialog', { name: /^Connect Vercel$/i });
    await dialog.getByLabel(/access token/i).fill('ada-vercel-token-123456');
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await page
      .getByText(/^Connected as /)
      .first()
      .waitFor();
    await page.keyboard.press('Escape');
    const listed = await proxyGet(page, '/projects');
    expect((listed.body as { projects: { project_id: string }[] }).projects.map((entry) => entry.project_id)).toEqual([
      project!.id,
    ]);
    expect((await proxyGet(page, `/projects/${project!.id}/conversation`)).status).toBe(200);

    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: 'Reset the mock (token valid again)' }).click(),
    ]);
    await page.getByRole('form').first().waitFor();

    expect(harness.mock.api.admin.projects()).toEqual([]);
    expect(await proxyGet(page, '/projects')).toEqual({ status: 200, body: { status: true, projects: [] } });
    expect((await proxyGet(page, `/projects/${project!.id}/conversation`)).status).not.toBe(200);
    // The page starts empty: no project resumed from before, none offered to continue.
    expect(await builderRegion(page).getAttribute('data-state')).not.toBe('completed');
    expect(await page.getByText('Continue a project').count()).toBe(0);

    await generate(page, 'A packing list for a weekend of hiking');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: /^Connect Vercel$/i }).waitFor();
    expect(await page.getByText(/^Connected as /).count()).toBe(0);
  });
});
