import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentBuilder, AppPreview, GeneratePanel, LiveBuildLog, ProjectStatus } from 'agent-embed';
import { AgentApiError, createAgentClient, defaultStorageKey } from 'agent-embed/core';
import { creditsExhaustedMessage, createMockAgentApi } from 'agent-embed/mock';
import { cleanupRendered, renderWithMock, withoutProxyRoutes } from './render-with-mock.js';

afterEach(cleanupRendered);

const validPrompt = 'A habit tracker with streaks';

function buildLog() {
  return screen.getByRole('region', { name: 'Build progress' });
}

function outcome() {
  return buildLog().querySelector('.ae-outcome');
}

/** The prompt form, the build log and the preview, after a new project's build failed (an `error` event). */
async function failedNewProject() {
  const rendered = renderWithMock(
    <>
      <GeneratePanel />
      <LiveBuildLog />
      <AppPreview />
    </>,
  );
  rendered.transport.api.admin.injectFault({ kind: 'error_event', afterEvents: 3 });
  await rendered.user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
  await rendered.user.click(screen.getByRole('button', { name: 'Generate' }));
  await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'failed'));
  return rendered;
}

describe('credits exhausted', () => {
  it('before the generation (400): told once, by the prompt form, with a buy-credits call to action', async () => {
    const onBuyCredits = vi.fn();
    const { user, transport, generationPosts } = renderWithMock(
      <>
        <GeneratePanel onBuyCredits={onBuyCredits} />
        <LiveBuildLog onBuyCredits={onBuyCredits} />
        <AppPreview />
      </>,
    );
    transport.api.admin.setCredits(0);
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(screen.getByRole('form')).toHaveAttribute('data-state', 'credits_exhausted'));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('You have run out of credits. Buy more credits to continue.');
    await waitFor(() => expect(alert).toHaveFocus());
    // The request built nothing: the log and the preview have nothing to tell, so the failure reads once.
    expect(buildLog()).toHaveAttribute('data-phase', 'idle');
    expect(outcome()).toBeNull();
    expect(within(buildLog()).getByText('Nothing is being built yet.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'App preview' })).toHaveTextContent('Your app will appear here.');
    expect(screen.getAllByText(/run out of credits|credits ran out/i)).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Buy credits' })).toHaveLength(1);
    await user.click(within(alert).getByRole('button', { name: 'Buy credits' }));
    expect(onBuyCredits).toHaveBeenCalledTimes(1);
    // The prompt comes back to the box, ready once credits are bought.
    expect(screen.getByLabelText('Describe the app you want')).toHaveValue(validPrompt);
    expect(generationPosts()).toHaveLength(1);
  });

  it('before the generation (400), alone: a buy link from buyCreditsUrl, none for a URL that is not http(s)', async () => {
    const { user, transport } = renderWithMock(<GeneratePanel buyCreditsUrl="https://agency.example.test/billing" />);
    transport.api.admin.setCredits(0);
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const link = await screen.findByRole('link', { name: 'Buy credits' });
    expect(link).toHaveAttribute('href', 'https://agency.example.test/billing');
    cleanupRendered();
    const unsafe = renderWithMock(<GeneratePanel buyCreditsUrl="javascript:alert(1)" />);
    unsafe.transport.api.admin.setCredits(0);
    await unsafe.user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await unsafe.user.click(screen.getByRole('button', { name: 'Generate' }));
    await screen.findByRole('alert');
    expect(screen.queryByRole('link', { name: 'Buy credits' })).not.toBeInTheDocument();
  });

  it('during the generation (event): out of credits after the files it could pay for, with a buy link', async () => {
    const { user, transport } = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog buyCreditsUrl="https://agency.example.test/billing" />
      </>,
    );
    transport.api.admin.setCredits(3);
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'credits_exhausted'));
    // End-user words; the API's own message goes to the agency (onError).
    expect(outcome()).toHaveTextContent('Your credits ran out.');
    expect(outcome()).not.toHaveTextContent(creditsExhaustedMessage);
    expect(within(buildLog()).getByText('3 new files')).toBeInTheDocument();
    const link = within(buildLog()).getByRole('link', { name: 'Buy credits' });
    expect(link).toHaveAttribute('href', 'https://agency.example.test/billing');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    // The stream had started: this is the log's news, not a refusal of the form.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('form')).toHaveAttribute('data-state', 'credits_exhausted');
    // Once credits are bought, sending it again needs no typing: the prompt is back in the box.
    await waitFor(() => expect(screen.getByLabelText('Describe the app you want')).toHaveValue(validPrompt));
  });

  it('never links a non-http buy-credits URL', async () => {
    const { user, transport } = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog buyCreditsUrl="javascript:alert(1)" />
      </>,
    );
    transport.api.admin.setCredits(3);
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'credits_exhausted'));
    expect(outcome()).toHaveTextContent('Your credits ran out.');
    expect(within(buildLog()).queryByRole('link')).not.toBeInTheDocument();
  });
});

describe('interrupted streams', () => {
  it('shows recovering, then the recovered outcome from the status endpoint, with one POST', async () => {
    const { user, transport, generationPosts, statusGets } = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
      </>,
      // Without the proxy's events route, recovery polls the status endpoint.
      { store: { pollIntervalMs: 20, maxPollIntervalMs: 40 }, wrapTransport: withoutProxyRoutes },
    );
    // The stream drops after four events; the generation goes on at the mock. The first status poll
    // fails, so the recovering state stays on screen until the backoff retry.
    transport.api.admin.injectFault({ kind: 'drop_after', events: 4 });
    transport.api.admin.injectFault({ kind: 'http_500', route: 'getProject' });
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'recovering'));
    expect(outcome()).toHaveTextContent('The connection dropped. Reconnecting to your build…');
    expect(within(buildLog()).getByRole('log')).toHaveTextContent('Connection dropped. Reconnecting to your build.');
    expect(screen.getByRole('button', { name: 'Stop watching' })).toBeInTheDocument();
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'completed'));
    const project = transport.api.admin.projects()[0]!;
    expect(within(buildLog()).getByRole('link', { name: 'Open the app' })).toHaveAttribute('href', project.appUrl);
    expect(generationPosts()).toHaveLength(1);
    expect(statusGets().length).toBeGreaterThanOrEqual(2);
  });

  it('"Stop watching" while reconnecting is said once, as stopped; a poll refused with 429 says its wait, the next one settles it', async () => {
    const { user, transport, statusGets } = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
      </>,
      { store: { pollIntervalMs: 60_000, maxPollIntervalMs: 60_000 }, wrapTransport: withoutProxyRoutes },
    );
    transport.api.admin.injectFault({ kind: 'drop_after', events: 2 });
    transport.api.admin.injectFault({ kind: 'http_500', route: 'getProject' });
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'recovering'));
    transport.api.admin.injectFault({ kind: 'rate_limited', retryAfterSeconds: 1, route: 'getProject' });
    await user.click(screen.getByRole('button', { name: 'Stop watching' }));
    expect(buildLog()).toHaveAttribute('data-phase', 'stopped');
    // The project's change waits for the build the server may still be running; a new app is not what it offers.
    expect(screen.getByRole('button', { name: 'Send follow-up' })).toBeDisabled();
    expect(outcome()).toHaveTextContent('You stopped watching this build.');
    // One state, said once: no progress line still "writing" beside it.
    expect(within(buildLog()).queryByRole('progressbar')).toBeNull();
    await waitFor(() => expect(outcome()).toHaveTextContent('Checking again in 1 s.'));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'completed'), { timeout: 5_000 });
    expect(statusGets()).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Send follow-up' })).toBeEnabled();
  });

  it('a reload resumes the unfinished generation from sessionStorage and shows its outcome, without a POST', async () => {
    const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
    const user = { id: 'end-user-1', name: 'Ada' };
    const before = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
      </>,
      { mock: { api }, provider: { externalUser: user } },
    );
    api.admin.injectFault({ kind: 'drop_after', events: 3 });
    api.admin.injectFault({ kind: 'http_500', route: 'getProject' });
    await before.user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await before.user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'recovering'));
    const project = api.admin.projects()[0]!;
    expect(JSON.parse(sessionStorage.getItem(`${defaultStorageKey}:${user.id}`) ?? '{}')).toMatchObject({
      projectId: project.id,
      status: 'recovering',
    });
    before.unmount(); // the page reloads while the outcome is unknown

    const after = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
        <ProjectStatus />
      </>,
      { mock: { api }, provider: { externalUser: user } },
    );
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'completed'));
    expect(within(buildLog()).getByRole('link', { name: 'Open the app' })).toHaveAttribute('href', project.appUrl);
    // The restored project is offered for a follow-up.
    expect(screen.getByRole('form', { name: 'Refine your app' })).toBeInTheDocument();
    expect(screen.getByText(/^Changes go to /)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Project status' })).toHaveAttribute('data-project-status', 'ready'),
    );
    expect(after.generationPosts()).toHaveLength(1);
    expect(JSON.parse(sessionStorage.getItem(`${defaultStorageKey}:${user.id}`) ?? '{}')).toMatchObject({
      projectId: project.id,
      status: 'completed',
    });
  });

  it('the persisted project belongs to one end user: another one resumes nothing', async () => {
    sessionStorage.setItem(
      `${defaultStorageKey}:someone-else`,
      JSON.stringify({ projectId: 'p_other', status: 'generating', kind: 'generate', mode: 'build' }),
    );
    const { statusGets } = renderWithMock(<LiveBuildLog />, { provider: { externalUser: { id: 'end-user-2' } } });
    // The provider resumes in a task after the mount: give it a few.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(buildLog()).toHaveAttribute('data-state', 'idle');
    expect(statusGets()).toHaveLength(0);
  });

  it('takes up the saved build in a task after the mount, not in the task that runs every mount effect', async () => {
    sessionStorage.setItem(
      `${defaultStorageKey}:end-user-3`,
      JSON.stringify({ projectId: 'p_saved', status: 'generating', kind: 'generate', mode: 'build' }),
    );
    renderWithMock(<LiveBuildLog />, { provider: { externalUser: { id: 'end-user-3' } } });
    // The mount and its effects are done (render runs them in act), and the saved build is not taken up yet.
    expect(buildLog()).toHaveAttribute('data-state', 'idle');
    await waitFor(() => expect(buildLog()).not.toHaveAttribute('data-state', 'idle'));
  });
});

describe('an app_url that is not http(s) never becomes a link or an iframe', () => {
  it('from the stream: no link, no iframe, a labelled message instead', async () => {
    const { user, container } = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
        <AppPreview />
      </>,
      {
        // A server (or a proxy in between) that sends a script URL as the app address.
        wrapTransport: (mock) => ({
          json: (request) => mock.json(request),
          stream: (request, handlers) =>
            mock.stream(request, {
              ...handlers,
              onEvent: (event) =>
                handlers.onEvent(
                  event.type === 'project_created' || event.type === 'stream_end'
                    ? { ...event, app_url: 'javascript:alert(document.cookie)' }
                    : event,
                ),
            }),
        }),
      },
    );
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'completed'));
    expect(outcome()).toHaveTextContent('The app address is not a web address, so it is not shown as a link.');
    expect(screen.getByRole('region', { name: 'App preview' })).toHaveAttribute('data-state', 'unsafe');
    expect(screen.getByText('The app address is not a web address, so it cannot be previewed.')).toBeInTheDocument();
    expect(container.querySelector('iframe')).toBeNull();
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(container.innerHTML).not.toContain('javascript:');
  });

  it('from the status endpoint (and from an explicit url): no link, no iframe', async () => {
    const first = renderWithMock(<></>, { store: {} });
    const { projectId } = await first.store!.getState().generate({ prompt: validPrompt });
    first.unmount();
    const { container } = renderWithMock(
      <>
        <ProjectStatus projectId={projectId!} />
        <AppPreview projectId={projectId!} />
        <AppPreview url="data:text/html,<script>alert(1)</script>" />
      </>,
      {
        mock: { api: first.transport.api },
        wrapTransport: (mock) => ({
          json: async (request) => ({ ...((await mock.json(request)) as object), app_url: 'vbscript:msgbox(1)' }),
          stream: (request, handlers) => mock.stream(request, handlers),
        }),
      },
    );
    const status = screen.getByRole('region', { name: 'Project status' });
    await waitFor(() => expect(status).toHaveAttribute('data-project-status', 'ready'));
    expect(within(status).getByText('Not a web address')).toBeInTheDocument();
    const previews = screen.getAllByRole('region', { name: 'App preview' });
    expect(previews.map((preview) => preview.getAttribute('data-state'))).toEqual(['unsafe', 'unsafe']);
    expect(container.querySelector('iframe')).toBeNull();
    expect(screen.queryAllByRole('link')).toHaveLength(0);
  });
});

describe('a follow-up keeps the app on stage', () => {
  const followUpPrompt = 'Make the header dark blue and add a search bar';
  // The store keeps the last project for a reload: each test starts a new visit.
  afterEach(() => sessionStorage.clear());

  async function generateApp() {
    const rendered = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
        <AppPreview />
      </>,
    );
    await rendered.user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await rendered.user.click(screen.getByRole('button', { name: 'Generate' }));
    const frame = await screen.findByTitle('Preview of the generated app');
    return { ...rendered, appUrl: frame.getAttribute('src') };
  }

  it('while the change builds: the app stays, says it is updating, and reloads once the change is done', async () => {
    const { user, transport, appUrl } = await generateApp();
    transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 60 });
    await user.type(screen.getByLabelText('What should change?'), followUpPrompt);
    await user.click(screen.getByRole('button', { name: 'Send follow-up' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'generating'));
    const preview = screen.getByRole('region', { name: 'App preview' });
    const building = within(preview).getByTitle('Preview of the generated app');
    expect(building).toHaveAttribute('src', appUrl);
    expect(within(preview).getByRole('status')).toHaveTextContent('Updating your app…');
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'ready'), { timeout: 5_000 });
    const done = within(preview).getByTitle('Preview of the generated app');
    expect(done).toHaveAttribute('src', appUrl);
    expect(done).not.toBe(building);
    expect(within(preview).queryByRole('status')).not.toBeInTheDocument();
  });

  it('after the change failed: the app from before is still shown, the failure is told by the log', async () => {
    const { user, transport, appUrl } = await generateApp();
    transport.api.admin.injectFault({ kind: 'error_event', afterEvents: 1 });
    await user.type(screen.getByLabelText('What should change?'), followUpPrompt);
    await user.click(screen.getByRole('button', { name: 'Send follow-up' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'failed'));
    const preview = screen.getByRole('region', { name: 'App preview' });
    expect(within(preview).getByTitle('Preview of the generated app')).toHaveAttribute('src', appUrl);
    expect(within(preview).queryByRole('status')).not.toBeInTheDocument();
    expect(preview).not.toHaveTextContent('Your app will appear here.');
    expect(outcome()).toHaveTextContent(/failed/i);
    expect(screen.getByLabelText('What should change?')).toHaveValue(followUpPrompt);
  });

  it('"Try again" after a failed change sends the same prompt once more, once however often it is clicked', async () => {
    const { user, transport, generationPosts } = await generateApp();
    transport.api.admin.injectFault({ kind: 'error_event', afterEvents: 1 });
    await user.type(screen.getByLabelText('What should change?'), followUpPrompt);
    await user.click(screen.getByRole('button', { name: 'Send follow-up' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'failed'));
    expect(outcome()).toHaveTextContent('The change failed.');
    const postsBefore = generationPosts().length;
    await user.dblClick(within(buildLog()).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'ready'));
    expect(generationPosts().slice(postsBefore)).toHaveLength(1);
    // Sent again, the prompt leaves the box it had come back to, as a sent prompt does.
    expect(screen.getByLabelText('What should change?')).toHaveValue('');
    // The same prompt, to the same project: it now has the first prompt and the change, asked twice.
    expect(transport.api.admin.projects()).toHaveLength(1);
    expect(transport.api.admin.projects()[0]?.prompts).toEqual([validPrompt, followUpPrompt, followUpPrompt]);
  });

  it('a new project that failed has no app to show, and "Try again" asks for it again', async () => {
    const { user, transport, generationPosts } = await failedNewProject();
    expect(screen.queryByTitle('Preview of the generated app')).not.toBeInTheDocument();
    // "Try again" asks for the app again, with the same prompt, as a new project.
    expect(outcome()).toHaveTextContent('The build failed.');
    await user.click(within(buildLog()).getByRole('button', { name: 'Try again' }));
    await screen.findByTitle('Preview of the generated app');
    expect(generationPosts()).toHaveLength(2);
    expect(transport.api.admin.projects().map((project) => project.prompts)).toEqual([[validPrompt], [validPrompt]]);
  });
});

describe('keyboard', () => {
  it('"Try again" by keyboard leaves focus in the build log, not on the page, once its button goes', async () => {
    const { user } = await failedNewProject();
    within(buildLog()).getByRole('button', { name: 'Try again' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(buildLog()).queryByRole('button', { name: 'Try again' })).toBeNull());
    await waitFor(() => expect(buildLog()).toHaveFocus());
  });
});

describe('a project this page did not build (given by id, with only its status to go on)', () => {
  async function builtElsewhere(fault?: Parameters<ReturnType<typeof createMockAgentApi>['admin']['injectFault']>[0]) {
    const first = renderWithMock(<></>, { store: {} });
    if (fault !== undefined) first.transport.api.admin.injectFault(fault);
    const { projectId } = await first.store!.getState().generate({ prompt: validPrompt });
    first.unmount();
    return { api: first.transport.api, projectId: projectId! };
  }

  it('failed: the log says the build failed, as the status does, with nothing to try again', async () => {
    const { api, projectId } = await builtElsewhere({ kind: 'error_event', afterEvents: 3 });
    renderWithMock(
      <>
        <ProjectStatus projectId={projectId} />
        <LiveBuildLog projectId={projectId} />
      </>,
      { mock: { api } },
    );
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'failed'));
    const status = screen.getByRole('region', { name: 'Project status' });
    expect(within(status).getByText('Failed')).toBeInTheDocument();
    expect(within(buildLog()).getByText('Failed')).toBeInTheDocument();
    expect(within(buildLog()).getByRole('alert')).toHaveTextContent('The build failed.');
    expect(within(buildLog()).queryByText('Nothing is being built yet.')).not.toBeInTheDocument();
    // This page has no prompt to send again.
    expect(within(buildLog()).queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('ready, on its own: the log follows the status itself and links the app', async () => {
    const { api, projectId } = await builtElsewhere();
    const { statusGets } = renderWithMock(<LiveBuildLog projectId={projectId} />, { mock: { api } });
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'ready'));
    expect(outcome()).toHaveTextContent('Your app is ready.');
    expect(within(buildLog()).getByRole('link', { name: 'Open the app' })).toHaveAttribute(
      'href',
      api.admin.projects()[0]!.appUrl,
    );
    expect(statusGets().length).toBeGreaterThan(0);
  });

  /** A build another page started, still running: its project, and the generation's end. */
  async function buildingElsewhere() {
    const first = renderWithMock(<></>, { store: {} });
    first.transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 20 });
    const started = first.store!.getState().generate({ prompt: validPrompt });
    const { api } = first.transport;
    await waitFor(() => expect(api.admin.projects()).toHaveLength(1));
    return { api, projectId: api.admin.projects()[0]!.id, started };
  }

  it('still building: the log says so until the status shows how it ended', async () => {
    const { api, projectId, started } = await buildingElsewhere();
    renderWithMock(<LiveBuildLog projectId={projectId} />, { mock: { api }, store: { pollIntervalMs: 50 } });
    const log = screen.getAllByRole('region', { name: 'Build progress' }).at(-1)!;
    await waitFor(() => expect(log).toHaveAttribute('data-phase', 'generating'));
    expect(log).toHaveTextContent('This app is being built. The result will show up here when it is done.');
    expect(log).not.toHaveTextContent('Nothing is being built yet.');
    await started;
    await waitFor(() => expect(log).toHaveAttribute('data-phase', 'ready'));
    expect(log).toHaveTextContent('Your app is ready.');
    expect(log).not.toHaveTextContent('This app is being built.');
  });

  it('still building: the panel holds a follow-up, saying why, until the build ends; then it sends it once', async () => {
    const { api, projectId, started } = await buildingElsewhere();
    renderWithMock(<GeneratePanel projectId={projectId} />, { mock: { api }, store: { pollIntervalMs: 50 } });
    const panel = screen.getAllByRole('form').at(-1)!;
    const send = within(panel).getByRole('button', { name: 'Send follow-up' });
    await waitFor(() => expect(send).toBeDisabled());
    expect(send).toHaveAccessibleDescription('This app is being built. You can send a follow-up once it is done.');
    // The change can be written meanwhile.
    const user = userEvent.setup();
    await user.type(within(panel).getByRole('textbox'), 'Make the header sticky please');
    await started;
    await waitFor(() => expect(send).toBeEnabled());
    expect(panel).not.toHaveTextContent('This app is being built.');
    await user.click(send);
    await waitFor(() =>
      expect(
        api.admin.requests.filter((request) => request.method === 'POST' && request.path.endsWith(projectId)),
      ).toHaveLength(1),
    );
  });
});

describe('a project that is gone', () => {
  it('after a reload, a saved project whose status answers 404 is "Not found" everywhere, and the form starts a new one', async () => {
    const user = { id: 'grace', name: 'Grace Hopper', email: 'grace@example.com' };
    const before = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
      </>,
      { provider: { externalUser: user } },
    );
    await before.user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await before.user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'completed'));
    before.unmount();

    // The next page meets a proxy (and an API) that no longer knows the project: deleted, or a memory store restarted.
    const after = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
        <ProjectStatus />
        <AppPreview />
      </>,
      { mock: { api: createMockAgentApi({ speed: 'instant', rateLimit: false }) }, provider: { externalUser: user } },
    );
    const status = screen.getByRole('region', { name: 'Project status' });
    await waitFor(() => expect(status).toHaveAttribute('data-phase', 'gone'));
    expect(status.querySelector('.ae-badge')).toHaveTextContent('Not found');
    // The log tells it with its next step; the status's badge names it, and its name is not waited for.
    expect(status).not.toHaveTextContent('Could not load the status');
    expect(status).not.toHaveTextContent('Loading');
    expect(buildLog()).toHaveAttribute('data-phase', 'gone');
    expect(within(buildLog()).getByRole('alert')).toHaveTextContent('This project could not be found.');
    expect(screen.queryByText('Ready')).toBeNull();
    expect(screen.queryByText('Your app is ready.')).toBeNull();
    const stage = screen.getByRole('region', { name: 'App preview' });
    expect(stage.querySelector('iframe')).toBeNull();
    expect(stage).not.toHaveTextContent('Your app will appear here');
    // Nothing to refine: the form is a new project's.
    expect(screen.queryByRole('form', { name: 'Refine your app' })).toBeNull();
    await after.user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    expect(screen.getByRole('button', { name: 'Generate' })).toBeEnabled();
  });
});

describe('a project that is gone, with its form', () => {
  it('a given project that is gone takes no follow-up: Send follow-up waits, and nothing is sent', async () => {
    const { generationPosts } = renderWithMock(
      <>
        <GeneratePanel projectId="proj_missing_1" />
        <LiveBuildLog projectId="proj_missing_1" />
      </>,
    );
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'gone'));
    const send = screen.getByRole('button', { name: 'Send follow-up' });
    expect(send).toBeDisabled();
    // The build log tells it, with its next step: the form does not say it a second time, and its held button is
    // described by the log's sentence.
    expect(screen.getAllByText(/It may have been removed/)).toHaveLength(1);
    await waitFor(() =>
      expect(send).toHaveAccessibleDescription(
        'This project could not be found. It may have been removed; start a new one.',
      ),
    );
    expect(generationPosts()).toHaveLength(0);
  });

  it('alone, the form says why it waits', async () => {
    renderWithMock(<GeneratePanel projectId="proj_missing_2" />);
    const send = await screen.findByRole('button', { name: 'Send follow-up' });
    await waitFor(() => expect(send).toBeDisabled());
    expect(send).toHaveAccessibleDescription(
      'This project could not be found. It may have been removed; start a new one.',
    );
  });

  it('a follow-up refused because the project is gone: told once, and the change does not become a new app', async () => {
    let gone = false;
    const notFound = () => new AgentApiError('not_found', 'Project not found.', { status: 404 });
    const { user, generationPosts } = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
      </>,
      {
        wrapTransport: (inner) => ({
          json: (request) =>
            gone && request.path.startsWith('/agent/project/') ? Promise.reject(notFound()) : inner.json(request),
          stream: (request, handlers) =>
            gone && request.path.startsWith('/agent/generate/')
              ? Promise.reject(notFound())
              : inner.stream(request, handlers),
        }),
      },
    );
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'completed'));
    gone = true;
    await user.type(screen.getByLabelText('What should change?'), 'Make the header sticky please');
    await user.click(screen.getByRole('button', { name: 'Send follow-up' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'gone'));
    expect(screen.getAllByText(/It may have been removed/)).toHaveLength(1);
    // A new project's form, empty: the change has nowhere to go, and is not one click from becoming a new app.
    expect(screen.getByRole('form', { name: 'Create an app' })).toBeInTheDocument();
    expect(screen.getByLabelText('Describe the app you want')).toHaveValue('');
    // The refused follow-up never reached the mock (the wrapper refused it): the first build's POST is its only one.
    expect(generationPosts()).toHaveLength(1);
  });
});

describe('a project that is gone, in the builder', () => {
  it('is offered nowhere again, New project leads to the prompt box, and Publish says why nothing ships', async () => {
    const user = { id: 'grace', name: 'Grace Hopper', email: 'grace@example.com' };
    const before = renderWithMock(<GeneratePanel />, { provider: { externalUser: user } });
    await before.user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await before.user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(screen.getByRole('form')).toHaveAttribute('data-state', 'completed'));
    before.unmount();

    const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
    const after = renderWithMock(<AgentBuilder />, { mock: { api }, provider: { externalUser: user } });
    await createAgentClient({ transport: after.transport }).deployments.connect('vercel', {
      external_user_id: user.id,
      token: 'grace-studio:vercel-secret',
    });
    const builder = screen.getByRole('region', { name: 'App builder' });
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'gone'));
    const toolbar = within(builder).getByRole('toolbar');
    // One name for one project: the list's.
    expect(toolbar).toHaveTextContent('Untitled app');
    expect(toolbar).toHaveTextContent('Not found');

    await after.user.click(within(toolbar).getByRole('button', { name: 'Publish' }));
    const sheet = screen.getByRole('dialog', { name: 'Publish your app' });
    const deploy = within(sheet).getByRole('region', { name: 'Publish to the web' });
    await waitFor(() => expect(deploy).toHaveAttribute('data-state', 'connected'));
    expect(deploy).toHaveTextContent('This project could not be found. It may have been removed; start a new one.');
    expect(deploy).not.toHaveTextContent('Generate an app first');
    await after.user.keyboard('{Escape}');

    await after.user.click(within(toolbar).getByRole('button', { name: 'New project' }));
    await waitFor(() => expect(within(builder).getByLabelText('Describe the app you want')).toHaveFocus());
    // The server does not know it: neither the empty builder nor the Projects sheet offers it again.
    expect(within(builder).queryByText('Not found')).not.toBeInTheDocument();
    await after.user.click(within(toolbar).getByRole('button', { name: 'Projects' }));
    const projects = await screen.findByRole('dialog', { name: 'Projects' });
    await waitFor(() =>
      expect(projects).toHaveTextContent('Your projects will be listed here once you have built one.'),
    );
  });
});
