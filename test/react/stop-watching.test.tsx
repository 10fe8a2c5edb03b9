/**
 * The generation machine seen through the public React entry: a build the person stopped watching, that a
 * status poll then finds ready, is ready everywhere at once (the preview, Publish, DeployButton and
 * RepoPicker), and a second tab that follows a live build ends with its conversation turn done.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentBuilder,
  AgentProvider,
  AppPreview,
  Conversation,
  GeneratePanel,
  LiveBuildLog,
  ProjectList,
  ProjectStatus,
} from 'agent-embed';
import {
  AgentApiError,
  createAgentClient,
  createAgentStore,
  resourceSpecs,
  selectResource,
  type StreamHandlers,
} from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const prompt = 'A booking site for a yoga studio';

describe('Stop watching, then a poll finds the build ready', () => {
  it('the preview, Publish, DeployButton and RepoPicker all offer the project', { timeout: 20_000 }, async () => {
    const { user, transport } = renderWithMock(<AgentBuilder />, {
      provider: { externalUser: ada },
      store: { pollIntervalMs: 40, maxPollIntervalMs: 80 },
    });
    // Ada has a Vercel connection and the code-host app installed before she builds.
    const client = createAgentClient({ transport });
    await client.deployments.connect('vercel', { external_user_id: 'ada', token: 'ada-studio:vercel-secret' });
    const started = await client.codehost.startConnect({
      external_user_id: 'ada',
      external_user_name: ada.name,
      external_user_email: ada.email,
      return_url: 'http://localhost:3000/',
    });
    const state = new URL(started.redirect_url).searchParams.get('state')!;
    await transport.api.fetch(new Request(new URL(`/__mock/codehost/callback?state=${state}`, started.redirect_url)));
    // Each event waits a while: the build is still going when Ada stops watching, and goes on at the mock.
    transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 25 });

    const builder = screen.getByRole('region', { name: 'App builder' });
    await user.type(within(builder).getByLabelText('Describe the app you want'), prompt);
    await user.click(within(builder).getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'provisioning'));
    await user.click(within(builder).getByRole('button', { name: 'Stop watching' }));
    expect(builder).toHaveAttribute('data-phase', 'stopped');

    // The build ends at the mock; the next status poll says so, and the generation is completed.
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'ready'), { timeout: 15_000 });
    expect(builder).toHaveAttribute('data-state', 'completed');
    const project = transport.api.admin.projects()[0]!;
    expect(project.status).toBe('ready');
    expect(within(builder).getByTitle('Preview of the generated app')).toHaveAttribute(
      'src',
      expect.stringContaining(new URL(project.appUrl).host),
    );

    await user.click(within(builder).getByRole('button', { name: 'Publish' }));
    const sheet = screen.getByRole('dialog', { name: 'Publish your app' });
    const deploy = within(sheet).getByRole('region', { name: 'Publish to the web' });
    await waitFor(() => expect(deploy).toHaveAttribute('data-state', 'connected'));
    expect(deploy).not.toHaveTextContent('Generate an app first');
    expect(within(deploy).getByRole('button', { name: 'Deploy to Vercel' })).toBeEnabled();

    const repositories = within(sheet).getByRole('region', { name: 'Repository' });
    await within(repositories).findByRole('listbox', { name: 'Repositories' });
    expect(repositories).not.toHaveTextContent('Generate an app first');
    // With a repository chosen, linking it to this project is one click away.
    await user.click(within(repositories).getAllByRole('option')[0]!);
    expect(within(repositories).getByRole('button', { name: /^Use / })).toBeEnabled();
    await user.click(within(repositories).getByRole('button', { name: /^Use / }));
    await waitFor(() =>
      expect(
        transport.api.admin.requests.some(
          (request) => request.method === 'POST' && request.path.endsWith(`/codehost/project/${project.id}/link`),
        ),
      ).toBe(true),
    );
  });
});

describe('a second tab following a live build', () => {
  it('ends with the conversation turn done, not "Working on it…"', { timeout: 20_000 }, async () => {
    // Two tabs of one end user: two stores over one mock and the proxy in front of it.
    const transport = createMockTransport({ speed: 'instant', rateLimit: false, externalUser: ada });
    const storeOf = () =>
      createAgentStore({ client: createAgentClient({ transport }), storage: null, pollIntervalMs: 40 });
    const first = storeOf();
    const second = storeOf();
    transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 25 });
    const building = first.getState().generate({ prompt });
    await waitFor(() => expect(Object.values(first.getState().generations)[0]?.projectId).toBeDefined());

    const user = userEvent.setup();
    render(
      <AgentProvider store={second} externalUser={ada}>
        <ProjectList />
        <Conversation />
      </AgentProvider>,
    );
    // The second tab opens the project while it builds, and follows it through the events route.
    const list = screen.getByRole('region', { name: 'Your projects' });
    await waitFor(() => expect(selectResource(second.getState(), resourceSpecs.projects).data).toHaveLength(1));
    await user.click(within(list).getAllByRole('button')[0]!);
    const conversation = screen.getByRole('region', { name: 'Conversation' });
    await waitFor(() => expect(conversation).toHaveTextContent(prompt));
    expect(conversation).toHaveTextContent('Working on it…');

    const result = await building;
    expect(result.outcome).toBe('completed');
    await waitFor(() => expect(conversation).not.toHaveTextContent('Working on it…'), { timeout: 10_000 });
    // What the first tab saw live, the second tab says too.
    const shown = first.getState().conversations[result.projectId!]!.at(-1)!.outcome!;
    expect(conversation).toHaveTextContent(`Done: ${shown.filesCreated} new files, ${shown.steps} steps.`);
    first.destroy();
    second.destroy();
    transport.api.dispose();
  });
});

describe('Stop watching before the project is named', () => {
  it('says where the app may turn up, waits for nothing, and lets a new build start', async () => {
    const { user, transport, generationPosts } = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
        <AppPreview />
        <ProjectStatus />
      </>,
      { store: { pollIntervalMs: 40, maxPollIntervalMs: 80 } },
    );
    // The stream opens and says nothing: not even which project it builds.
    transport.api.admin.injectFault({ kind: 'pause_after', events: 0 });
    await user.type(screen.getByLabelText('Describe the app you want'), prompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await user.click(await screen.findByRole('button', { name: 'Stop watching' }));

    const log = screen.getByRole('region', { name: 'Build progress' });
    expect(log).toHaveTextContent('You stopped watching this build.');
    expect(log).toHaveTextContent('If the server builds it anyway, the app will be among your projects.');
    expect(log).not.toHaveTextContent('the result will show up here');
    const stage = screen.getByRole('region', { name: 'App preview' });
    expect(stage).toHaveTextContent('If the server builds it anyway, the app will be among your projects.');
    expect(stage.querySelector('.ae-spinner')).toBeNull();
    // Nothing holds the next prompt: there is no build here to wait for.
    await user.type(screen.getByLabelText('Describe the app you want'), 'A recipe box');
    expect(screen.getByRole('button', { name: 'Generate' })).toBeEnabled();
    expect(generationPosts()).toHaveLength(1);
  });
});

describe('a stopped build named late', () => {
  it('does not turn the new app the person is typing into that build’s follow-up', async () => {
    let held: StreamHandlers | undefined;
    const { user } = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
      </>,
      {
        wrapTransport: (inner) => ({
          // The late project's status: still building.
          json: (request) =>
            request.path === '/agent/project/proj_late_1'
              ? Promise.resolve({
                  status: true,
                  project_id: 'proj_late_1',
                  app_url: 'https://proj-late-1.example.test',
                  project_status: 'generating',
                  name: 'Late app',
                })
              : inner.json(request),
          // The first generate's stream opens and says nothing until the test names its project.
          stream: (request, handlers) =>
            held === undefined && request.path === '/agent/generate'
              ? new Promise<void>((_, reject) => {
                  held = handlers;
                  handlers.onOpen?.();
                  request.signal?.addEventListener('abort', () =>
                    reject(new AgentApiError('aborted', 'The request was cancelled.')),
                  );
                })
              : inner.stream(request, handlers),
        }),
      },
    );
    await user.type(screen.getByLabelText('Describe the app you want'), prompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await user.click(await screen.findByRole('button', { name: 'Stop watching' }));
    await user.type(screen.getByLabelText('Describe the app you want'), 'A recipe box for my family');
    act(() =>
      held!.onEvent({
        type: 'project_created',
        project_id: 'proj_late_1',
        app_url: 'https://proj-late-1.example.test',
      }),
    );
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Build progress' })).toHaveTextContent('the result will show up here'),
    );
    expect(screen.getByRole('form', { name: 'Create an app' })).toBeInTheDocument();
    expect(screen.getByLabelText('Describe the app you want')).toHaveValue('A recipe box for my family');
    expect(screen.getByRole('button', { name: 'Generate' })).toBeEnabled();
  });
});
