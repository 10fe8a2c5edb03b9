import { screen, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { AppPreview, GeneratePanel, LiveBuildLog, ProjectStatus } from 'agent-embed';
import { cleanupRendered, renderWithMock, type RenderWithMockOptions, withoutProxyRoutes } from './render-with-mock.js';

afterEach(cleanupRendered);

/**
 * axe with every rule except color-contrast: jsdom has no layout or computed colours, so contrast cannot
 * be measured here. `iframes: false` keeps axe out of the preview's document (the generated app, not ours,
 * and jsdom cannot message into it); rules on the iframe element itself, like frame-title, still run.
 */
async function violations(container: HTMLElement) {
  const results = await axe.run(container, { iframes: false, rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
  );
}

function renderAll(options: RenderWithMockOptions = {}) {
  return renderWithMock(
    <main>
      <GeneratePanel />
      <LiveBuildLog />
      <ProjectStatus />
      <AppPreview />
    </main>,
    options,
  );
}

function buildLog() {
  return screen.getByRole('region', { name: 'Build progress' });
}

async function submit(user: ReturnType<typeof renderAll>['user'], prompt: string) {
  await user.type(screen.getByLabelText('Describe the app you want'), prompt);
  await user.click(screen.getByRole('button', { name: 'Generate' }));
}

describe('axe-core reports no violations', () => {
  it('(the check itself finds real problems)', async () => {
    const container = document.createElement('div');
    container.innerHTML = '<main><textarea></textarea><div role="progressbar" aria-valuenow="5"></div></main>';
    document.body.append(container);
    const found = await violations(container);
    container.remove();
    expect(found.map((line) => line.split(':')[0])).toEqual(expect.arrayContaining(['label', 'aria-progressbar-name']));
  });

  it('idle', async () => {
    const { container } = renderAll();
    expect(await violations(container)).toEqual([]);
  });

  it('with the prompt-too-short error', async () => {
    const { container, user } = renderAll();
    await submit(user, 'tiny');
    expect(screen.getByText('The prompt must be at least 10 characters.')).toBeInTheDocument();
    expect(await violations(container)).toEqual([]);
  });

  it('completed, with files, steps, status and preview', async () => {
    const { container, user } = renderAll({ provider: { colorScheme: 'dark' } });
    await submit(user, 'A portfolio site for a ceramic artist');
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'completed'));
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Project status' })).toHaveAttribute('data-state', 'settled'),
    );
    expect(screen.getByTitle('Preview of the generated app')).toBeInTheDocument();
    expect(await violations(container)).toEqual([]);
  });

  it('credits exhausted before (400) with the refusal alert', async () => {
    const { container, user, transport } = renderAll();
    transport.api.admin.setCredits(0);
    await submit(user, 'A portfolio site for a ceramic artist');
    await screen.findByRole('alert');
    expect(await violations(container)).toEqual([]);
  });

  it('running (cancel available) and recovering', async () => {
    // Recovery by polling (no events route), and every status poll before the 60 s backoff fails: the status
    // refresh when the stream starts may or may not come first, so both polls meet a 500.
    const { container, user, transport } = renderAll({
      store: { pollIntervalMs: 60_000, maxPollIntervalMs: 60_000 },
      wrapTransport: withoutProxyRoutes,
    });
    transport.api.admin.injectFault({ kind: 'drop_after', events: 3 });
    transport.api.admin.injectFault({ kind: 'http_500', route: 'getProject' });
    transport.api.admin.injectFault({ kind: 'http_500', route: 'getProject' });
    await submit(user, 'A portfolio site for a ceramic artist');
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'recovering'));
    expect(await violations(container)).toEqual([]);
  });
});
