/**
 * AgentBuilder in real Chromium: the deploy dialog, the modal behaviour of the sheet and the dialog, and the
 * code-host install page with its redirect back.
 */
import { describe, expect, it } from 'vitest';
import {
  axeViolations,
  builderRegion,
  useBrowserHarness,
  waitForState,
  type PlaygroundPage,
} from './browser-harness.js';

const harness = useBrowserHarness();

/** axe on the page in the system's light and dark schemes (the Theme select stays on 'auto', outside any open dialog). */
async function violationsInBothSchemes(entry: PlaygroundPage): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await entry.page.emulateMedia({ colorScheme: scheme });
    // Colours change with a short transition: axe reads them once it has ended, not halfway.
    await entry.page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation instanceof CSSTransition)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
    );
    found.push(...(await axeViolations(entry.page)).map((line) => `${scheme}: ${line}`));
  }
  return found;
}

async function generatedApp(entry: PlaygroundPage) {
  const { page } = entry;
  await page.getByLabel('Describe the app you want').fill('A recipe box with tags and a shopping list');
  await page.getByRole('button', { name: 'Generate' }).click();
  await waitForState(builderRegion(page), 'completed');
  const projects = harness.mock.api.admin.projects();
  expect(projects).toHaveLength(1);
  return projects[0]!;
}

describe('AgentBuilder in Chromium', () => {
  it('connects Vercel through the dialog without keeping the token, then deploys', async () => {
    const opened = await harness.openPage();
    const { page } = opened;
    const project = await generatedApp(opened);

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: /^Connect Vercel$/i }).click();
    const dialog = page.getByRole('dialog', { name: /^Connect Vercel$/i });
    await dialog.waitFor();
    const dialogViolations = await violationsInBothSchemes(opened);
    expect(dialogViolations, `axe violations with the dialog open:\n${dialogViolations.join('\n')}`).toEqual([]);
    const token = 'ada-vercel-token-123456';
    const field = dialog.getByLabel(/access token/i);
    expect(await field.getAttribute('type')).toBe('password');
    await field.fill(token);
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByText(/^Connected as /)
      .first()
      .waitFor();
    expect(await page.content()).not.toContain(token);

    await page.getByRole('button', { name: /^Deploy to Vercel$/i }).click();
    await page.locator('section.ae-deploy[data-state="deployed"]').waitFor();
    const deployment = page.getByRole('link', { name: /^Open the deployment/ });
    expect(await deployment.getAttribute('href')).toMatch(/^https?:\/\//);
    expect(
      Object.keys(
        harness.mock.api.admin.projects().find((candidate) => candidate.id === project.id)!.deploymentConnections,
      ),
    ).toEqual(['vercel']);
    expect(await page.content()).not.toContain(token);
  });

  it('sends the user to the mock install page and back to the playground, connected', async () => {
    const opened = await harness.openPage();
    const { page } = opened;
    await generatedApp(opened);
    const playgroundOrigin = new URL(harness.playground.url).origin;
    const mockOrigin = new URL(harness.mock.url).origin;

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: 'Connect GitHub' }).click();
    await page.waitForURL((url) => url.origin === mockOrigin);
    await page.getByRole('heading', { name: 'Install the Agent code-host app' }).waitFor();
    await page.getByRole('button', { name: 'Install' }).click();

    await page.waitForURL((url) => url.origin === playgroundOrigin);
    await page.getByRole('button', { name: 'Publish' }).click();
    const codehost = page.getByRole('region', { name: 'Save the code to GitHub' });
    await codehost.getByText('Connected as ada-lovelace').waitFor();
    await page.getByRole('form').first().waitFor();
    const connectedViolations = await violationsInBothSchemes(opened);
    expect(connectedViolations, `axe violations once connected:\n${connectedViolations.join('\n')}`).toEqual([]);
  });

  it('the Publish sheet keeps its story through the code-host round trip, a save and a reload, one filled action at a time', async () => {
    const opened = await harness.openPage();
    const { page } = opened;
    await generatedApp(opened);
    const playgroundOrigin = new URL(harness.playground.url).origin;
    const mockOrigin = new URL(harness.mock.url).origin;
    const sheet = page.getByRole('dialog', { name: 'Publish your app' });
    const primaries = () => sheet.locator('.ae-button-primary:visible').allTextContents();

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: /^Connect Vercel$/i }).click();
    const dialog = page.getByRole('dialog', { name: /^Connect Vercel$/i });
    await dialog.getByLabel(/access token/i).fill('ada-vercel-token-123456');
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^Deploy to Vercel$/i }).click();
    await page.locator('section.ae-deploy[data-state="deployed"]').waitFor();
    const deploymentUrl = await page.getByRole('link', { name: /^Open the deployment/ }).getAttribute('href');
    await sheet.locator('.ae-codehost[data-state="missing"]').waitFor();
    expect(await primaries()).toEqual(['Connect GitHub']);

    // The install page is another site: the page is left and built again on the way back.
    await page.getByRole('button', { name: 'Connect GitHub' }).click();
    await page.waitForURL((url) => url.origin === mockOrigin);
    await page.getByRole('button', { name: 'Install' }).click();
    await page.waitForURL((url) => url.origin === playgroundOrigin);
    await page.getByRole('button', { name: 'Publish' }).click();
    await sheet.getByText('Connected as ada-lovelace').waitFor();
    expect(await sheet.getByRole('link', { name: /^Open the deployment/ }).getAttribute('href')).toBe(deploymentUrl);

    const repositories = sheet.getByRole('region', { name: 'Repository' });
    await repositories.getByRole('option').first().click();
    const fullName = (await repositories.getByRole('option').first().locator('.ae-repo-name').textContent())!;
    expect(await primaries()).toEqual([`Use ${fullName}`]);
    await repositories.getByRole('button', { name: `Use ${fullName}` }).click();
    await repositories.getByText(`Your code goes to ${fullName}`).waitFor();
    expect(await primaries()).toEqual([`Save the code to ${fullName}`]);
    await repositories.getByRole('button', { name: `Save the code to ${fullName}` }).click();
    await repositories.getByText(`Saved your code to ${fullName}`).waitFor();
    expect(await primaries()).toEqual([`Save the code to ${fullName}`]);

    await page.reload();
    await page.getByRole('button', { name: 'Publish' }).click();
    await sheet.getByText(`Saved your code to ${fullName}`).waitFor();
    expect(await sheet.getByRole('link', { name: /^Open the deployment/ }).getAttribute('href')).toBe(deploymentUrl);
    expect(await primaries()).toEqual([`Save the code to ${fullName}`]);
  });

  it('the sheet and the token dialog are modal: focus moves in and back, Escape and the backdrop close the topmost only, the page behind stays put', async () => {
    const { page } = await harness.openPage();
    const isFocused = (element: Element) => element === document.activeElement;
    const publish = page.getByRole('button', { name: 'Publish' });
    await publish.click();
    const sheet = page.getByRole('dialog', { name: 'Publish your app' });
    await sheet.waitFor();
    expect(await sheet.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
    const connect = page.getByRole('button', { name: /^Connect Vercel$/i });
    await connect.click();
    const dialog = page.getByRole('dialog', { name: /^Connect Vercel$/i });
    await dialog.waitFor();
    expect(await dialog.getByLabel(/access token/i).evaluate(isFocused)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await sheet.isVisible()).toBe(true);
    expect(await connect.evaluate(isFocused)).toBe(true);

    // A press on the backdrop closes the sheet, and reaches nothing under it: the prompt box there stays unfocused.
    const prompt = page.getByLabel('Describe the app you want');
    const box = (await prompt.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await sheet.waitFor({ state: 'detached' });
    expect(await publish.evaluate(isFocused)).toBe(true);
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('');
  });
});
