/**
 * Every tab live: the same end user opens, on a second device (its own browser context), a project that is
 * building in the first; it follows the build live through the proxy's events route, both conversations show
 * the turn once it ends, and only the first tab ever sent a generation POST.
 */
import { describe, expect, it } from 'vitest';
import { builderRegion, useBrowserHarness, waitForState } from './browser-harness.js';

const harness = useBrowserHarness();
const prompt = 'A recipe box with tags and a shopping list';

describe('every tab live', () => {
  it('a second device follows a live build from its log and ends with the same turn, with no POST of its own', async () => {
    const first = await harness.openPage({ user: 'ada' });
    // Slow enough that the second device opens the project while it builds: at 200 ms an event the build ended in
    // about 5 s after the first page saw it generating, and a loaded CI machine once took longer than that to open the
    // second page and its project.
    harness.mock.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 500 });
    await first.page.getByLabel('Describe the app you want').fill(prompt);
    await first.page.getByRole('button', { name: 'Generate' }).click();
    await first.page.locator('.ae-builder[data-phase="generating"]').waitFor();

    const second = await harness.openPage({ user: 'ada' });
    const recent = second.page.getByRole('region', { name: 'Continue a project' });
    await recent.getByRole('button').first().click();
    const builder = builderRegion(second.page);
    // Followed live: it is seen building (not only a finished project polled afterwards).
    await second.page.locator('.ae-builder[data-phase="generating"]').waitFor();

    await waitForState(builderRegion(first.page), 'completed');
    await waitForState(builder, 'completed');
    for (const { page } of [first, second]) {
      const conversation = page.getByRole('region', { name: 'Conversation' });
      await conversation.getByText(prompt).waitFor();
      await conversation.getByText(/^Done: /).waitFor();
      expect(await conversation.innerText()).not.toContain('Working on it');
    }
    expect(first.generationPosts).toHaveLength(1);
    expect(second.generationPosts).toHaveLength(0);
  });
});
