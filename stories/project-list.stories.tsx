import type { Meta, StoryObj } from '@storybook/react-vite';
import { ProjectList } from 'agent-embed';
import { AgentApiError } from 'agent-embed/core';
import { expect, waitFor, within } from 'storybook/test';
import { agentParameters, storyPrompt, type StoryAgent } from './story-agent.js';
import { reach } from './story-states.js';

/**
 * The end user's projects as the agency proxy lists them (the in-browser mock answers the proxy's routes too),
 * each state set up before the story renders.
 */
const meta = {
  title: 'Projects/ProjectList',
  component: ProjectList,
  argTypes: {
    onOpen: { control: false, table: { type: { summary: '(projectId: string) => void' } } },
  },
} satisfies Meta<typeof ProjectList>;

export default meta;
type Story = StoryObj<typeof meta>;

function region(canvasElement: HTMLElement) {
  const element = within(canvasElement).getByRole('region', { name: 'Your projects' });
  return { element, view: within(element) };
}

/** Projects built earlier, through the client alone (as on another visit): none is the current one. */
async function earlierProjects(agent: StoryAgent): Promise<void> {
  const prompts = ['A habit tracker with streaks and reminders', 'A recipe box with tags and a shopping list'];
  for (const prompt of [...prompts, storyPrompt]) {
    // The middle one runs out of credits on its way.
    await agent.admin.setCredits(prompt === prompts[1] ? 3 : 1000);
    const result = await agent.client.generate({ prompt });
    // A status answer names the project, as the builder's polling would have.
    if (result.projectId !== undefined) await agent.client.getProject(result.projectId);
  }
}

export const Empty: Story = {
  name: 'No project yet',
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'success'));
    await expect(view.queryByRole('listitem')).not.toBeInTheDocument();
    await expect(view.getByText('Your projects will be listed here once you have built one.')).toBeInTheDocument();
  },
};

export const Loading: Story = {
  name: 'Loading (the proxy has not answered yet)',
  parameters: agentParameters({
    setup: (agent) => {
      agent.client.projects.list = () => new Promise(() => {});
    },
  }),
  play: async ({ canvasElement }) => {
    const { element } = region(canvasElement);
    await expect(element).toHaveAttribute('data-state', 'loading');
    await expect(within(element).getByText('Loading your projects…')).toBeInTheDocument();
  },
};

export const SeveralProjects: Story = {
  name: 'Several projects, newest first, each with its status',
  parameters: agentParameters({ setup: earlierProjects }),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'success'));
    const items = view.getAllByRole('button');
    await expect(items).toHaveLength(3);
    // Nothing is open yet: no project is marked as the current one.
    for (const item of items) await expect(item).not.toHaveAttribute('aria-current');
    const names = items.map((item) => item.querySelector('.ae-project-item-name')?.textContent ?? '');
    await expect(new Set(names).size).toBe(3);
    const statuses = items.map((item) => item.querySelector('.ae-project-item-meta')?.textContent?.split(' · ')[0]);
    await expect(new Set(statuses).size).toBe(2);
  },
};

export const CurrentProject: Story = {
  name: 'The project on screen marked as current',
  parameters: agentParameters({
    setup: async (agent) => {
      await agent.client.generate({ prompt: 'A habit tracker with streaks and reminders' });
      await reach.completed.setup?.(agent);
    },
  }),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'success'));
    const items = view.getAllByRole('button');
    await expect(items).toHaveLength(2);
    await expect(items[0]).toHaveAttribute('aria-current', 'true');
    await expect(items[1]).not.toHaveAttribute('aria-current');
  },
};

export const Unavailable: Story = {
  name: 'No proxy route to list projects (404)',
  parameters: agentParameters({
    setup: (agent) => {
      agent.client.projects.list = () => Promise.reject(new AgentApiError('not_found', 'Not found.', { status: 404 }));
    },
  }),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'unavailable'));
    await expect(view.getByText('Your earlier projects cannot be listed here.')).toBeInTheDocument();
  },
};

export const LoadFailed: Story = {
  name: 'The list could not be loaded (500)',
  parameters: agentParameters({
    setup: (agent) => {
      agent.client.projects.list = () => Promise.reject(new AgentApiError('upstream', 'Server Error', { status: 500 }));
    },
  }),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'error'));
    await expect(view.getByRole('alert')).toHaveTextContent('Your projects could not be loaded');
    await expect(view.getByRole('button', { name: /try again/i })).toBeEnabled();
  },
};
