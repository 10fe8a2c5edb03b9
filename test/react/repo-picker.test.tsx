import { act, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CodehostConnect, RepoPicker, type ExternalUser, type RepoPickerProps } from 'agent-embed';
import { agentApiMessages, createAgentClient, type AgentTransport, type TransportRequest } from 'agent-embed/core';
import { createMockAgentApi, createMockTransport, type MockTransportOptions } from 'agent-embed/mock';
import { cleanupRendered, renderWithMock, type RenderWithMockOptions } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada: ExternalUser = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const prompt = 'A portfolio site for a ceramic artist';

async function violations(container: HTMLElement) {
  const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
  );
}

/** A mock where Ada has installed the code-host app (and, optionally, a project exists). */
async function connectedMock(options: MockTransportOptions = {}, withProject = true) {
  const api = createMockAgentApi({ speed: 'instant', rateLimit: false, ...options });
  const transport = createMockTransport({ api, externalUser: ada });
  const client = createAgentClient({ transport });
  const started = await client.codehost.startConnect({
    external_user_id: 'ada',
    external_user_name: 'Ada Lovelace',
    external_user_email: 'ada@example.com',
    return_url: 'http://localhost:3000/',
  });
  const state = new URL(started.redirect_url).searchParams.get('state')!;
  expect(
    (await api.fetch(new Request(new URL(`/__mock/codehost/callback?state=${state}`, started.redirect_url)))).status,
  ).toBe(302);
  const projectId = withProject ? (await client.generate({ prompt })).projectId : undefined;
  return { api, client, projectId };
}

function renderPicker(props: RepoPickerProps, options: RenderWithMockOptions = {}) {
  const sent: TransportRequest[] = [];
  const rendered = renderWithMock(<RepoPicker {...props} />, {
    ...options,
    provider: { externalUser: ada, ...options.provider },
    wrapTransport: (inner) => {
      const wrapped: AgentTransport = options.wrapTransport?.(inner) ?? inner;
      return {
        json: (request) => {
          sent.push(request);
          return wrapped.json(request);
        },
        stream: wrapped.stream,
      };
    },
  });
  const region = () => screen.getByRole('region', { name: 'Repository' });
  const listbox = () => within(region()).getByRole('listbox', { name: 'Repositories' });
  const options_ = () => within(listbox()).getAllByRole('option');
  const listQueries = () =>
    sent.filter((request) => request.path.endsWith('/repositories')).map((request) => request.query);
  return { ...rendered, sent, region, listbox, options: options_, listQueries };
}

function names(options: HTMLElement[]): string[] {
  return options.map((option) => option.querySelector('.ae-repo-name')!.textContent ?? '');
}

describe('RepoPicker pages', () => {
  it('a known total: page 1 of 3, next and previous within bounds, each page asked for once', async () => {
    const { api, projectId } = await connectedMock();
    const { user, region, options, listQueries } = renderPicker(
      { projectId: projectId!, perPage: 20 },
      { mock: { api } },
    );
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    expect(options()).toHaveLength(20);
    expect(region()).toHaveTextContent('Page 1 of 3 · 47 repositories');
    const previous = within(region()).getByRole('button', { name: 'Previous page' });
    const next = within(region()).getByRole('button', { name: 'Next page' });
    expect(previous).toBeDisabled();
    const firstPage = names(options());

    await user.click(next);
    await waitFor(() => expect(region()).toHaveTextContent('Page 2 of 3 · 47 repositories'));
    await waitFor(() => expect(names(options())).not.toEqual(firstPage));
    expect(previous).toBeEnabled();
    await user.click(next);
    await waitFor(() => expect(region()).toHaveTextContent('Page 3 of 3'));
    await waitFor(() => expect(options()).toHaveLength(7));
    expect(next).toBeDisabled();
    await user.click(previous);
    await user.click(previous);
    await waitFor(() => expect(names(options())).toEqual(firstPage));
    expect(previous).toBeDisabled();
    expect(listQueries()).toEqual([
      { page: 1, per_page: 20 },
      { page: 2, per_page: 20 },
      { page: 3, per_page: 20 },
      { page: 2, per_page: 20 },
      { page: 1, per_page: 20 },
    ]);
  });

  it('per_page is kept within 1 to 100 and page never goes below 1', async () => {
    const { api } = await connectedMock({}, false);
    const big = renderPicker({ perPage: 500 }, { mock: { api } });
    await waitFor(() => expect(big.region()).toHaveAttribute('data-state', 'ready'));
    expect(big.options()).toHaveLength(47);
    expect(big.region()).toHaveTextContent('Page 1 of 1 · 47 repositories');
    expect(within(big.region()).getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(big.listQueries()).toEqual([{ page: 1, per_page: 100 }]);
    cleanupRendered();

    const tiny = renderPicker({ perPage: 0 }, { mock: { api } });
    await waitFor(() => expect(tiny.region()).toHaveAttribute('data-state', 'ready'));
    expect(tiny.options()).toHaveLength(1);
    expect(tiny.region()).toHaveTextContent('Page 1 of 47 · 47 repositories');
    expect(tiny.listQueries()).toEqual([{ page: 1, per_page: 1 }]);
    expect(within(tiny.region()).getByRole('button', { name: 'Previous page' })).toBeDisabled();
  });

  it('a null total_count: "Load more" until a page comes back short', async () => {
    const { api } = await connectedMock({ scenario: { repositoryTotalCountUnknown: true } }, false);
    const { user, region, options, listQueries } = renderPicker({ perPage: 20 }, { mock: { api } });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    expect(region()).toHaveTextContent('20 repositories loaded');
    expect(within(region()).queryByRole('button', { name: 'Next page' })).not.toBeInTheDocument();
    await user.click(within(region()).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(options()).toHaveLength(40));
    await user.click(within(region()).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(options()).toHaveLength(47));
    expect(region()).toHaveTextContent('47 repositories loaded');
    expect(within(region()).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(listQueries()).toEqual([
      { page: 1, per_page: 20 },
      { page: 2, per_page: 20 },
      { page: 3, per_page: 20 },
    ]);
  });

  it('no repositories: said so, no listbox', async () => {
    const { api } = await connectedMock({ scenario: { repositoryCount: 0 } }, false);
    const { region } = renderPicker({}, { mock: { api } });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'empty'));
    expect(region()).toHaveTextContent('No repositories yet.');
    expect(within(region()).queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('search covers every loaded page', async () => {
    const { api } = await connectedMock({}, false);
    const { user, region, options } = renderPicker({ perPage: 20 }, { mock: { api } });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    const pageOne = names(options());
    await user.click(within(region()).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(region()).toHaveTextContent('Page 2 of 3'));
    const pageTwo = names(options());
    // A word that appears on both loaded pages.
    const word = pageOne
      .map((name) => name.split('/')[1]!.split('-')[0]!)
      .find((prefix) => pageTwo.some((name) => name.split('/')[1]!.startsWith(`${prefix}-`)))!;
    expect(word).toBeDefined();
    await user.type(within(region()).getByLabelText('Search repositories'), word);
    const matches = names(options());
    expect(matches.length).toBeGreaterThan(1);
    expect(matches.every((name) => name.includes(word))).toBe(true);
    expect(matches.some((name) => pageOne.includes(name))).toBe(true);
    expect(matches.some((name) => pageTwo.includes(name))).toBe(true);
    // It says what it searched, and offers the page it has not loaded yet.
    expect(region()).toHaveTextContent(
      `${matches.length} of 40 loaded repositories match. Searching the 40 of 47 repositories loaded so far.`,
    );
    expect(within(region()).getByRole('button', { name: 'Load more to search' })).toBeEnabled();
    await user.clear(within(region()).getByLabelText('Search repositories'));
    await user.type(within(region()).getByLabelText('Search repositories'), 'zzz-nothing');
    expect(region()).toHaveTextContent('No loaded repository matches “zzz-nothing”.');
    expect(within(region()).queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('shows private or public and the default branch of each repository', async () => {
    const { api } = await connectedMock({}, false);
    const { region, options, transport } = renderPicker({ perPage: 10 }, { mock: { api } });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    const listed = (await createAgentClient({ transport }).codehost.listRepositories('ada', { page: 1, per_page: 10 }))
      .items;
    options().forEach((option, index) => {
      const repository = listed[index]!;
      expect(option).toHaveTextContent(repository.full_name);
      expect(option).toHaveTextContent(
        repository.private === true || repository.private === 'true' ? 'Private' : 'Public',
      );
      expect(option).toHaveTextContent(repository.default_branch);
    });
    expect(options().some((option) => option.textContent?.includes('Private'))).toBe(true);
    expect(options().some((option) => option.textContent?.includes('Public'))).toBe(true);
    expect(options().some((option) => option.textContent?.endsWith('master'))).toBe(true);
  });
});

describe('RepoPicker keyboard listbox', () => {
  it('arrow keys, Home/End, type-ahead and Enter, with aria-activedescendant', async () => {
    const { api } = await connectedMock({}, false);
    const { user, region, listbox, options } = renderPicker({ perPage: 10 }, { mock: { api } });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    const all = options();
    const active = () => listbox().getAttribute('aria-activedescendant');

    await user.click(within(region()).getByLabelText('Search repositories'));
    await user.keyboard('{ArrowDown}');
    expect(listbox()).toHaveFocus();
    expect(active()).toBe(all[0]!.id);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(active()).toBe(all[2]!.id);
    await user.keyboard('{ArrowUp}');
    expect(active()).toBe(all[1]!.id);
    await user.keyboard('{End}');
    expect(active()).toBe(all[9]!.id);
    await user.keyboard('{ArrowDown}');
    expect(active()).toBe(all[9]!.id);
    await user.keyboard('{Home}');
    expect(active()).toBe(all[0]!.id);
    await user.keyboard('{ArrowUp}');
    expect(active()).toBe(all[0]!.id);

    // Type-ahead: the first repository after the active one whose name starts with the typed letters.
    const repositoryNames = names(all).map((fullName) => fullName.split('/')[1]!);
    const targetIndex = repositoryNames.findIndex(
      (name, index) => index > 0 && repositoryNames.indexOf(name) === index,
    );
    const target = repositoryNames[targetIndex]!;
    const prefix = target.slice(0, 3);
    const expected = repositoryNames.findIndex((name, index) => index > 0 && name.startsWith(prefix));
    await user.keyboard(prefix);
    expect(active()).toBe(all[expected]!.id);

    expect(all[expected]).toHaveAttribute('aria-selected', 'false');
    await user.keyboard('{Enter}');
    expect(options()[expected]).toHaveAttribute('aria-selected', 'true');
    expect(within(region()).getByRole('button', { name: `Use ${names(all)[expected]}` })).toBeInTheDocument();
    expect(options().filter((option) => option.getAttribute('aria-selected') === 'true')).toHaveLength(1);
  });
});

describe('RepoPicker link and push', () => {
  async function pick(rendered: ReturnType<typeof renderPicker>, index = 0): Promise<string> {
    await waitFor(() => expect(rendered.region()).toHaveAttribute('data-state', 'ready'));
    const option = rendered.options()[index]!;
    await rendered.user.click(option);
    return names([option])[0]!;
  }

  it('links the chosen repository and shows the Link result; pushes to it, to an existing name and to a new one', async () => {
    const { api, projectId } = await connectedMock();
    const onLinked = vi.fn();
    const onPushed = vi.fn();
    const rendered = renderPicker({ projectId: projectId!, perPage: 10, onLinked, onPushed }, { mock: { api } });
    const { user, region } = rendered;
    const fullName = await pick(rendered, 2);
    await user.click(within(region()).getByRole('button', { name: `Use ${fullName}` }));
    await waitFor(() => expect(region()).toHaveAttribute('data-link', 'success'));
    const linked = within(region()).getByText(`Your code goes to ${fullName}`).closest('.ae-outcome') as HTMLElement;
    expect(linked).toHaveTextContent(/Branch (main|master)/);
    // Linked: the one next step is the push, and the link button has done its job.
    expect(within(region()).queryByRole('button', { name: `Use ${fullName}` })).not.toBeInTheDocument();
    expect(within(linked).getByRole('link', { name: `codehost.agent-embed.test/${fullName}` })).toHaveAttribute(
      'href',
      `https://codehost.agent-embed.test/${fullName}`,
    );
    expect(onLinked).toHaveBeenCalledWith(
      expect.objectContaining({ project_id: projectId, codehost_login: 'ada-lovelace' }),
    );

    await user.click(within(region()).getByRole('button', { name: `Save the code to ${fullName}` }));
    await waitFor(() => expect(region()).toHaveAttribute('data-push', 'success'));
    expect(region()).toHaveTextContent(`Saved your code to ${fullName}`);
    // The push is the latest news: the link result is not repeated under it.
    expect(within(region()).queryByText(`Your code goes to ${fullName}`)).not.toBeInTheDocument();

    await user.type(within(region()).getByLabelText('New repository name'), fullName.split('/')[1]!);
    await user.click(within(region()).getByRole('button', { name: 'Create and save' }));
    await waitFor(() => expect(onPushed).toHaveBeenCalledTimes(2));
    expect(region()).toHaveTextContent(`Saved your code to ${fullName}`);

    await user.clear(within(region()).getByLabelText('New repository name'));
    await user.type(within(region()).getByLabelText('New repository name'), 'fresh-launch-site');
    await user.click(within(region()).getByRole('button', { name: 'Create and save' }));
    await waitFor(() => expect(onPushed).toHaveBeenCalledTimes(3));
    const pushed = within(region())
      .getByText('Created ada-lovelace/fresh-launch-site and saved your code')
      .closest('.ae-outcome') as HTMLElement;
    expect(pushed).toHaveAttribute('data-created', 'true');
    expect(pushed).toHaveTextContent('Branch main');
    expect(
      within(pushed).getByRole('link', { name: 'codehost.agent-embed.test/ada-lovelace/fresh-launch-site' }),
    ).toHaveAttribute('href', 'https://codehost.agent-embed.test/ada-lovelace/fresh-launch-site');
    expect(onPushed.mock.calls[2]?.[0]).toMatchObject({ repo_created: true });
    // The list starts over and now holds the new repository.
    await waitFor(() => expect(region()).toHaveTextContent('48 repositories'));
  });

  it('push to a new repository needs a name; owner/name picks another owner', async () => {
    const { api, projectId } = await connectedMock();
    const rendered = renderPicker({ projectId: projectId!, perPage: 5 }, { mock: { api } });
    const { user, region, sent } = rendered;
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    await user.click(within(region()).getByRole('button', { name: 'Create and save' }));
    const name = within(region()).getByLabelText('New repository name');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription(/Enter a repository name\./);
    expect(sent.some((request) => request.path.endsWith('/push'))).toBe(false);
    await user.type(name, 'acme-org/client-site');
    await user.click(within(region()).getByRole('button', { name: 'Create and save' }));
    await waitFor(() => expect(region()).toHaveAttribute('data-push', 'success'));
    expect(sent.find((request) => request.path.endsWith('/push'))?.body).toEqual({
      external_user_id: 'ada',
      repo_owner: 'acme-org',
      repo_name: 'client-site',
    });
  });

  it('every failure as the user sees it: no linked repository, repository not found, project not found, connection not found', async () => {
    const { api, projectId } = await connectedMock();
    const rendered = renderPicker(
      { projectId: projectId!, perPage: 5 },
      {
        mock: { api },
        // The second link asks for a repository the connection cannot see.
        wrapTransport: (inner) => {
          let links = 0;
          return {
            json: (request) =>
              request.path.endsWith('/link') && ++links === 2
                ? inner.json({ ...request, body: { ...(request.body as object), repo_name: 'gone-repository' } })
                : inner.json(request),
            stream: inner.stream,
          };
        },
      },
    );
    const { user, region } = rendered;
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    // Nothing linked yet: a push to "the linked repository" cannot succeed, so it is not offered.
    expect(within(region()).queryByRole('button', { name: /^Save the code to / })).not.toBeInTheDocument();
    expect(region()).toHaveTextContent('Choose the repository for this app’s code.');

    const fullName = await pick(rendered, 0);
    await user.click(within(region()).getByRole('button', { name: `Use ${fullName}` }));
    await waitFor(() => expect(region()).toHaveAttribute('data-link', 'success'));
    const other = await pick(rendered, 1);
    await user.click(within(region()).getByRole('button', { name: `Use ${other}` }));
    await waitFor(() => expect(region()).toHaveAttribute('data-link', 'error'));
    // Named: under the linked repository's box and button, an unnamed failure would read as theirs.
    const notLinked = within(region()).getByText(`${other} could not be chosen`).closest('[role="alert"]')!;
    // The list marks the repository the code goes to, the one still linked.
    const linkedRows = within(region())
      .getAllByRole('option')
      .filter((option) => within(option).queryByText('Linked') !== null);
    expect(linkedRows.map((option) => option.querySelector('.ae-repo-name')?.textContent)).toEqual([fullName]);
    expect(notLinked).toHaveTextContent('That repository could not be found.');
    // The API's own words are the agency's (onError), not the end user's.
    expect(notLinked).not.toHaveTextContent('code-host connection');
    cleanupRendered();

    const missingProject = renderPicker({ projectId: 'proj_missing' }, { mock: { api } });
    const chosen = await pick(missingProject, 0);
    await missingProject.user.click(within(missingProject.region()).getByRole('button', { name: `Use ${chosen}` }));
    await waitFor(() => expect(missingProject.region()).toHaveAttribute('data-link', 'error'));
    expect(within(missingProject.region()).getByRole('alert')).toHaveTextContent(
      'This project could not be found. It may have been removed; start a new one.',
    );
    expect(within(missingProject.region()).getByRole('alert')).not.toHaveTextContent(agentApiMessages.projectNotFound);
    await missingProject.user.type(within(missingProject.region()).getByLabelText('New repository name'), 'new-one');
    await missingProject.user.click(within(missingProject.region()).getByRole('button', { name: 'Create and save' }));
    await waitFor(() => expect(missingProject.region()).toHaveAttribute('data-push', 'error'));
    // One error in one place: the push's replaces the link's.
    expect(within(missingProject.region()).getAllByRole('alert')).toHaveLength(1);
    expect(
      within(missingProject.region()).getByText('Your code was not saved').closest('[role="alert"]'),
    ).toHaveTextContent('This project could not be found.');
  });

  it('a repository page that fails: an alert with the reason, and "Try again" loads it', async () => {
    const { api, projectId } = await connectedMock();
    api.admin.injectFault({ kind: 'http_500', route: 'listRepositories' });
    const { user, region } = renderPicker({ projectId: projectId!, perPage: 10 }, { mock: { api } });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'error'));
    const alert = within(region()).getByRole('alert');
    expect(alert).toHaveTextContent('Could not load your repositories');
    expect(alert).toHaveTextContent('Something went wrong on our side. Try again in a moment.');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    expect(within(region()).getAllByRole('option')).toHaveLength(10);
    cleanupRendered();
  });

  it('a failing next page keeps the loaded page in place, with an inline retry that loads it', async () => {
    const { api, projectId } = await connectedMock();
    const { user, region, options, listQueries } = renderPicker(
      { projectId: projectId!, perPage: 20 },
      { mock: { api } },
    );
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    const firstPage = names(options());
    api.admin.injectFault({ kind: 'http_500', route: 'listRepositories' });
    await user.click(within(region()).getByRole('button', { name: 'Next page' }));
    const alert = await within(region()).findByRole('alert');
    expect(alert).toHaveTextContent('Could not load more repositories');
    expect(region()).toHaveAttribute('data-state', 'ready');
    expect(names(options())).toEqual(firstPage);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(region()).toHaveTextContent('Page 2 of 3'));
    await waitFor(() => expect(names(options())).not.toEqual(firstPage));
    expect(within(region()).queryByRole('alert')).not.toBeInTheDocument();
    expect(listQueries()).toEqual([
      { page: 1, per_page: 20 },
      { page: 2, per_page: 20 },
      { page: 2, per_page: 20 },
    ]);
  });

  it('without a code-host connection: a note with the spec message, then the list loads once the user has connected', async () => {
    const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
    const rendered = renderWithMock(
      <>
        <CodehostConnect navigate={() => {}} />
        <RepoPicker perPage={10} />
      </>,
      { mock: { api }, provider: { externalUser: ada } },
    );
    const region = () => screen.getByRole('region', { name: 'Repository' });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'not_connected'));
    // Where every new user starts: a note with the API's words, not an alert.
    expect(within(region()).queryByRole('alert')).not.toBeInTheDocument();
    expect(region()).toHaveTextContent('Connect GitHub to choose a repository for your code.');
    expect(region()).not.toHaveTextContent('external user');
    // Nothing that cannot work yet is offered: no search, no link, no push.
    expect(within(region()).queryByRole('button')).not.toBeInTheDocument();
    expect(within(region()).queryByRole('searchbox')).not.toBeInTheDocument();
    // Known to be unconnected: no repository request is spent on it.
    expect(api.admin.requests.filter((request) => request.path.endsWith('/repositories'))).toHaveLength(0);

    const client = createAgentClient({ transport: createMockTransport({ api, externalUser: ada }) });
    const started = await client.codehost.startConnect({
      external_user_id: 'ada',
      external_user_name: 'Ada Lovelace',
      external_user_email: 'ada@example.com',
      return_url: 'http://localhost:3000/',
    });
    await api.fetch(new Request(new URL(`/__mock/codehost/callback?state=${started.state}`, started.redirect_url)));
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    expect(within(region()).getAllByRole('option')).toHaveLength(10);
    expect(rendered.transport.api).toBe(api);
  });
});

describe('RepoPicker never links a non-http(s) repository address', () => {
  it('javascript: in the Link and Push results is shown as text', async () => {
    const { api, projectId } = await connectedMock();
    const rendered = renderPicker(
      { projectId: projectId!, perPage: 5 },
      {
        mock: { api },
        wrapTransport: (inner) => ({
          json: async (request) => {
            const body = (await inner.json(request)) as { data?: Record<string, unknown> };
            return request.path.endsWith('/link') || request.path.endsWith('/push')
              ? { ...body, data: { ...body.data, repo_url: 'javascript:alert(document.cookie)' } }
              : body;
          },
          stream: inner.stream,
        }),
      },
    );
    const { user, region, container } = rendered;
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    await user.click(rendered.options()[0]!);
    await user.click(within(region()).getByRole('button', { name: /^Use / }));
    await waitFor(() => expect(region()).toHaveAttribute('data-link', 'success'));
    expect(within(region()).getAllByText('Not a web address')).toHaveLength(1);
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    await user.click(within(region()).getByRole('button', { name: /^Save the code to / }));
    await waitFor(() => expect(region()).toHaveAttribute('data-push', 'success'));
    expect(within(region()).getAllByText('Not a web address')).toHaveLength(1);
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(container.innerHTML).not.toContain('javascript:');
  });
});

describe('RepoPicker accessibility (axe, color-contrast off in jsdom)', () => {
  it('not connected, list with an active option, link and push results', async () => {
    const empty = renderPicker({});
    await waitFor(() => expect(empty.region()).toHaveAttribute('data-state', 'not_connected'));
    expect(await violations(empty.container)).toEqual([]);
    cleanupRendered();

    const { api, projectId } = await connectedMock();
    const rendered = renderPicker({ projectId: projectId!, perPage: 8 }, { mock: { api } });
    const { user, region, container } = rendered;
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    await user.click(within(region()).getByLabelText('Search repositories'));
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(await violations(container)).toEqual([]);
    await user.click(within(region()).getByRole('button', { name: /^Use / }));
    await waitFor(() => expect(region()).toHaveAttribute('data-link', 'success'));
    await user.click(within(region()).getByRole('button', { name: /^Save the code to / }));
    await waitFor(() => expect(region()).toHaveAttribute('data-push', 'success'));
    expect(await violations(container)).toEqual([]);
  });
});
