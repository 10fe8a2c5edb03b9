import type { Meta, StoryObj } from '@storybook/react-vite';
import { RepoPicker } from 'agent-embed';
import { agentApiMessages } from 'agent-embed/core';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { agentParameters, installCodehost, storyAgent, storyUser } from './story-agent.js';
import {
  codehostConnected as connected,
  codehostLinked as linked,
  codehostPushedToNew,
  projectAndRepository,
  reach,
} from './story-states.js';

const meta = {
  title: 'Code host/RepoPicker',
  component: RepoPicker,
  args: { perPage: 10 },
  argTypes: {
    perPage: { table: { defaultValue: { summary: '30' } } },
    onLinked: { control: false, table: { type: { summary: '(result: LinkResult) => void' } } },
    onPushed: { control: false, table: { type: { summary: '(result: PushResult) => void' } } },
  },
} satisfies Meta<typeof RepoPicker>;

/**
 * A story that checks what a click or a key does rather than showing a state set up before it renders: it
 * runs as a test and stays in the sidebar, not on the docs page.
 */
const behaviour = { tags: ['!autodocs'] };

export default meta;
type Story = StoryObj<typeof meta>;

function picker(canvasElement: HTMLElement) {
  const element = within(canvasElement).getByRole('region', { name: 'Repository' });
  const view = within(element);
  return {
    element,
    view,
    options: () => within(view.getByRole('listbox', { name: 'Repositories' })).getAllByRole('option'),
  };
}

async function ready(canvasElement: HTMLElement) {
  const view = picker(canvasElement);
  await waitFor(() => expect(view.element).toHaveAttribute('data-state', 'ready'));
  return view;
}

export const NotConnected: Story = {
  play: async ({ canvasElement }) => {
    const { element, view } = picker(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'not_connected'));
    await expect(view.queryByRole('alert')).not.toBeInTheDocument();
    await expect(element).toHaveTextContent('Connect GitHub to choose a repository for your code.');
    await expect(element).not.toHaveTextContent(agentApiMessages.codehostConnectionNotFound);
    // Nothing that cannot work yet is offered.
    await expect(within(element).queryByRole('button')).not.toBeInTheDocument();
  },
};

export const Empty: Story = {
  name: 'No repositories',
  parameters: agentParameters(connected({ repositoryCount: 0 })),
  play: async ({ canvasElement }) => {
    const { element, view } = picker(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'empty'));
    await expect(view.getByText('No repositories yet. Create one below by saving your code.')).toBeInTheDocument();
  },
};

export const OnePage: Story = {
  parameters: agentParameters(connected({ repositoryCount: 6 })),
  play: async ({ canvasElement }) => {
    const { view, options } = await ready(canvasElement);
    await expect(options()).toHaveLength(6);
    await expect(view.getByText('Page 1 of 1 · 6 repositories')).toBeInTheDocument();
    await expect(view.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await expect(view.getByRole('button', { name: 'Next page' })).toBeDisabled();
  },
};

export const ManyPages: Story = {
  parameters: agentParameters(connected()),
  play: async ({ canvasElement }) => {
    const { view, options } = await ready(canvasElement);
    await expect(view.getByText('Page 1 of 5 · 47 repositories')).toBeInTheDocument();
    await expect(options()).toHaveLength(10);
    await expect(view.getByRole('button', { name: 'Next page' })).toBeEnabled();
  },
};

export const NextPage: Story = {
  ...behaviour,
  name: 'Behaviour: Next page',
  parameters: agentParameters(connected()),
  play: async ({ canvasElement }) => {
    const { view, options } = await ready(canvasElement);
    await userEvent.click(view.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(view.getByText('Page 2 of 5 · 47 repositories')).toBeInTheDocument());
    await expect(options()).toHaveLength(10);
    await expect(options().some((option) => option.textContent?.includes('Private'))).toBe(true);
    await expect(options().some((option) => option.textContent?.includes('Public'))).toBe(true);
  },
};

export const NullTotal: Story = {
  ...behaviour,
  name: 'Behaviour: an unknown total loads more on demand',
  parameters: agentParameters(connected({ repositoryCount: 25, repositoryTotalCountUnknown: true })),
  play: async ({ canvasElement }) => {
    const { view, options } = await ready(canvasElement);
    await expect(view.getByText('10 repositories loaded')).toBeInTheDocument();
    await userEvent.click(view.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(options()).toHaveLength(20));
    await userEvent.click(view.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(options()).toHaveLength(25));
    await expect(view.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  },
};

export const KeyboardSelection: Story = {
  ...behaviour,
  name: 'Behaviour: choosing a repository with the keyboard',
  parameters: agentParameters(connected()),
  play: async ({ canvasElement }) => {
    const { view, options } = await ready(canvasElement);
    await userEvent.click(view.getByLabelText('Search repositories'));
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{End}{ArrowUp}{Enter}');
    const listbox = view.getByRole('listbox', { name: 'Repositories' });
    await expect(listbox).toHaveFocus();
    const chosen = options()[8]!;
    await expect(listbox).toHaveAttribute('aria-activedescendant', chosen.id);
    await expect(chosen).toHaveAttribute('aria-selected', 'true');
    await expect(
      view.getByRole('button', { name: `Use ${chosen.querySelector('.ae-repo-name')?.textContent ?? ''}` }),
    ).toBeInTheDocument();
  },
};

export const LinkOk: Story = {
  name: 'Link ok',
  parameters: agentParameters(linked(0)),
  play: async ({ canvasElement }) => {
    const { element, view } = await ready(canvasElement);
    await expect(element).toHaveAttribute('data-link', 'success');
    await expect(view.getByText(/^Your code goes to ada-lovelace\//)).toBeInTheDocument();
    await expect(view.getByRole('link', { name: /^codehost\.agent-embed\.test\/ada-lovelace\// })).toHaveAttribute(
      'href',
      expect.stringMatching(/^https:\/\/codehost\.agent-embed\.test\/ada-lovelace\//),
    );
    // Linked: the next step is the push, named after the repository.
    await expect(view.getByRole('button', { name: /^Save the code to ada-lovelace\// })).toBeInTheDocument();
  },
};

export const LinkProjectNotFound: Story = {
  name: 'Link not found (project)',
  args: { projectId: 'proj_not_here' },
  parameters: agentParameters(
    connected({}, async (agent) => {
      const { repository } = await projectAndRepository(agent, 0);
      await agent.store.getState().linkRepository('proj_not_here', storyUser.id, repository);
    }),
  ),
  play: async ({ canvasElement }) => {
    const { element, view } = await ready(canvasElement);
    await expect(element).toHaveAttribute('data-link', 'error');
    await expect(view.getByRole('alert')).toHaveTextContent('This project could not be found.');
    await expect(view.getByRole('alert')).not.toHaveTextContent(agentApiMessages.projectNotFound);
  },
};

export const PushToNew: Story = {
  name: 'Save to a new repository',
  parameters: agentParameters(codehostPushedToNew('yoga-studio-site')),
  play: async ({ canvasElement }) => {
    const { element, view } = await ready(canvasElement);
    await expect(element).toHaveAttribute('data-push', 'success');
    await expect(view.getByText('Created ada-lovelace/yoga-studio-site and saved your code')).toBeInTheDocument();
    await expect(
      view.getByRole('link', { name: 'codehost.agent-embed.test/ada-lovelace/yoga-studio-site' }),
    ).toHaveAttribute('href', 'https://codehost.agent-embed.test/ada-lovelace/yoga-studio-site');
  },
};

export const PushToExisting: Story = {
  name: 'Save to the linked repository',
  parameters: agentParameters(
    linked(1, (agent, projectId) => agent.store.getState().pushRepository(projectId, storyUser.id)),
  ),
  play: async ({ canvasElement }) => {
    const { element, view } = await ready(canvasElement);
    await expect(element).toHaveAttribute('data-link', 'success');
    await expect(element).toHaveAttribute('data-push', 'success');
    await expect(view.getByText(/^Saved your code to ada-lovelace\//)).toBeInTheDocument();
  },
};

export const NothingLinkedYet: Story = {
  name: 'Nothing linked yet: no push to a linked repository is offered',
  parameters: agentParameters(connected()),
  play: async ({ canvasElement }) => {
    const { view } = await ready(canvasElement);
    await expect(view.queryByRole('button', { name: /^Save the code to / })).not.toBeInTheDocument();
    await expect(view.getByText('Choose the repository for this app’s code.')).toBeInTheDocument();
    await expect(view.getByRole('button', { name: 'Create and save' })).toBeEnabled();
  },
};

export const NextPageFails: Story = {
  ...behaviour,
  name: 'Behaviour: a failing next page keeps the loaded one (inline retry)',
  args: { perPage: 10 },
  parameters: agentParameters(connected()),
  play: async (context) => {
    const { element, view, options } = await ready(context.canvasElement);
    const firstPage = options().map((option) => option.textContent);
    await storyAgent(context).admin.injectFault({ kind: 'http_500', route: 'listRepositories' });
    await userEvent.click(view.getByRole('button', { name: 'Next page' }));
    const alert = await view.findByRole('alert');
    await expect(alert).toHaveTextContent('Could not load more repositories');
    await expect(element).toHaveAttribute('data-state', 'ready');
    await expect(options().map((option) => option.textContent)).toEqual(firstPage);
    await expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled();
  },
};

export const SearchLoadedPages: Story = {
  ...behaviour,
  name: 'Behaviour: search says it covers the loaded pages and loads more',
  args: { perPage: 20 },
  parameters: agentParameters(connected()),
  play: async ({ canvasElement }) => {
    const { element, view } = await ready(canvasElement);
    await userEvent.type(view.getByLabelText('Search repositories'), 'a');
    await expect(element).toHaveTextContent('Searching the 20 of 47 repositories loaded so far.');
    await userEvent.click(view.getByRole('button', { name: 'Load more to search' }));
    await waitFor(() => expect(element).toHaveTextContent('Searching the 40 of 47 repositories loaded so far.'));
  },
};

export const WhileAFollowUpBuilds: Story = {
  name: 'While a follow-up builds: the code is saved once it is built',
  parameters: agentParameters({
    setup: async (agent) => {
      await installCodehost(agent);
      await reach.followUpRunning.setup?.(agent);
    },
  }),
  play: async ({ canvasElement }) => {
    const { view } = await ready(canvasElement);
    await expect(view.getByText('You can save the code once the changes are built.')).toBeInTheDocument();
    await expect(view.getByRole('button', { name: 'Create and save' })).toBeDisabled();
  },
};
