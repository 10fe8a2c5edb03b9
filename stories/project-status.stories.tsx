import type { Meta, StoryObj } from '@storybook/react-vite';
import { defaultErrorLabels, ProjectStatus } from 'agent-embed';
import { agentApiMessages } from 'agent-embed/core';
import { expect, waitFor, within } from 'storybook/test';
import {
  agentParameters,
  generateUntil,
  storyAgent,
  storyPrompt,
  type AgentStoryParameters,
  type StoryAgent,
} from './story-agent.js';
import { prepare, reach } from './story-states.js';

const meta = {
  title: 'Generation/ProjectStatus',
  component: ProjectStatus,
} satisfies Meta<typeof ProjectStatus>;

export default meta;
type Story = StoryObj<typeof meta>;

function status(canvasElement: HTMLElement) {
  const region = within(canvasElement).getByRole('region', { name: 'Project status' });
  return { region, view: within(region) };
}

/** Waits for the first poll, then checks the details list against the mock's project. */
async function expectProject(canvasElement: HTMLElement, agent: StoryAgent, projectStatus: string, shown: string) {
  const { region, view } = status(canvasElement);
  await waitFor(() => expect(region).toHaveAttribute('data-project-status', projectStatus));
  const [project] = await agent.admin.projects();
  await expect(view.getByText(project?.name ?? '')).toBeInTheDocument();
  await expect(region.querySelector('.ae-badge')).toHaveTextContent(shown);
  // The app is offered only once it is ready: a link to a half-built app would contradict the status.
  if (projectStatus === 'ready')
    await expect(view.getByRole('link', { name: 'Open the app' })).toHaveAttribute('href', project?.appUrl);
  else await expect(view.queryByRole('link', { name: 'Open the app' })).not.toBeInTheDocument();
  await expect(region.querySelector('time')).toHaveAttribute('dateTime', expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
}

/** A project frozen while provisioning, then something that makes its status polls fail (before the first one). */
function pollRefused(after: (agent: StoryAgent) => Promise<void>): AgentStoryParameters {
  return {
    setup: async (agent) => {
      await agent.admin.injectFault({ kind: 'pause_after', events: 3 });
      await generateUntil(agent, (generation) => generation.status === 'provisioning');
      await after(agent);
    },
  };
}

/** A refused poll in the end user's words: the API's own message (`apiMessage`) is the agency's, never shown. */
function refusedStory(
  parameters: AgentStoryParameters,
  words: string,
  apiMessage: string,
  watchStatus: 'error' | 'loading',
): Story {
  return {
    parameters: agentParameters(parameters),
    play: async ({ canvasElement }) => {
      const { region, view } = status(canvasElement);
      await waitFor(() => expect(view.getByText(`Could not load the status: ${words}`)).toBeInTheDocument());
      await expect(region).toHaveAttribute('data-state', watchStatus);
      await expect(region).not.toHaveTextContent(apiMessage);
      // Polling stopped: nothing says it is still loading.
      if (watchStatus === 'error') await expect(region).not.toHaveTextContent('Loading');
    },
  };
}

export const NoProject: Story = {
  play: async ({ canvasElement }) => {
    const { region, view } = status(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'idle');
    await expect(view.getByText('No project yet.')).toBeInTheDocument();
  },
};

export const Provisioning: Story = {
  name: 'Provisioning 35%',
  parameters: agentParameters(reach.provisioning(35)),
  play: async (context) => {
    await expectProject(context.canvasElement, storyAgent(context), 'provisioning', 'Setting up');
    // Not terminal: the poller keeps polling.
    await expect(status(context.canvasElement).region).toHaveAttribute('data-state', 'polling');
  },
};

export const Generating: Story = {
  name: 'Generating (5 files)',
  parameters: agentParameters(reach.generating(5)),
  play: async (context) => {
    await expectProject(context.canvasElement, storyAgent(context), 'generating', 'Building');
    await expect(status(context.canvasElement).region).toHaveAttribute('data-state', 'polling');
  },
};

export const Ready: Story = {
  parameters: agentParameters(reach.completed),
  play: async (context) => {
    await expectProject(context.canvasElement, storyAgent(context), 'ready', 'Ready');
    // Terminal: polling has stopped.
    await expect(status(context.canvasElement).region).toHaveAttribute('data-state', 'settled');
  },
};

export const ReadyDark: Story = {
  ...Ready,
  globals: { colorScheme: 'dark' },
  play: async (context) => {
    await Ready.play?.(context);
    await expect(context.canvasElement.querySelector('[data-agent-embed]')).toHaveAttribute(
      'data-color-scheme',
      'dark',
    );
  },
};

export const Failed: Story = {
  parameters: agentParameters(reach.failed),
  play: async (context) => {
    await expectProject(context.canvasElement, storyAgent(context), 'failed', 'Failed');
    await expect(status(context.canvasElement).region).toHaveAttribute('data-state', 'settled');
  },
};

export const CreditsExhausted: Story = {
  parameters: agentParameters(reach.creditsExhaustedDuring),
  play: async (context) => {
    await expectProject(context.canvasElement, storyAgent(context), 'credits_exhausted', 'Out of credits');
  },
};

export const ForAGivenProject: Story = {
  name: 'For a given project id (no generation here)',
  parameters: agentParameters({
    // Generated elsewhere (another page, another session): this store has never seen it.
    setup: async (agent) => void (await agent.client.generate({ prompt: storyPrompt })),
  }),
  render: (args, context) => <ProjectStatus {...args} projectId={storyAgent(context).projects[0]?.id ?? ''} />,
  play: async (context) => {
    const agent = storyAgent(context);
    await expect(Object.keys(agent.store.getState().generations)).toHaveLength(0);
    await expectProject(context.canvasElement, agent, 'ready', 'Ready');
  },
};

export const NotFound: Story = {
  args: { projectId: 'proj_does_not_exist' },
  play: async ({ canvasElement }) => {
    const { region, view } = status(canvasElement);
    await waitFor(() => expect(region).toHaveAttribute('data-state', 'error'));
    await expect(
      view.getByText(`Could not load the status: ${defaultErrorLabels.notFound.project}`),
    ).toBeInTheDocument();
    await expect(region.querySelector('.ae-badge')).toHaveTextContent('Not found');
    await expect(region).toHaveAttribute('data-phase', 'gone');
    await expect(view.queryByRole('link')).not.toBeInTheDocument();
  },
};

export const PausedWhileHidden: Story = {
  parameters: agentParameters({ ...reach.provisioning(35), store: { isHidden: () => true } }),
  play: async ({ canvasElement }) => {
    const { region, view } = status(canvasElement);
    await waitFor(() => expect(region).toHaveAttribute('data-state', 'paused'));
    await expect(view.getByText('Updates are paused while this page is hidden.')).toBeInTheDocument();
  },
};

// 429 is retried after Retry-After, so the poller is still loading; the others stop it.
export const RateLimited: Story = refusedStory(
  pollRefused((agent) => agent.admin.injectFault({ kind: 'rate_limited', retryAfterSeconds: 30, route: 'getProject' })),
  defaultErrorLabels.kinds.rate_limited,
  agentApiMessages.tooManyAttempts,
  'loading',
);
export const Unauthorized: Story = refusedStory(
  pollRefused(prepare.unauthorized.setup),
  defaultErrorLabels.kinds.unauthorized,
  agentApiMessages.unauthorized,
  'error',
);
export const TokenExpired: Story = refusedStory(
  pollRefused(prepare.expired.setup),
  defaultErrorLabels.kinds.token_expired,
  agentApiMessages.tokenExpired,
  'error',
);
export const TeamSuspended: Story = refusedStory(
  pollRefused(prepare.suspended.setup),
  defaultErrorLabels.kinds.suspended,
  agentApiMessages.suspended,
  'error',
);
