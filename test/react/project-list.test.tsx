import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentBuilder, GeneratePanel, ProjectList, ProjectStatus } from 'agent-embed';
import type { AgentTransport } from 'agent-embed/core';
import { cleanupRendered, renderWithMock, withoutProxyRoutes } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };

describe("ProjectList and the builder's project switcher", () => {
  it('lists the projects built here and opens one as the current project, ready for a follow-up', async () => {
    const { user, transport, generationPosts } = renderWithMock(<AgentBuilder />, { provider: { externalUser: ada } });
    const builder = screen.getByRole('region', { name: 'App builder' });
    await user.type(within(builder).getByLabelText('Describe the app you want'), 'A booking site for a yoga studio');
    await user.click(within(builder).getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'ready'));
    const project = transport.api.admin.projects()[0]!;
    await user.click(within(builder).getByRole('button', { name: 'New project' }));
    expect(builder).toHaveAttribute('data-phase', 'idle');

    await user.click(within(builder).getByRole('button', { name: 'Projects' }));
    const list = screen.getByRole('region', { name: 'Your projects' });
    await waitFor(() => expect(list).toHaveAttribute('data-state', 'success'));
    const item = within(list).getByRole('button', { name: new RegExp(project.name) });
    await user.click(item);
    // The sheet closes; the stage shows the project again: its preview, its conversation, a follow-up box.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Your projects' })).not.toBeInTheDocument());
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'ready'));
    expect(within(builder).getByTitle('Preview of the generated app')).toBeInTheDocument();
    expect(within(builder).getByRole('region', { name: 'Conversation' })).toHaveTextContent(
      'A booking site for a yoga studio',
    );
    expect(within(builder).getByRole('heading', { name: 'Refine your app' })).toBeInTheDocument();
    expect(generationPosts()).toHaveLength(1);
  });

  it('says so, without an error, where there is no proxy to list projects', async () => {
    renderWithMock(<ProjectList />, { provider: { externalUser: ada }, wrapTransport: withoutProxyRoutes });
    const list = screen.getByRole('region', { name: 'Your projects' });
    await waitFor(() => expect(list).toHaveAttribute('data-state', 'unavailable'));
    expect(list).toHaveTextContent('Your earlier projects cannot be listed here.');
    expect(within(list).queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('a project list row and the project\u2019s own view', () => {
  /** The prompt box, the status and the list side by side, for Ada. */
  function renderSideBySide() {
    return renderSideBySideWith(undefined);
  }

  function renderSideBySideWith(wrapTransport: ((transport: AgentTransport) => AgentTransport) | undefined) {
    const rendered = renderWithMock(
      <>
        <GeneratePanel />
        <ProjectStatus />
        <ProjectList />
      </>,
      // A store of its own, with nothing saved for a later page to resume: a build left held here stays here.
      { provider: { externalUser: ada }, store: {}, ...(wrapTransport === undefined ? {} : { wrapTransport }) },
    );
    const list = screen.getByRole('region', { name: 'Your projects' });
    const status = screen.getByRole('region', { name: 'Project status' });
    const rows = () => within(list).queryAllByRole('button');
    return { ...rendered, list, status, rows };
  }

  it('list a build started after the list was loaded, in the words of the status', async () => {
    const { user, transport, list, status, rows } = renderSideBySide();
    await waitFor(() => expect(list).toHaveAttribute('data-state', 'success'));
    expect(rows()).toHaveLength(0);
    // Held after its first events: the project is named, its container is being set up.
    transport.api.admin.injectFault({ kind: 'pause_after', events: 2 });
    await user.type(screen.getByLabelText('Describe the app you want'), 'A habit tracker with streaks');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(status).toHaveAttribute('data-phase', 'provisioning'));
    // The list was loaded before the build: the build's project is on it all the same, as the status tells it.
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent('Setting up');
  });

  it('say the same after a build, and during a follow-up of it', async () => {
    const { user, transport, status, rows } = renderSideBySide();
    await user.type(screen.getByLabelText('Describe the app you want'), 'A habit tracker with streaks');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(status).toHaveAttribute('data-phase', 'ready'));
    const name = transport.api.admin.projects()[0]!.name;
    await waitFor(() => expect(status).toHaveTextContent(name));
    await waitFor(() => expect(rows()[0]).toHaveTextContent(name));
    expect(rows()[0]).toHaveTextContent('Ready');
    expect(rows()).toHaveLength(1);

    transport.api.admin.injectFault({ kind: 'pause_after', events: 2, route: 'followUp' });
    await user.type(screen.getByRole('textbox'), 'Add a dark mode toggle please');
    await user.click(screen.getByRole('button', { name: 'Send follow-up' }));
    await waitFor(() => expect(status).toHaveAttribute('data-phase', 'generating'));
    expect(within(status).getByText('Building')).toBeInTheDocument();
    expect(rows()[0]).toHaveTextContent('Building');
    expect(rows()[0]).toHaveTextContent(name);
  });

  it('list a project built on the server though its stream failed on the way here, once that build has ended', async () => {
    // The page's link fails before the first event; the proxy and the API build the project all the same.
    const dropLink = (inner: AgentTransport): AgentTransport => ({
      json: (request) => inner.json(request),
      async stream(request, handlers) {
        if (request.method !== 'POST') return inner.stream(request, handlers);
        const { signal: _ignored, ...sent } = request;
        await inner.stream(sent, { onEvent: () => {} });
        throw new TypeError('Failed to fetch');
      },
    });
    const { user, list, rows } = renderSideBySideWith(dropLink);
    await waitFor(() => expect(list).toHaveAttribute('data-state', 'success'));
    await user.type(screen.getByLabelText('Describe the app you want'), 'A habit tracker with streaks');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent('Ready');
  });
});
