import type { Meta, StoryObj } from '@storybook/react-vite';
import { Conversation } from 'agent-embed';
import { resourceSpecs } from 'agent-embed/core';
import { expect, waitFor, within } from 'storybook/test';
import { agentParameters, storyPrompt } from './story-agent.js';
import { reach } from './story-states.js';

/**
 * A project's prompts and what came of each, oldest first. Each state is a generation run through the
 * store (or a project opened from the proxy's record) before the story renders.
 */
const meta = {
  title: 'Generation/Conversation',
  component: Conversation,
} satisfies Meta<typeof Conversation>;

export default meta;
type Story = StoryObj<typeof meta>;

const followUpPrompt = 'Add a dark theme and a contact page';

function region(canvasElement: HTMLElement) {
  const element = within(canvasElement).getByRole('region', { name: 'Conversation' });
  return { element, view: within(element) };
}

function turns(element: HTMLElement): HTMLElement[] {
  return within(element).queryAllByRole('listitem');
}

export const Empty: Story = {
  name: 'Before the first prompt',
  play: async ({ canvasElement }) => {
    const { element } = region(canvasElement);
    await expect(element).toHaveAttribute('data-state', 'empty');
    await expect(turns(element)).toHaveLength(0);
  },
};

export const Building: Story = {
  name: 'The first prompt, building',
  parameters: agentParameters(reach.generating(4)),
  play: async ({ canvasElement }) => {
    const { element } = region(canvasElement);
    const [turn] = turns(element);
    await expect(turn).toHaveTextContent(storyPrompt);
    await expect(turn).toHaveAttribute('data-outcome', 'running');
  },
};

export const Completed: Story = {
  name: 'The first prompt, done',
  parameters: agentParameters(reach.completed),
  play: async ({ canvasElement }) => {
    const { element } = region(canvasElement);
    await expect(element).toHaveAttribute('data-state', 'ready');
    const [turn] = turns(element);
    await expect(turn).toHaveTextContent(storyPrompt);
    await expect(turn).toHaveAttribute('data-outcome', 'completed');
  },
};

export const FollowUpRunning: Story = {
  name: 'A change on its way',
  parameters: agentParameters(reach.followUpRunning),
  play: async ({ canvasElement }) => {
    const { element } = region(canvasElement);
    const [first, second] = turns(element);
    await expect(first).toHaveAttribute('data-outcome', 'completed');
    await expect(second).toHaveTextContent(followUpPrompt);
    await expect(second).toHaveAttribute('data-outcome', 'running');
  },
};

export const FollowUpFailed: Story = {
  name: 'A change that failed',
  parameters: agentParameters(reach.followUpFailed),
  play: async ({ canvasElement }) => {
    const { element } = region(canvasElement);
    const [first, second] = turns(element);
    await expect(first).toHaveAttribute('data-outcome', 'completed');
    await expect(second).toHaveAttribute('data-outcome', 'failed');
    // Alone on the page, the conversation itself says how the latest build ended.
    await expect(second!.querySelector('.ae-turn-outcome')).not.toBeNull();
  },
};

export const CreditsRanOut: Story = {
  name: 'Stopped when the credits ran out',
  parameters: agentParameters(reach.creditsExhaustedDuring),
  play: async ({ canvasElement }) => {
    const { element } = region(canvasElement);
    const [turn] = turns(element);
    await expect(turn).toHaveAttribute('data-outcome', 'credits_exhausted');
  },
};

export const FromTheProxyRecord: Story = {
  name: 'An earlier project opened: its turns from the proxy\u2019s record',
  parameters: agentParameters({
    setup: async (agent) => {
      // Built on an earlier visit (through the client alone), then opened as the end user would from the list.
      const built = await agent.client.generate({ prompt: storyPrompt, mode: 'design' });
      await agent.client.followUp(built.projectId!, { prompt: followUpPrompt });
      await agent.store.getState().fetchResource(resourceSpecs.conversation(built.projectId!));
      await agent.store.getState().openProject(built.projectId!);
    },
  }),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(turns(element)).toHaveLength(2));
    const [first, second] = turns(element);
    await expect(first).toHaveTextContent(storyPrompt);
    await expect(second).toHaveTextContent(followUpPrompt);
    await expect(view.getAllByRole('time')).toHaveLength(2);
  },
};
