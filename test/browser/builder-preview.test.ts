/** The preview-first builder in real Chromium at 1280 px: the stage, the conversation, one story on every part. */
import { describe, expect, it } from 'vitest';
import { buildLog, showBuildDetails, useBrowserHarness, waitForState } from './browser-harness.js';

const harness = useBrowserHarness();

const firstPrompt = 'A recipe box with tags and a shopping list';
const followUpPrompt = 'Add a dark theme and a print view for recipes';

describe('the preview-first AgentBuilder at 1280 px', () => {
  it('gives the live preview the stage and keeps the conversation of a generation and a follow-up', async () => {
    const { page } = await harness.openPage();
    const builder = page.getByRole('region', { name: 'App builder' });
    await page.getByLabel('Describe the app you want').fill(firstPrompt);
    await page.getByRole('button', { name: 'Generate' }).click();
    const frame = builder.getByTitle('Preview of the generated app');
    await frame.waitFor();

    const builderBox = await builder.boundingBox();
    const frameBox = await frame.boundingBox();
    expect(builderBox).not.toBeNull();
    expect(frameBox!.width / builderBox!.width).toBeGreaterThanOrEqual(0.6);
    // The preview's toolbar fits one row, and the device widths really differ.
    const toolbar = builder.locator('.ae-preview .ae-toolbar');
    const buttons = await toolbar.getByRole('button').all();
    // One row: every button on about the same middle line (the device widths sit in a slightly shorter track).
    const middles = await Promise.all(
      buttons.map(async (button) => {
        const box = (await button.boundingBox())!;
        return box.y + box.height / 2;
      }),
    );
    expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(4);
    // The frame's width is animated: read it once it has settled.
    const settledWidth = async () => {
      for (;;) {
        const before = Math.round((await frame.boundingBox())!.width);
        await page.waitForTimeout(300);
        const after = Math.round((await frame.boundingBox())!.width);
        if (before === after) return after;
      }
    };
    const widths: Record<string, number> = {};
    for (const device of ['Mobile', 'Tablet', 'Desktop']) {
      await toolbar.getByRole('button', { name: device }).click();
      widths[device] = await settledWidth();
    }
    expect(widths.Mobile).toBe(390);
    expect(widths.Tablet).toBe(768);
    expect(new Set(Object.values(widths)).size).toBe(3);

    await page.getByLabel('What should change?').fill(followUpPrompt);
    await page.getByRole('button', { name: 'Send follow-up' }).click();
    const conversation = builder.getByRole('region', { name: 'Conversation' });
    await page.waitForFunction(() => document.querySelectorAll('.ae-turn[data-outcome="completed"]').length === 2);
    const turns = await conversation.locator('.ae-turn-prompt').allTextContents();
    expect(turns.map((text) => text.replace(/^You: /, ''))).toEqual([firstPrompt, followUpPrompt]);
    const project = harness.mock.api.admin.projects()[0]!;
    // The follow-up box names the project, not its id (isolated: its own direction, whatever the sentence's).
    await page.getByText(`Changes go to \u2068${project.name}\u2069.`).waitFor();
  });

  it('while files stream in, no part says the container is still being set up; after a stop, every part agrees', async () => {
    const { page } = await harness.openPage();
    const builder = page.getByRole('region', { name: 'App builder' });
    // The stream holds after the container is ready and a few files are written; the build goes on "at the server".
    harness.mock.api.admin.injectFault({ kind: 'pause_after', events: 14 });
    await page.getByLabel('Describe the app you want').fill(firstPrompt);
    await page.getByRole('button', { name: 'Generate' }).click();
    await buildLog(page).locator('.ae-file').first().waitFor();

    const text = (await builder.innerText()).toLowerCase();
    for (const stale of ['setting up', 'preparing a place', 'container'])
      expect(text, `"${stale}" while files stream in`).not.toContain(stale);
    expect(await builder.getAttribute('data-phase')).toBe('generating');
    const bar = buildLog(page).getByRole('progressbar');
    const value = Number(await bar.getAttribute('aria-valuenow'));
    expect(value).toBeGreaterThan(35);
    expect(value).toBeLessThan(100);
    // The bar fills the share of its track that it reads, from the start of the line (once the stream holds).
    const fill = () =>
      bar.evaluate((track) => {
        const outer = track.getBoundingClientRect();
        const inner = (track.firstElementChild as HTMLElement).getBoundingClientRect();
        const share = Number(track.getAttribute('aria-valuenow')) / 100;
        return { start: inner.left - outer.left - track.clientLeft, off: inner.width / track.clientWidth - share };
      });
    await expect.poll(async () => Math.abs((await fill()).off)).toBeLessThan(0.01);
    expect((await fill()).start).toBeCloseTo(0, 0);

    await page.getByRole('button', { name: 'Stop watching' }).click();
    await page.locator('.ae-builder[data-phase="stopped"]').waitFor();
    // The toolbar and the log (on the stage, there is no app yet) tell one story: stopped watching, the build
    // may still finish; nothing still says it is writing.
    await builder.getByRole('toolbar').getByText('Stopped watching').waitFor();
    await buildLog(page)
      .locator('.ae-outcome[data-phase="stopped"]')
      .getByText('It may still finish on the server')
      .waitFor();
    expect(
      await builder.getByRole('group', { name: 'Preview' }).getByRole('region', { name: 'Build progress' }).count(),
    ).toBe(1);
    expect(await builder.innerText()).not.toMatch(/Writing your app|Updating your app/);
    expect(await builder.innerText()).not.toMatch(/Your app is ready|Generate an app first/);
    // The composer agrees too: it is this project's, its change held while the server may still build (not a
    // form for a new app); something else can start at once from "New project".
    const send = page.getByRole('button', { name: 'Send follow-up' });
    expect(await send.isDisabled()).toBe(true);
    expect(await send.getAttribute('aria-describedby')).not.toBeNull();
    expect(await page.getByRole('button', { name: 'Generate' }).count()).toBe(0);
    expect(await builder.getByRole('button', { name: 'New project' }).isEnabled()).toBe(true);
  });

  it('a stream drop recovers with progress and status consistent', async () => {
    const { page } = await harness.openPage();
    const builder = page.getByRole('region', { name: 'App builder' });
    harness.mock.api.admin.injectFault({ kind: 'drop_after', events: 6 });
    await page.getByLabel('Describe the app you want').fill(firstPrompt);
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.locator('.ae-builder[data-phase="ready"]').waitFor();
    await builder.getByRole('toolbar').getByText('Ready').waitFor();
    await showBuildDetails(page);
    expect(await buildLog(page).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(await buildLog(page).getAttribute('data-phase')).toBe('ready');
    await builder.getByTitle('Preview of the generated app').waitFor();
    expect(await builder.innerText()).not.toMatch(/Setting up|Reconnecting/);
  });

  it('a second signed-in user sees only their own projects in the switcher; a reload mid-build replays the whole file list', async () => {
    const ada = await harness.openPage({ user: 'ada' });
    await ada.page.getByLabel('Describe the app you want').fill(firstPrompt);
    await ada.page.getByRole('button', { name: 'Generate' }).click();
    await ada.page.locator('.ae-builder[data-phase="ready"]').waitFor();
    const project = harness.mock.api.admin.projects()[0]!;
    await ada.page.getByRole('button', { name: 'Projects' }).click();
    const adaList = ada.page.getByRole('region', { name: 'Your projects' });
    // (The proxy remembers Ada's projects from earlier tests too: this one is the newest, listed first.)
    await adaList
      .getByRole('button', { name: new RegExp(project.name) })
      .first()
      .waitFor();

    const grace = await harness.openPage({ user: 'grace' });
    await grace.page.getByRole('button', { name: 'Projects' }).click();
    const graceList = grace.page.getByRole('region', { name: 'Your projects' });
    await graceList.and(grace.page.locator('[data-state="success"]')).waitFor();
    await graceList.getByText('Your projects will be listed here once you have built one.').waitFor();
    expect(await graceList.innerText()).not.toContain(project.name);

    // Ada again: a build held mid-way, then a reload replays every file through the proxy's events route.
    await ada.page.getByRole('button', { name: 'Close' }).click();
    await ada.page.getByRole('button', { name: 'New project' }).click();
    harness.mock.api.admin.injectFault({ kind: 'pause_after', events: 14 });
    await ada.page.getByLabel('Describe the app you want').fill('A portfolio for a ceramic artist');
    await ada.page.getByRole('button', { name: 'Generate' }).click();
    const files = buildLog(ada.page).locator('.ae-file');
    await files.first().waitFor();
    const before = await buildLog(ada.page).locator('.ae-files .ae-label').innerText();
    await ada.page.reload();
    await buildLog(ada.page).locator('.ae-files .ae-label').getByText(before).waitFor();
    expect(await buildLog(ada.page).getAttribute('data-phase')).toMatch(/^(generating|recovering)$/);
    expect(ada.generationPosts).toEqual(['/api/agent/agent/generate', '/api/agent/agent/generate']);
  });
});

describe('the preview on a phone (390 px)', () => {
  /** A page 390 px wide whose first build has completed. */
  async function builtOnAPhone() {
    // Opened at the phone's size: a resize after loading races the layout switch against the first click.
    const { page } = await harness.openPage({ viewport: { width: 390, height: 844 } });
    const builder = page.getByRole('region', { name: 'App builder' });
    await page.locator('.ae-builder[data-layout="narrow"]').waitFor();
    await page.getByLabel('Describe the app you want').fill(firstPrompt);
    await page.getByRole('button', { name: 'Generate' }).click();
    await waitForState(builder, 'completed');
    return { page, builder };
  }

  it('starts at the phone’s width with no wider preset, and its toolbar fits one row', async () => {
    const { builder } = await builtOnAPhone();
    await builder.getByRole('tab', { name: 'Preview' }).click();
    const preview = builder.locator('.ae-preview');
    await preview.getByTitle('Preview of the generated app').waitFor();
    expect(await preview.getAttribute('data-device')).toBe('mobile');
    expect(await preview.getByRole('group', { name: 'Preview width' }).count()).toBe(0);
    // The app fills the phone's stage instead of overflowing it.
    const frameBox = (await preview.getByTitle('Preview of the generated app').boundingBox())!;
    const stageBox = (await preview.locator('.ae-frame-stage').boundingBox())!;
    expect(frameBox.width).toBeLessThanOrEqual(stageBox.width);
    const buttons = await preview.locator('.ae-toolbar').locator('.ae-button').all();
    const middles = await Promise.all(
      buttons.map(async (button) => {
        const box = (await button.boundingBox())!;
        return box.y + box.height / 2;
      }),
    );
    expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(4);
  });

  it('says on the Chat tab that the app is ready, and takes the person to it in one press', async () => {
    const { page, builder } = await builtOnAPhone();
    const ready = builder.getByRole('status').filter({ hasText: 'Your app is ready.' });
    await ready.waitFor();
    // Where the page scrolls after a build (the follow-up box), the pointer is in view too.
    await page.getByLabel('What should change?').scrollIntoViewIfNeeded();
    expect(await ready.isVisible()).toBe(true);
    await ready.getByRole('button', { name: 'See it in Preview' }).click();
    expect(await builder.getByRole('tab', { name: 'Preview' }).getAttribute('aria-selected')).toBe('true');
    await builder.getByTitle('Preview of the generated app').waitFor();
  });
});
