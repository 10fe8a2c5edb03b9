/**
 * The page's workers in real Chromium. Event streams: the page's worker sends the generate request and reads its body
 * (Chromium's hand-over of a large body then leaves the main thread: `npm run bench:body`); a page whose policy forbids
 * workers reads the stream itself. Either way the request is sent once and the build is whole. The locale data: a
 * worker of its own loads it for the page before the page's first number, where a worker can start.
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

/** Serves the playground with a policy that forbids workers. */
async function forbidWorkers(page: Page): Promise<void> {
  await page.route(harness.playground.url, async (route) => {
    const response = await route.fetch();
    await route.fulfill({
      response,
      headers: { ...response.headers(), 'content-security-policy': "worker-src 'none'" },
    });
  });
}

/** The playground's files, as the mock wrote them: the whole build reached the page. */
function builtFiles(): number {
  const [project] = harness.mock.api.admin.projects();
  return project?.files.length ?? 0;
}

// Logs, in the page's order: each worker started, each answer a worker gives, each `Intl.NumberFormat` created.
async function logWorkersAndFormats(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const log: string[] = [];
    Object.assign(window, { localeLog: log });
    const { NumberFormat } = Intl;
    Intl.NumberFormat = function (...args: ConstructorParameters<typeof NumberFormat>) {
      log.push('NumberFormat');
      return new NumberFormat(...args);
    } as unknown as typeof NumberFormat;
    const PageWorker = Worker;
    window.Worker = class extends PageWorker {
      constructor(...args: ConstructorParameters<typeof Worker>) {
        super(...args);
        log.push('worker');
        this.addEventListener('message', () => log.push('answer'));
      }
    };
  });
}

const localeLog = (page: Page) => page.evaluate(() => (window as unknown as { localeLog: string[] }).localeLog);

describe('the locale data', () => {
  it('is loaded by a worker of its own before the page’s first number, which then stops it', async () => {
    const ada = await harness.openPage({ beforeLoad: logWorkersAndFormats });
    await expect.poll(() => localeLog(ada.page)).toContain('NumberFormat');
    expect(await localeLog(ada.page)).toEqual(['worker', 'answer', 'NumberFormat']);
    await expect.poll(() => ada.page.workers().length).toBe(0);
  });

  it('is loaded by the page itself where its policy forbids workers', async () => {
    const ada = await harness.openPage({
      beforeLoad: async (page) => {
        await logWorkersAndFormats(page);
        await forbidWorkers(page);
      },
    });
    await expect.poll(() => localeLog(ada.page)).toContain('NumberFormat');
    // Chromium makes the worker and reports the policy's refusal as its error: no answer, the page loads it.
    expect(await localeLog(ada.page)).toEqual(['worker', 'NumberFormat']);
    expect(ada.page.workers()).toEqual([]);
  });
});

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
        await forbidWorkers(page);
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
