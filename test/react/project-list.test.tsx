import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentBuilder, ProjectList } from 'agent-embed';
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
