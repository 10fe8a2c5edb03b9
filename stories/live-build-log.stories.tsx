import type { Meta, StoryObj } from '@storybook/react-vite';
import { createAgentFormat, LiveBuildLog } from 'agent-embed';
import { agentApiMessages } from 'agent-embed/core';
import { creditsExhaustedMessage, type MockFault } from 'agent-embed/mock';
import { expect, fn, waitFor, within } from 'storybook/test';
import {
  agentParameters,
  currentGeneration,
  storyAgent,
  storyPrompt,
  type AgentStoryParameters,
} from './story-agent.js';
import { reach, storyBillingUrl, storyFailureMessage } from './story-states.js';

const meta = {
  title: 'Generation/LiveBuildLog',
  component: LiveBuildLog,
  args: { buyCreditsUrl: storyBillingUrl },
} satisfies Meta<typeof LiveBuildLog>;

export default meta;
type Story = StoryObj<typeof meta>;

function parts(canvasElement: HTMLElement) {
  const region = within(canvasElement).getByRole('region', { name: 'Build progress' });
  const log = within(region);
  return {
    region,
    log,
    outcome: () => region.querySelector('.ae-outcome'),
    badge: () => region.querySelector('.ae-badge'),
    announcement: () => log.getByRole('log'),
  };
}

async function expectProgress(canvasElement: HTMLElement, percentage: number) {
  const { region, log } = parts(canvasElement);
  await expect(region).toHaveAttribute('data-state', 'provisioning');
  const bar = log.getByRole('progressbar', { name: 'Build progress' });
  // The container is the first 35% of the whole build's one bar.
  const overall = Math.max(3, Math.round(percentage * 0.35));
  await expect(bar).toHaveAttribute('aria-valuenow', String(overall));
  await expect(bar).toHaveAttribute('aria-valuetext', `${createAgentFormat(undefined).percent(overall)} done`);
  await expect(log.getByRole('log')).toHaveTextContent('Preparing a place for your app.');
}

export const Idle: Story = {
  play: async ({ canvasElement }) => {
    const { region, log, badge } = parts(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'idle');
    await expect(log.getByText('Nothing is being built yet.')).toBeInTheDocument();
    // Nothing exists yet, so no status pill.
    await expect(badge()).toBeNull();
    await expect(log.queryByRole('progressbar')).not.toBeInTheDocument();
  },
};

export const Submitting: Story = {
  parameters: agentParameters(reach.submitting),
  play: async ({ canvasElement }) => {
    const { region, badge, announcement } = parts(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'submitting');
    await expect(region).toHaveAttribute('aria-busy', 'true');
    await expect(badge()).toHaveTextContent('Sending');
    await expect(announcement()).toHaveTextContent('Sending your request.');
  },
};

export const Provisioning10: Story = {
  name: 'Provisioning 10%',
  parameters: agentParameters(reach.provisioning(10)),
  play: async ({ canvasElement }) => {
    await expectProgress(canvasElement, 10);
    // The stage in the library's words: the container's own messages are the service's jargon, in English only.
    await expect(parts(canvasElement).log.getByText('Preparing a place for your app…')).toBeInTheDocument();
    await expect(parts(canvasElement).log.queryByText('Allocating a container')).not.toBeInTheDocument();
  },
};

export const Provisioning35: Story = {
  name: 'Provisioning 35%',
  parameters: agentParameters(reach.provisioning(35)),
  play: async ({ canvasElement }) => {
    await expectProgress(canvasElement, 35);
    // The stage in the library's words: the container's own messages are the service's jargon, in English only.
    await expect(parts(canvasElement).log.getByText('Preparing a place for your app…')).toBeInTheDocument();
    await expect(parts(canvasElement).log.queryByText('Pulling the base image')).not.toBeInTheDocument();
  },
};

export const Provisioning85: Story = {
  name: 'Provisioning 85%',
  parameters: agentParameters(reach.provisioning(85)),
  play: async ({ canvasElement }) => {
    await expectProgress(canvasElement, 85);
    // The stage in the library's words: the container's own messages are the service's jargon, in English only.
    await expect(parts(canvasElement).log.getByText('Preparing a place for your app…')).toBeInTheDocument();
    await expect(parts(canvasElement).log.queryByText('Installing the runtime')).not.toBeInTheDocument();
  },
};

export const ContainerReady: Story = {
  parameters: agentParameters(reach.containerReady),
  play: async ({ canvasElement }) => {
    const { region, log, announcement } = parts(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'generating');
    // The container is ready, the build is not: the bar is past the setup share and far from full.
    await expect(log.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '35');
    await expect(log.getByText('Writing your app…')).toBeInTheDocument();
    // The last progress message does not linger next to it.
    await expect(log.queryByText('Container started')).not.toBeInTheDocument();
    await expect(announcement()).toHaveTextContent('Writing your app.');
    await expect(log.queryByRole('region', { name: 'Generated files' })).not.toBeInTheDocument();
  },
};

export const GeneratingAFewFiles: Story = {
  parameters: agentParameters(reach.generating(5)),
  play: async ({ canvasElement }) => {
    const { region, log } = parts(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'generating');
    await expect(log.getByText('5 new files')).toBeInTheDocument();
    const files = within(log.getByRole('region', { name: 'Generated files' })).getAllByRole('listitem');
    await expect(files.map((item) => item.querySelector('.ae-file-path')?.textContent)).toEqual([
      'package.json',
      'vite.config.ts',
      'index.html',
      'src/main.tsx',
      'src/App.tsx',
    ]);
    const steps = within(log.getByRole('list', { name: 'Agent steps' })).getAllByRole('listitem');
    await expect(steps.at(-1)).toHaveTextContent('Wrote 4 of 15 files');
    // The log mounts with a hidden sample of its rows' font, so the browser looks the font up before the first rows.
    const sample = region.querySelector('.ae-file-font');
    await expect(sample).toHaveAttribute('aria-hidden', 'true');
    const fontOf = (element: Element) => {
      const { fontFamily, fontSize, fontWeight } = getComputedStyle(element);
      return `${fontFamily} ${fontSize} ${fontWeight}`;
    };
    await expect(fontOf(sample!)).toBe(fontOf(files[0]!));
  },
};

export const GeneratingThousandsOfFiles: Story = {
  parameters: agentParameters(reach.generating(3000, 5000)),
  play: async (context) => {
    const { region, log } = parts(context.canvasElement);
    const generation = currentGeneration(storyAgent(context).store.getState());
    await expect(generation?.files).toHaveLength(3000);
    await expect(region).toHaveAttribute('data-state', 'generating');
    await expect(log.getByText(`${createAgentFormat(undefined).number(3000)} new files`)).toBeInTheDocument();
    // Windowed: a screenful of rows is in the DOM, not three thousand.
    const rows = within(log.getByRole('region', { name: 'Generated files' })).getAllByRole('listitem');
    await expect(rows.length).toBeGreaterThan(0);
    await expect(rows.length).toBeLessThan(60);
    await expect(rows[0]).toHaveAttribute('aria-setsize', '3000');
    // A running step that reports again is updated in place, not repeated 750 times.
    const steps = within(log.getByRole('list', { name: 'Agent steps' })).getAllByRole('listitem');
    await expect(steps).toHaveLength(2);
    await expect(steps[1]).toHaveTextContent('Wrote 2996 of 5000 files');
  },
};

export const ManyAgentSteps: Story = {
  parameters: agentParameters(reach.manySteps),
  play: async ({ canvasElement }) => {
    const { region, log } = parts(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'completed');
    // The newest ten, oldest first, all in view; the earlier ones are counted, not shown.
    const steps = within(log.getByRole('list', { name: 'Agent steps' })).getAllByRole('listitem');
    await expect(steps).toHaveLength(10);
    await expect(steps[0]).toHaveTextContent('Step 111 of 120');
    await expect(steps.at(-1)).toHaveTextContent('Step 120 of 120');
    await expect(log.getByText('110 earlier steps not shown')).toBeInTheDocument();
  },
};

export const Completed: Story = {
  parameters: agentParameters(reach.completed),
  play: async (context) => {
    const { region, log, outcome, announcement } = parts(context.canvasElement);
    const [project] = await storyAgent(context).admin.projects();
    await expect(region).toHaveAttribute('data-state', 'completed');
    await expect(outcome()).toHaveTextContent('Your app is ready.');
    const link = log.getByRole('link', { name: 'Open the app' });
    await expect(link).toHaveAttribute('href', project?.appUrl);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(log.getByText('13 new files')).toBeInTheDocument();
    await expect(announcement()).toHaveTextContent('Your app is ready.');
  },
};

export const CompletedDark: Story = {
  ...Completed,
  globals: { colorScheme: 'dark' },
  play: async (context) => {
    await Completed.play?.(context);
    await expect(context.canvasElement.querySelector('[data-agent-embed]')).toHaveAttribute(
      'data-color-scheme',
      'dark',
    );
  },
};

export const CompletedOceanAppearance: Story = {
  ...Completed,
  globals: { appearance: 'ocean' },
  play: async (context) => {
    await Completed.play?.(context);
    const root = context.canvasElement.querySelector<HTMLElement>('[data-agent-embed]');
    await expect(root?.style.getPropertyValue('--agent-embed-color-primary')).toBe('#0e7490');
    await expect(root?.style.getPropertyValue('--agent-embed-border-radius')).toBe('14px');
  },
};

export const FollowUpRunning: Story = {
  parameters: agentParameters(reach.followUpRunning),
  play: async ({ canvasElement }) => {
    const { region, log } = parts(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'generating');
    // A follow-up has no container stage: its bar starts with the generation and is not full while it runs.
    await expect(log.getByRole('progressbar')).toHaveAttribute('aria-valuenow', expect.not.stringMatching(/^100$/));
    await expect(log.getByText('Writing your app…')).toBeInTheDocument();
    await expect(log.getByText('1 changed file')).toBeInTheDocument();
    await expect(log.getByText('src/App.tsx')).toBeInTheDocument();
    await expect(log.getByText('modified')).toBeInTheDocument();
  },
};

export const FollowUpCompleted: Story = {
  parameters: agentParameters(reach.followUpCompleted),
  play: async ({ canvasElement }) => {
    const { region, log } = parts(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'completed');
    await expect(log.getByText('1 new, 2 changed files')).toBeInTheDocument();
    await expect(log.getByRole('link', { name: 'Open the app' })).toBeInTheDocument();
  },
};

export const CreditsExhaustedBefore: Story = {
  ...refusal(reach.creditsExhaustedBefore, agentApiMessages.insufficientCredits, 'credits_exhausted'),
  name: 'Credits exhausted before (400): nothing built, the prompt form tells it',
  args: { onBuyCredits: fn() },
};

export const CreditsExhaustedDuring: Story = {
  name: 'Credits exhausted during (event)',
  parameters: agentParameters(reach.creditsExhaustedDuring),
  play: async ({ canvasElement }) => {
    const { region, log, outcome, announcement } = parts(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'credits_exhausted');
    await expect(outcome()).toHaveTextContent('Your credits ran out.');
    await expect(outcome()).not.toHaveTextContent(creditsExhaustedMessage);
    await expect(log.getByText('3 new files')).toBeInTheDocument();
    const link = log.getByRole('link', { name: 'Buy credits' });
    await expect(link).toHaveAttribute('href', storyBillingUrl);
    await expect(announcement()).toHaveTextContent('Your credits ran out.');
  },
};

export const Failed: Story = {
  parameters: agentParameters(reach.failed),
  play: async ({ canvasElement }) => {
    const { region, outcome, badge, announcement } = parts(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'failed');
    await expect(outcome()).toHaveTextContent('The build failed.');
    // The API's own words are the agency's (onError), not the end user's.
    await expect(outcome()).not.toHaveTextContent(storyFailureMessage);
    await expect(badge()).toHaveTextContent('Failed');
    await expect(announcement()).toHaveTextContent('The build failed.');
  },
};

export const Recovering: Story = {
  name: 'Interrupted, recovering',
  parameters: agentParameters(reach.recovering),
  play: async (context) => {
    const { region, outcome, badge, announcement } = parts(context.canvasElement);
    await expect(region).toHaveAttribute('data-state', 'recovering');
    await expect(region).toHaveAttribute('aria-busy', 'true');
    await expect(outcome()).toHaveTextContent('The connection dropped. Reconnecting to your build…');
    await expect(badge()).toHaveTextContent('Reconnecting');
    await expect(announcement()).toHaveTextContent('Connection dropped. Reconnecting to your build.');
    // The project is still being generated at the mock: the store follows it through the events route.
    await waitFor(() =>
      expect(storyAgent(context).log.some((entry) => entry.text.startsWith('The stream was interrupted'))).toBe(true),
    );
  },
};

export const Recovered: Story = {
  name: 'Interrupted, then recovered',
  parameters: agentParameters(reach.recovered),
  play: async (context) => {
    const { region, log } = parts(context.canvasElement);
    const agent = storyAgent(context);
    await expect(region).toHaveAttribute('data-state', 'completed');
    await expect(log.getByRole('link', { name: 'Open the app' })).toHaveAttribute(
      'href',
      (await agent.admin.projects())[0]?.appUrl,
    );
    // The upstream stream was cut after ten events (7 container events, 2 plan steps, 1 file): nothing more was
    // recorded to replay, so the outcome came from polling.
    await expect(log.getByText('1 new file')).toBeInTheDocument();
    await expect(agent.log.some((entry) => entry.text.startsWith('The stream was interrupted'))).toBe(true);
    const posts = (await agent.admin.requests()).filter(
      (request) => request.method === 'POST' && /\/agent\/generate(\/|$)/.test(request.path),
    );
    await expect(posts).toHaveLength(1);
  },
};

export const Interrupted: Story = {
  name: 'Interrupted, outcome unknown',
  parameters: agentParameters(reach.interrupted),
  play: async ({ canvasElement }) => {
    const { region, outcome, announcement } = parts(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'interrupted');
    await expect(outcome()).toHaveTextContent('The connection was lost and we could not find out how the build ended.');
    await expect(announcement()).toHaveTextContent('The connection was lost.');
  },
};

export const Cancelled: Story = {
  parameters: agentParameters(reach.cancelled),
  play: async ({ canvasElement }) => {
    const { region, outcome, badge } = parts(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'aborted');
    await expect(outcome()).toHaveTextContent('You stopped watching this build.');
    await expect(badge()).toHaveTextContent('Stopped watching');
    await expect(outcome()).toHaveTextContent('It may still finish on the server');
  },
};

function refusal(parameters: typeof reach.rateLimited, message: string, state = 'failed'): Story {
  return {
    parameters: agentParameters(parameters),
    play: async ({ canvasElement }) => {
      const { region, log } = parts(canvasElement);
      // A refused request never started a build: the prompt form shows why (once); the log stays empty.
      await expect(region).toHaveAttribute('data-state', state);
      await expect(region).toHaveAttribute('data-phase', 'idle');
      await expect(log.getByText('Nothing is being built yet.')).toBeInTheDocument();
      await expect(region).not.toHaveTextContent(message);
      await expect(region.querySelector('.ae-file')).toBeNull();
    },
  };
}

export const RateLimited: Story = refusal(reach.rateLimited, agentApiMessages.tooManyAttempts);
export const Unauthorized: Story = refusal(reach.unauthorized, agentApiMessages.unauthorized);
export const TokenExpired: Story = refusal(reach.expired, agentApiMessages.tokenExpired);
export const TeamSuspended: Story = refusal(reach.suspended, agentApiMessages.suspended);

// Built elsewhere (another tab, an earlier visit): this store has no generation of the project, only its status.
function builtElsewhere(fault?: MockFault): AgentStoryParameters {
  return {
    setup: async (agent) => {
      if (fault !== undefined) await agent.admin.injectFault(fault);
      // A paused build never answers: the story shows it while it runs.
      void agent.client.generate({ prompt: storyPrompt }).catch(() => undefined);
      await waitFor(async () => expect(await agent.admin.projects()).toHaveLength(1));
    },
  };
}

function givenProject(parameters: AgentStoryParameters, phase: string, badgeText: string, text: string): Story {
  return {
    parameters: agentParameters(parameters),
    render: (args, context) => <LiveBuildLog {...args} projectId={storyAgent(context).projects[0]?.id ?? ''} />,
    play: async (context) => {
      const { region, badge } = parts(context.canvasElement);
      await expect(Object.keys(storyAgent(context).store.getState().generations)).toHaveLength(0);
      await waitFor(() => expect(region).toHaveAttribute('data-phase', phase));
      await expect(badge()).toHaveTextContent(badgeText);
      await expect(region).toHaveTextContent(text);
      await expect(region).not.toHaveTextContent('Nothing is being built yet.');
    },
  };
}

export const GivenProjectBuilding: Story = givenProject(
  builtElsewhere({ kind: 'pause_after', events: 10 }),
  'generating',
  'Building',
  'This app is being built. The result will show up here when it is done.',
);
export const GivenProjectReady: Story = givenProject(builtElsewhere(), 'ready', 'Ready', 'Your app is ready.');
export const GivenProjectFailed: Story = givenProject(
  builtElsewhere({ kind: 'error_event', afterEvents: 10, message: storyFailureMessage }),
  'failed',
  'Failed',
  'The build failed.',
);
