/**
 * Event streams in real Chromium: the page's worker sends the generate request and reads its body (Chromium's
 * hand-over of a large body then leaves the main thread: `npm run bench:body`); a page whose policy forbids workers
 * reads the stream itself. Either way the request is sent once and the build is whole.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { builderRegion, mockGenerationPosts, useBrowserHarness, waitForState } from './browser-harness.js';

const harness = useBrowserHarness();

async function build(page: Page): Promise<void> {
  await page.getByLabel('Describe the app you want').fill('A recipe box with tags and a shopping list');
  await page.getByRole('button', { name: 'Generate' }).click();
  await waitForState(builderRegion(page), 'completed');
}

/** The playground's files, as the mock wrote them: the whole build reached the page. */
function builtFiles(): number {
  const [project] = harness.mock.api.admin.projects();
  return project?.files.length ?? 0;
}

describe('event streams and the page’s worker', () => {
  it('a build streams through the page’s worker: one request, the whole build', async () => {
    const ada = await harness.openPage();
    await build(ada.page);
    expect(ada.page.workers().map((worker) => new URL(worker.url()).protocol)).toEqual(['blob:']);
    expect(ada.generationPosts).toEqual(['/api/agent/agent/generate']);
    expect(mockGenerationPosts(harness.mock)).toEqual(['/api/v1/agent/generate']);
    await ada.page.getByText(`${builtFiles()} new files`).first().waitFor({ state: 'attached' });
  });

  it('a page whose policy forbids workers reads the stream itself, and still sends it once', async () => {
    const violations: string[] = [];
    const ada = await harness.openPage({
      beforeLoad: async (page) => {
        page.on('console', (message) => {
          if (/worker-src/.test(message.text())) violations.push(message.text());
        });
        await page.route(harness.playground.url, async (route) => {
          const response = await route.fetch();
          await route.fulfill({
            response,
            headers: { ...response.headers(), 'content-security-policy': "worker-src 'none'" },
          });
        });
      },
    });
    await build(ada.page);
    expect(violations.length).toBeGreaterThan(0);
    expect(ada.page.workers()).toEqual([]);
    expect(ada.generationPosts).toEqual(['/api/agent/agent/generate']);
    expect(mockGenerationPosts(harness.mock)).toEqual(['/api/v1/agent/generate']);
    await ada.page.getByText(`${builtFiles()} new files`).first().waitFor({ state: 'attached' });
  });
});
