/** One playground (proxy in front of an instant mock) and one real Chromium per test file, and what tests need to drive them. */
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { launchChromium, scriptedPlaygroundOptions } from '../../scripts/chromium.ts';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { MockAgentServer } from 'agent-embed/mock';
import { startPlayground, type Playground } from '../../playground/server.ts';
import { sessionCookie, signedOutValue } from '../../playground/users.ts';

export { chromiumArgs, launchChromium } from '../../scripts/chromium.ts';

/** A fake end user of the playground. */
export type PlaygroundUserId = 'ada' | 'grace';

/** A page of the playground in its own browser context (own cookies and sessionStorage). */
export interface PlaygroundPage {
  page: Page;
  context: BrowserContext;
  /** Paths of the generate and follow-up POSTs the page sent, in order. */
  generationPosts: string[];
  /** Uncaught exceptions of the page. */
  pageErrors: string[];
  /** Resolves once none of the page's requests has been open for half a second (see `watchRequests`). */
  requestsSettled(): Promise<void>;
}

/** Options of `BrowserHarness.openPage`. */
export interface OpenPageOptions {
  /** Signed in by cookie before the page loads (default 'ada'); null: nobody. */
  user?: PlaygroundUserId | null;
  colorScheme?: 'light' | 'dark';
  /** The window's size (default 1280×900). */
  viewport?: { width: number; height: number };
  /** Runs before the playground loads (routes that change what the page is served). */
  beforeLoad?: (page: Page) => Promise<void>;
}

/** The running playground, its mock and the browser. */
export interface BrowserHarness {
  playground: Playground;
  mock: MockAgentServer;
  browser: Browser;
  /** Opens the playground in a fresh context and waits until the page is interactive. */
  openPage(options?: OpenPageOptions): Promise<PlaygroundPage>;
  /** Resets the mock (projects, credits, faults, held streams) and the proxy's records: each test starts clean. */
  reset(): void;
  close(): Promise<void>;
}

const generationPath = /^\/api\/agent\/agent\/generate(\/[^/]+)?$/;

/**
 * Registers a test file's lifecycle around the harness: one playground and browser for the file, a clean
 * mock before each test, and every page opened during a test closed after it, failing the test on any
 * uncaught exception in the page.
 */
export function useBrowserHarness(): BrowserHarness {
  let harness: BrowserHarness | undefined;
  let opened: PlaygroundPage[] = [];
  const started = (): BrowserHarness => {
    if (harness === undefined) throw new Error('The browser harness starts in beforeAll.');
    return harness;
  };
  beforeAll(async () => {
    harness = await startBrowserHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });
  beforeEach(() => started().reset());
  afterEach(async () => {
    const errors = opened.flatMap((entry) => entry.pageErrors);
    await Promise.all(opened.map((entry) => entry.context.close()));
    opened = [];
    expect(errors, 'uncaught exceptions in the page').toEqual([]);
  });
  return {
    get playground() {
      return started().playground;
    },
    get mock() {
      return started().mock;
    },
    get browser() {
      return started().browser;
    },
    async openPage(options) {
      const entry = await started().openPage(options);
      opened.push(entry);
      return entry;
    },
    reset: () => started().reset(),
    close: () => started().close(),
  };
}

/** Starts the playground on 127.0.0.1, port 0, with an instant mock, and launches Chromium. */
export async function startBrowserHarness(): Promise<BrowserHarness> {
  // Journeys send more requests than the API's 10 per minute; the budget has its own tests in test/server.
  const playground = await startPlayground(scriptedPlaygroundOptions);
  const mock = playground.mock;
  if (mock === undefined) throw new Error('The playground started without its mock.');
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (thrown) {
    await playground.close();
    throw thrown;
  }
  return {
    playground,
    mock,
    browser,
    async openPage({
      user = 'ada',
      colorScheme = 'light',
      viewport = { width: 1280, height: 900 },
      beforeLoad,
    }: OpenPageOptions = {}) {
      const context = await browser.newContext({ colorScheme, viewport });
      // No cookie opens the playground as its first user: "nobody" is an explicit choice.
      await context.addCookies([{ name: sessionCookie, value: user ?? signedOutValue, url: playground.url }]);
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const opened: PlaygroundPage = {
        page,
        context,
        generationPosts: [],
        pageErrors: [],
        requestsSettled: watchRequests(page),
      };
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (request.method() === 'POST' && generationPath.test(path)) opened.generationPosts.push(path);
      });
      page.on('pageerror', (error) => opened.pageErrors.push(error.message));
      await beforeLoad?.(page);
      await page.goto(playground.url);
      await page.getByLabel('Theme').waitFor();
      if (user !== null) await page.getByRole('form').first().waitFor();
      return opened;
    },
    reset() {
      playground.reset();
    },
    async close() {
      await browser.close();
      await playground.close();
    },
  };
}

/**
 * Watches every request of the page (its frames' and its workers' too) from now on, and returns a wait that resolves
 * once none has been open for `quietMs`, or fails after `timeoutMs` naming the ones still open. Playwright's own
 * `networkidle` once waited out its 20 s in CI on a page whose journey had ended, saying nothing of what it counted as
 * open (session 18); this one counts what the page reports and says which.
 */
export function watchRequests(page: Page): (options?: { quietMs?: number; timeoutMs?: number }) => Promise<void> {
  const open = new Set<Request>();
  let changedAt = Date.now();
  page.on('request', (request) => {
    open.add(request);
    changedAt = Date.now();
  });
  const ended = (request: Request) => {
    open.delete(request);
    changedAt = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return async ({ quietMs = 500, timeoutMs = 20_000 } = {}) => {
    const deadline = Date.now() + timeoutMs;
    while (open.size > 0 || Date.now() - changedAt < quietMs) {
      if (Date.now() > deadline) {
        const still = [...open].map((request) => `${request.method()} ${request.url()}`);
        throw new Error(`Requests still open after ${timeoutMs} ms: ${still.join(', ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
}

/** Generate and follow-up POSTs the mock received, as `METHOD path`. */
export function mockGenerationPosts(mock: MockAgentServer): string[] {
  return mock.api.admin.requests
    .filter((request) => request.method === 'POST' && /\/agent\/generate(\/[^/]+)?$/.test(request.path))
    .map((request) => request.path);
}

/** The build log region. */
export function buildLog(page: Page): Locator {
  return page.getByRole('region', { name: 'Build progress', includeHidden: true });
}

/** The playground's AgentBuilder; its `data-state` is the current generation's status, shown log or not. */
export function builderRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'App builder' });
}

/** Opens the builder's build details, which fold away once the app is ready, as a user would. */
export async function showBuildDetails(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Show build details' }).click();
  await buildLog(page).waitFor();
}

/** Waits until `locator` shows `data-state="state"` (shown or not: the builder folds its log once the app is ready). */
export function waitForState(locator: Locator, state: string): Promise<void> {
  return locator.and(locator.page().locator(`[data-state="${state}"]`)).waitFor({ state: 'attached' });
}

/** Switches the page to a colour scheme: the system preference and the playground's Theme select. */
export async function useColorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.getByLabel('Theme').selectOption(scheme);
  await page.locator(`[data-agent-embed][data-color-scheme="${scheme}"]`).first().waitFor();
}

/** Runs axe-core on the whole page (frames included, every rule) and returns each violation as one readable line. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact ?? 'n/a'}) at ${JSON.stringify(node.target)}: ${node.html}: ${node.failureSummary?.replace(/\s+/g, ' ') ?? violation.help}`,
    ),
  );
}

/** Presses Tab until `target` has focus (none if it has it already); fails after `limit` presses. */
export async function tabTo(page: Page, target: Locator, limit = 40): Promise<number> {
  const focused = () => target.evaluate((element) => element === document.activeElement);
  if (await focused()) return 0;
  for (let presses = 1; presses <= limit; presses++) {
    await page.keyboard.press('Tab');
    if (await focused()) return presses;
  }
  throw new Error(`${limit} presses of Tab never reached the target.`);
}
