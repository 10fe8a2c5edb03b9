import { act, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentBuilder } from 'agent-embed';
import { cleanupRendered, renderWithMock, withoutProxyRoutes } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };

async function violations(container: HTMLElement) {
  // iframes: false keeps axe out of the generated app's document (not ours); the iframe element itself is still checked.
  const results = await axe.run(container, { iframes: false, rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
  );
}

describe('AgentBuilder, the one-line embed', () => {
  it('renders the preview-first layout with no props and is accessible before anything happens', async () => {
    const { container, user } = renderWithMock(<AgentBuilder />, { provider: { externalUser: ada } });
    const builder = screen.getByRole('region', { name: 'App builder' });
    expect(builder).toHaveAttribute('data-state', 'idle');
    expect(builder).toHaveAttribute('data-phase', 'idle');
    expect(within(builder).getByRole('toolbar', { name: 'Project' })).toHaveTextContent('New app');
    for (const name of ['Chat', 'Preview']) expect(within(builder).getByRole('group', { name })).toBeInTheDocument();
    expect(within(builder).getByRole('heading', { name: 'Create an app' })).toBeInTheDocument();
    for (const name of ['Conversation', 'App preview'])
      expect(within(builder).getByRole('region', { name })).toBeInTheDocument();
    // Nothing is built yet: no build log, no status pill, no "New project".
    expect(within(builder).queryByRole('region', { name: 'Build progress' })).not.toBeInTheDocument();
    expect(within(builder).queryByRole('button', { name: 'New project' })).not.toBeInTheDocument();
    expect(within(builder).queryByRole('button', { name: 'Plans' })).not.toBeInTheDocument();
    expect(await violations(container)).toEqual([]);

    // Deploy, code host and repository wait in one sheet.
    await user.click(within(builder).getByRole('button', { name: 'Publish' }));
    const sheet = screen.getByRole('dialog', { name: 'Publish your app' });
    for (const name of ['Publish to the web', 'Save the code to GitHub', 'Repository'])
      expect(within(sheet).getByRole('region', { name })).toBeInTheDocument();
    await waitFor(() =>
      expect(within(sheet).getByRole('region', { name: 'Save the code to GitHub' })).toHaveAttribute(
        'data-state',
        'missing',
      ),
    );
    await within(sheet).findByRole('button', { name: 'Connect Vercel' });
    // One primary action in the sheet: deploying; connecting the code host is the second path.
    expect([...sheet.querySelectorAll('.ae-button-primary')].map((button) => button.textContent)).toEqual([
      'Connect Vercel',
    ]);
    expect(within(sheet).getByRole('button', { name: 'Connect GitHub' })).not.toHaveClass('ae-button-primary');
  });

  it(
    'the whole flow: generate, preview, conversation, deploy with a new token, connect the code host, link and push',
    { timeout: 20_000 },
    async () => {
      const navigate = vi.fn<(url: string) => void>();
      const { user, transport, container, generationPosts } = renderWithMock(
        <AgentBuilder provider="netlify" codehost={{ navigate }} repositoriesPerPage={5} showPlans />,
        {
          provider: { externalUser: ada },
        },
      );
      const builder = screen.getByRole('region', { name: 'App builder' });
      await user.type(within(builder).getByLabelText('Describe the app you want'), 'A booking site for a yoga studio');
      await user.click(within(builder).getByRole('button', { name: 'Generate' }));
      await waitFor(() => expect(builder).toHaveAttribute('data-state', 'completed'));
      expect(builder).toHaveAttribute('data-phase', 'ready');
      expect(generationPosts()).toHaveLength(1);
      expect(within(builder).getByTitle('Preview of the generated app')).toBeInTheDocument();
      // The conversation keeps the prompt and its outcome; the toolbar names the project.
      const conversation = within(builder).getByRole('region', { name: 'Conversation' });
      expect(conversation).toHaveTextContent('A booking site for a yoga studio');
      expect(conversation).toHaveTextContent(/Done: \d+ new files, \d+ steps\./);
      const project = transport.api.admin.projects()[0]!;
      await waitFor(() => expect(within(builder).getByRole('toolbar')).toHaveTextContent(project.name));

      await user.click(within(builder).getByRole('button', { name: 'Publish' }));
      const sheet = screen.getByRole('dialog', { name: 'Publish your app' });
      const deploy = within(sheet).getByRole('region', { name: 'Publish to the web' });
      await waitFor(() => expect(deploy).toHaveAttribute('data-state', 'missing'));
      // One filled action at a time, the next step's: deploy, then connect GitHub, then the repository.
      const primaries = () =>
        [...sheet.querySelectorAll<HTMLElement>('.ae-button-primary')]
          .filter((button) => button.closest('dialog') === sheet)
          .map((button) => button.textContent);
      expect(primaries()).toEqual(['Connect Netlify']);
      await user.click(within(deploy).getByRole('button', { name: 'Connect Netlify' }));
      const dialog = screen.getByRole('dialog', { name: 'Connect Netlify' });
      await user.type(within(dialog).getByLabelText('Netlify access token'), 'ada-studio:netlify-secret');
      await user.click(within(dialog).getByRole('button', { name: 'Connect' }));
      await user.click(await within(deploy).findByRole('button', { name: 'Deploy to Netlify' }));
      await waitFor(() => expect(deploy).toHaveAttribute('data-state', 'deployed'));
      expect(
        within(deploy)
          .getByRole('link', { name: /^Open the deployment/ })
          .getAttribute('href'),
      ).toMatch(/^https:\/\/.+\.netlify\.mock\.agent-embed\.test\/$/);
      expect(document.body.innerHTML).not.toContain('netlify-secret');

      const codehost = within(sheet).getByRole('region', { name: 'Save the code to GitHub' });
      const repositories = within(sheet).getByRole('region', { name: 'Repository' });
      await waitFor(() => expect(repositories).toHaveAttribute('data-state', 'not_connected'));
      await waitFor(() => expect(primaries()).toEqual(['Connect GitHub']));
      await user.click(within(codehost).getByRole('button', { name: 'Connect GitHub' }));
      await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
      const installUrl = navigate.mock.calls[0]![0];
      const callback = await transport.api.fetch(
        new Request(
          new URL(`/__mock/codehost/callback?state=${new URL(installUrl).searchParams.get('state')}`, installUrl),
          { method: 'POST' },
        ),
      );
      expect(callback.headers.get('location')).toBe(window.location.href);
      act(() => {
        window.dispatchEvent(new Event('focus'));
      });
      await waitFor(() => expect(codehost).toHaveAttribute('data-state', 'connected'));
      await waitFor(() => expect(repositories).toHaveAttribute('data-state', 'ready'));

      await user.click(within(repositories).getAllByRole('option')[1]!);
      const linkedName = within(repositories).getAllByRole('option')[1]!.querySelector('.ae-repo-name')!.textContent!;
      await waitFor(() => expect(primaries()).toEqual([`Use ${linkedName}`]));
      await user.click(within(repositories).getByRole('button', { name: /^Use / }));
      await waitFor(() => expect(repositories).toHaveAttribute('data-link', 'success'));
      expect(repositories).toHaveTextContent(`Your code goes to ${linkedName}`);
      expect(primaries()).toEqual([`Save the code to ${linkedName}`]);
      await user.type(within(repositories).getByLabelText('New repository name'), 'yoga-studio-site');
      await user.click(within(repositories).getByRole('button', { name: 'Create and save' }));
      await waitFor(() => expect(repositories).toHaveAttribute('data-push', 'success'));
      expect(repositories).toHaveTextContent('Created ada-lovelace/yoga-studio-site and saved your code');
      // The linked repository keeps its box and its action (no "Use" again), and a save there is told in it.
      expect(repositories).toHaveTextContent(`Your code goes to ${linkedName}`);
      expect(primaries()).toEqual([`Save the code to ${linkedName}`]);
      await user.click(within(repositories).getByRole('button', { name: `Save the code to ${linkedName}` }));
      await waitFor(() => expect(repositories).toHaveTextContent(`Saved your code to ${linkedName}`));
      expect(primaries()).toEqual([`Save the code to ${linkedName}`]);
      expect(await violations(container)).toEqual([]);

      await user.click(within(sheet).getByRole('button', { name: 'Close' }));
      await user.click(within(builder).getByRole('button', { name: 'Plans' }));
      const plans = within(screen.getByRole('dialog', { name: 'Plans' })).getByRole('region', { name: 'Plans' });
      await waitFor(() => expect(plans).toHaveAttribute('data-state', 'success'));

      // "New project" clears the stage; the old conversation stays with its project.
      await user.click(screen.getByRole('button', { name: 'Close' }));
      await user.click(within(builder).getByRole('button', { name: 'New project' }));
      expect(builder).toHaveAttribute('data-phase', 'idle');
      expect(within(builder).getByRole('heading', { name: 'Create an app' })).toBeInTheDocument();
      expect(within(builder).getByRole('region', { name: 'Conversation' })).toHaveAttribute('data-state', 'empty');
      expect(within(builder).queryByTitle('Preview of the generated app')).not.toBeInTheDocument();
    },
  );
});

describe('AgentBuilder: each failure told once, with its next step', () => {
  const creditsWords = /run out of credits|credits ran out/i;
  /** Where the builder tells that credits ran out, on screen (not the screen-reader announcement of the log). */
  const creditsTold = (builder: HTMLElement) =>
    within(builder)
      .queryAllByText(creditsWords)
      .filter((element) => element.closest('.ae-visually-hidden') === null);

  it('credits refused before a build: once, in the prompt box, and "Buy credits" opens the plans', async () => {
    const onSelectPlan = vi.fn();
    const { user, transport } = renderWithMock(<AgentBuilder showPlans onSelectPlan={onSelectPlan} />, {
      provider: { externalUser: ada },
    });
    transport.api.admin.setCredits(0);
    const builder = screen.getByRole('region', { name: 'App builder' });
    await user.type(within(builder).getByLabelText('Describe the app you want'), 'A booking site for a yoga studio');
    await user.click(within(builder).getByRole('button', { name: 'Generate' }));
    const alert = await within(builder).findByRole('alert');
    expect(alert).toHaveTextContent('You have run out of credits. Buy more credits to continue.');
    // Nothing was built: no project name or pill, no build log, a neutral stage; the sentence reads once.
    expect(builder).toHaveAttribute('data-phase', 'idle');
    expect(within(builder).getByRole('toolbar')).toHaveTextContent('New app');
    expect(within(builder).queryByText('Out of credits')).not.toBeInTheDocument();
    expect(within(builder).queryByRole('region', { name: 'Build progress' })).not.toBeInTheDocument();
    expect(within(builder).queryByRole('button', { name: 'New project' })).not.toBeInTheDocument();
    expect(creditsTold(builder)).toHaveLength(1);
    await user.click(within(alert).getByRole('button', { name: 'Buy credits' }));
    const plans = within(screen.getByRole('dialog', { name: 'Plans' })).getByRole('region', { name: 'Plans' });
    await waitFor(() => expect(plans).toHaveAttribute('data-state', 'success'));
    // Choosing a plan is the agency's checkout; the sheet gets out of the way.
    await user.click(within(plans).getByRole('button', { name: 'Choose Pro' }));
    expect(onSelectPlan).toHaveBeenCalledWith(expect.objectContaining({ name: 'Pro' }));
    expect(screen.queryByRole('dialog', { name: 'Plans' })).not.toBeInTheDocument();
  });

  it('credits running out during a build: once, in the build log, which opens for it though it had folded', async () => {
    const onBuyCredits = vi.fn();
    const { user, transport } = renderWithMock(<AgentBuilder onBuyCredits={onBuyCredits} />, {
      provider: { externalUser: ada },
    });
    const builder = screen.getByRole('region', { name: 'App builder' });
    await user.type(within(builder).getByLabelText('Describe the app you want'), 'A booking site for a yoga studio');
    await user.click(within(builder).getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'ready'));
    // The app is ready: its build details have folded away by themselves.
    expect(within(builder).getByRole('button', { name: 'Show build details' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    transport.api.admin.setCredits(1);
    await user.type(within(builder).getByLabelText('What should change?'), 'Add a page with the class timetable');
    await user.click(within(builder).getByRole('button', { name: 'Send follow-up' }));
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'credits_exhausted'));
    const log = within(builder).getByRole('region', { name: 'Build progress' });
    expect(log.querySelector('.ae-outcome[data-phase="credits_exhausted"]')).toHaveTextContent('Your credits ran out.');
    // The conversation keeps the prompts; the preview keeps the app built before: neither says it a second time.
    const conversation = within(builder).getByRole('region', { name: 'Conversation' });
    expect(conversation).toHaveTextContent('Add a page with the class timetable');
    const preview = within(builder).getByRole('region', { name: 'App preview' });
    expect(within(preview).getByTitle('Preview of the generated app')).toBeInTheDocument();
    expect(preview).not.toHaveTextContent(/credits/i);
    expect(within(builder).getByRole('toolbar')).toHaveTextContent('Out of credits');
    expect(creditsTold(builder)).toHaveLength(1);
    await user.click(within(log).getByRole('button', { name: 'Buy credits' }));
    expect(onBuyCredits).toHaveBeenCalledTimes(1);
    // Closed again, the log lets go of it and the conversation's turn says how the build ended.
    await user.click(within(builder).getByRole('button', { name: 'Hide build details' }));
    expect(conversation).toHaveTextContent('Stopped when the credits ran out, after 1 changed file.');
    expect(creditsTold(builder)).toHaveLength(1);
  });
  it('a failed change: the badge says the last change failed, the app from before stays on stage', async () => {
    const { user, transport } = renderWithMock(<AgentBuilder />, { provider: { externalUser: ada } });
    const builder = screen.getByRole('region', { name: 'App builder' });
    await user.type(within(builder).getByLabelText('Describe the app you want'), 'A booking site for a yoga studio');
    await user.click(within(builder).getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'ready'));
    transport.api.admin.injectFault({ kind: 'error_event', afterEvents: 1 });
    await user.type(within(builder).getByLabelText('What should change?'), 'Add a page with the class timetable');
    await user.click(within(builder).getByRole('button', { name: 'Send follow-up' }));
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'failed'));
    expect(within(builder).getByRole('toolbar')).toHaveTextContent('Last change failed');
    expect(within(builder).getByTitle('Preview of the generated app')).toBeInTheDocument();
  });

  it('a returning end user is offered their latest projects in the empty builder, and one click reopens one', async () => {
    const { user } = renderWithMock(<AgentBuilder />, { provider: { externalUser: ada } });
    const builder = screen.getByRole('region', { name: 'App builder' });
    // A first visit: nothing to continue, nothing shown.
    expect(within(builder).queryByRole('region', { name: 'Continue a project' })).not.toBeInTheDocument();
    await user.type(within(builder).getByLabelText('Describe the app you want'), 'A booking site for a yoga studio');
    await user.click(within(builder).getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'ready'));
    // The project's name comes with its status, which publishes with the next frame.
    const nameElement = within(builder).getByRole('toolbar').querySelector('.ae-builder-name');
    await waitFor(() => expect(nameElement).not.toHaveTextContent('Untitled app'));
    const name = nameElement?.textContent;
    await user.click(within(builder).getByRole('button', { name: 'New project' }));
    const recent = await within(builder).findByRole('region', { name: 'Continue a project' });
    await user.click(within(recent).getByRole('button', { name: new RegExp(name ?? 'no name') }));
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'ready'));
    expect(within(builder).getByRole('toolbar')).toHaveTextContent(name ?? 'no name');
    expect(within(builder).getByLabelText('What should change?')).toBeInTheDocument();
    expect(within(builder).queryByRole('region', { name: 'Continue a project' })).not.toBeInTheDocument();
  });

  it('offers nothing to continue where the proxy cannot list projects, as the Projects sheet says', async () => {
    const { user } = renderWithMock(<AgentBuilder />, {
      provider: { externalUser: ada },
      store: { storage: null },
      wrapTransport: withoutProxyRoutes,
    });
    const builder = screen.getByRole('region', { name: 'App builder' });
    await user.type(within(builder).getByLabelText('Describe the app you want'), 'A booking site for a yoga studio');
    await user.click(within(builder).getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'ready'));
    await user.click(within(builder).getByRole('button', { name: 'New project' }));
    await user.click(within(builder).getByRole('button', { name: 'Projects' }));
    const list = await screen.findByRole('region', { name: 'Your projects' });
    await waitFor(() => expect(list).toHaveAttribute('data-state', 'unavailable'));
    expect(within(builder).queryByRole('region', { name: 'Continue a project' })).not.toBeInTheDocument();
  });

  it('a dropped stream: the prompt is one turn of the conversation, not one stuck and one done', async () => {
    const { user, transport, generationPosts } = renderWithMock(<AgentBuilder />, {
      provider: { externalUser: ada },
      store: { pollIntervalMs: 20, maxPollIntervalMs: 40, storage: null },
    });
    transport.api.admin.injectFault({ kind: 'drop_after', events: 4 });
    const builder = screen.getByRole('region', { name: 'App builder' });
    await user.type(within(builder).getByLabelText('Describe the app you want'), 'A booking site for a yoga studio');
    await user.click(within(builder).getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'ready'));
    const conversation = within(builder).getByRole('region', { name: 'Conversation' });
    await waitFor(() => expect(within(conversation).getAllByRole('listitem')).toHaveLength(1));
    expect(conversation).not.toHaveTextContent('Working on it…');
    expect(within(builder).queryByRole('alert')).not.toBeInTheDocument();
    expect(generationPosts()).toHaveLength(1);
  });
});
