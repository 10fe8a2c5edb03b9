import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppPreview, GeneratePanel, LiveBuildLog, ProjectStatus, type GenerationActionResult } from 'agent-embed';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

function buildLog() {
  return screen.getByRole('region', { name: 'Build progress' });
}

describe('the whole generation journey against the in-browser mock', () => {
  it('generates in design mode, shows progress, files, steps and the app, then follows up', async () => {
    const onComplete = vi.fn<(result: GenerationActionResult) => void>();
    const { user, generationPosts, transport } = renderWithMock(
      <>
        <GeneratePanel onComplete={onComplete} />
        <LiveBuildLog />
        <ProjectStatus />
        <AppPreview />
      </>,
    );
    const form = screen.getByRole('form', { name: 'Create an app' });
    expect(form).toHaveAttribute('data-state', 'idle');
    expect(within(buildLog()).getByText('Nothing is being built yet.')).toBeInTheDocument();
    expect(screen.getByText('No project yet.')).toBeInTheDocument();
    expect(screen.getByText('Your app will appear here.')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Describe the app you want'), 'A portfolio site for a ceramic artist');
    await user.click(screen.getByRole('radio', { name: 'Design' }));
    await user.click(screen.getByRole('button', { name: 'Generate' }));

    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'completed'));
    expect(generationPosts()).toHaveLength(1);
    expect(onComplete).toHaveBeenCalledTimes(1);
    const result = onComplete.mock.calls[0]![0];
    expect(result.outcome).toBe('completed');
    const project = transport.api.admin.projects()[0]!;
    expect(project.mode).toBe('design');
    expect(result.projectId).toBe(project.id);

    const log = within(buildLog());
    const progress = log.getByRole('progressbar', { name: 'Build progress' });
    expect(progress).toHaveAttribute('aria-valuenow', '100');
    expect(progress).toHaveAttribute('aria-valuetext', '100% done');
    expect(log.getByText('Finished.')).toBeInTheDocument();
    // Design mode: nine files, each listed once, in order.
    const files = within(log.getByRole('region', { name: 'Generated files' })).getAllByRole('listitem');
    expect(files.map((row) => row.querySelector('.ae-file-path')?.textContent)).toEqual(project.files);
    expect(files[0]).toHaveAttribute('aria-setsize', String(project.files.length));
    expect(log.getByText(`${project.files.length} new files`)).toBeInTheDocument();
    // Repeated "running" reports of one tool are one step.
    const steps = within(log.getByRole('list', { name: 'Agent steps' })).getAllByRole('listitem');
    expect(steps.map((step) => step.querySelector('.ae-tool-name')?.textContent)).toEqual([
      'Planning',
      'Writing files',
      'Installing dependencies',
      'Building',
    ]);
    const appLink = log.getByRole('link', { name: 'Open the app' });
    expect(appLink).toHaveAttribute('href', project.appUrl);
    expect(appLink).toHaveAttribute('target', '_blank');
    expect(appLink).toHaveAttribute('rel', 'noopener noreferrer');
    // The live region holds the state, not the lines.
    expect(log.getByRole('log')).toHaveTextContent(/^Your app is ready\.$/);

    // ProjectStatus polls the shared poller; AppPreview shows the ready app.
    const status = screen.getByRole('region', { name: 'Project status' });
    await waitFor(() => expect(status).toHaveAttribute('data-state', 'settled'));
    expect(status).toHaveAttribute('data-project-status', 'ready');
    expect(within(status).getByText(project.name)).toBeInTheDocument();
    expect(within(status).getByText('Ready')).toBeInTheDocument();
    expect(within(status).getByRole('link', { name: 'Open the app' })).toHaveAttribute('href', project.appUrl);
    expect(within(status).getByText('Last updated').nextElementSibling?.querySelector('time')).toHaveAttribute(
      'datetime',
    );
    const frame = screen.getByTitle('Preview of the generated app');
    expect(frame).toHaveAttribute('src', project.appUrl);

    // The panel now offers a follow-up on the same project.
    expect(screen.getByRole('form', { name: 'Refine your app' })).toHaveAttribute('data-state', 'completed');
    expect(screen.getByText(/^Changes go to /)).toBeInTheDocument();
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
    expect(screen.getByLabelText('What should change?')).toHaveValue('');
    await user.type(screen.getByLabelText('What should change?'), 'Add a contact page with a form');
    await user.click(screen.getByRole('button', { name: 'Send follow-up' }));
    await waitFor(() => expect(onComplete).toHaveBeenCalledTimes(2));
    expect(onComplete.mock.calls[1]![0]).toMatchObject({ outcome: 'completed', projectId: project.id });
    expect(generationPosts().map((request) => request.path)).toEqual([
      '/api/v1/agent/generate',
      `/api/v1/agent/generate/${project.id}`,
    ]);
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'completed'));
    // A follow-up has no container stage; its one bar is full once it has ended. It modified two files and created one.
    expect(within(buildLog()).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(within(buildLog()).getByText('1 new, 2 changed files')).toBeInTheDocument();
    expect(transport.api.admin.projects()[0]!.prompts).toEqual([
      'A portfolio site for a ceramic artist',
      'Add a contact page with a form',
    ]);

    // "New project" goes back to the new-project form.
    await user.click(screen.getByRole('button', { name: 'New project' }));
    expect(screen.getByRole('form', { name: 'Create an app' })).toHaveAttribute('data-state', 'idle');
    expect(screen.getByRole('radio', { name: 'Design' })).toBeChecked(); // the last mode is remembered
    expect(screen.getByLabelText('Describe the app you want')).toHaveValue('');
  });

  it('previews the app with device widths, reload and a new-tab link', async () => {
    const { user, store } = renderWithMock(<AppPreview />, { store: {} });
    const result = await store!.getState().generate({ prompt: 'A landing page for a bakery' });
    const preview = await screen.findByRole('region', { name: 'App preview' });
    await waitFor(() => expect(preview).toHaveAttribute('data-state', 'ready'));
    const frame = screen.getByTitle('Preview of the generated app');
    expect(frame).toHaveAttribute('src', result.appUrl);
    // The app is on another origin than the page: it may keep its own origin inside the sandbox.
    expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-forms allow-same-origin allow-popups');
    expect(frame).toHaveAttribute('referrerpolicy', 'no-referrer');
    const desktop = screen.getByRole('button', { name: 'Desktop' });
    expect(desktop).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Mobile' }));
    expect(screen.getByRole('button', { name: 'Mobile' })).toHaveAttribute('aria-pressed', 'true');
    expect(desktop).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTitle('Preview of the generated app')).toHaveStyle({ width: '390px' });
    expect(preview).toHaveAttribute('data-device', 'mobile');
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(screen.getByTitle('Preview of the generated app')).not.toBe(frame);
    const newTab = screen.getByRole('link', { name: 'Open the app' });
    expect(newTab).toHaveAttribute('href', result.appUrl);
    expect(newTab).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('ProjectStatus and AppPreview work alone with a project id, sharing one poller', async () => {
    const first = renderWithMock(<></>, { store: {} });
    const { projectId } = await first.store!.getState().generate({ prompt: 'A recipe box with search' });
    first.unmount();
    const { statusGets } = renderWithMock(
      <>
        <ProjectStatus projectId={projectId!} />
        <ProjectStatus projectId={projectId!} />
        <AppPreview projectId={projectId!} />
      </>,
      { mock: { api: first.transport.api } },
    );
    await waitFor(() =>
      expect(screen.getAllByRole('region', { name: 'Project status' })[0]).toHaveAttribute('data-state', 'settled'),
    );
    expect(screen.getAllByRole('region', { name: 'Project status' })[1]).toHaveAttribute('data-state', 'settled');
    await waitFor(() => expect(screen.getByTitle('Preview of the generated app')).toBeInTheDocument());
    // Three watchers of one project, one request: the status is terminal, so polling stopped.
    expect(statusGets()).toHaveLength(1);
  });
});
