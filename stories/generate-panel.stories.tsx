import type { Meta, StoryObj } from '@storybook/react-vite';
import { GeneratePanel, LiveBuildLog } from 'agent-embed';
import { agentApiMessages, type AgentErrorKind, type Usage } from 'agent-embed/core';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { agentParameters, storyAgent, storyPrompt, type AgentStoryParameters, type StoryAgent } from './story-agent.js';
import { prepare, reach, storyBillingUrl } from './story-states.js';

const meta = {
  title: 'Generation/GeneratePanel',
  component: GeneratePanel,
  argTypes: {
    onComplete: { control: false, table: { type: { summary: '(result: GenerationResult) => void' } } },
    onBuyCredits: { control: false, table: { type: { summary: '() => void' } } },
  },
} satisfies Meta<typeof GeneratePanel>;

/**
 * A story that checks a behaviour (what a click or a key does) rather than showing a state: it runs as a test
 * and stays in the sidebar, but not on the docs page, where every story is a state set up before it renders.
 */
const behaviour = { tags: ['!autodocs'] };

export default meta;
type Story = StoryObj<typeof meta>;

function panel(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  const form = canvas.getByRole('form');
  return {
    canvas,
    form,
    prompt: () => canvas.getByRole('textbox'),
    submit: () => within(form).getByRole('button', { name: /^(Generate|Send follow-up|Working…)$/ }),
  };
}

/** Types a valid prompt and presses Generate, as a person would. */
async function submitPrompt(canvasElement: HTMLElement, prompt = storyPrompt) {
  const { prompt: field, submit } = panel(canvasElement);
  await userEvent.type(field(), prompt);
  await userEvent.click(submit());
}

async function generationPosts(agent: StoryAgent) {
  return (await agent.admin.requests()).filter(
    (request) => request.method === 'POST' && /\/agent\/generate(\/|$)/.test(request.path),
  );
}

export const Idle: Story = {
  play: async ({ canvasElement }) => {
    const { canvas, form, prompt, submit } = panel(canvasElement);
    await expect(form).toHaveAttribute('data-state', 'idle');
    await expect(canvas.getByRole('heading', { name: 'Create an app' })).toBeInTheDocument();
    await expect(prompt()).toHaveAccessibleName('Describe the app you want');
    await expect(prompt()).toHaveAccessibleDescription('Say what it is for, the pages it needs and the look you want.');
    await expect(canvas.getByRole('radio', { name: 'Build' })).toBeChecked();
    await expect(canvas.getByRole('radio', { name: 'Design' })).not.toBeChecked();
    await expect(submit()).toBeEnabled();
    await expect(canvas.queryByRole('button', { name: 'Stop watching' })).not.toBeInTheDocument();
  },
};

export const IdleDark: Story = {
  globals: { colorScheme: 'dark' },
  play: async (context) => {
    await Idle.play?.(context);
    await expect(context.canvasElement.querySelector('[data-agent-embed]')).toHaveAttribute(
      'data-color-scheme',
      'dark',
    );
  },
};

export const IdleCompactAppearance: Story = {
  globals: { appearance: 'compact' },
  play: async (context) => {
    await Idle.play?.(context);
    const root = context.canvasElement.querySelector<HTMLElement>('[data-agent-embed]');
    await expect(root?.style.getPropertyValue('--agent-embed-font-size')).toBe('13px');
    await expect(root?.style.getPropertyValue('--agent-embed-spacing-unit')).toBe('3px');
  },
};

export const DesignMode: Story = {
  args: { defaultMode: 'design' },
  play: async (context) => {
    const { canvas } = panel(context.canvasElement);
    await expect(canvas.getByRole('radio', { name: 'Design' })).toBeChecked();
    await expect(canvas.getByRole('radio', { name: 'Design' })).toHaveAccessibleDescription(
      'A frontend-focused design.',
    );
  },
};

export const PromptTooShort: Story = {
  ...behaviour,
  name: 'Behaviour: a prompt under 10 characters is refused before sending',
  args: { onComplete: fn() },
  play: async (context) => {
    const { canvas, prompt } = panel(context.canvasElement);
    await submitPrompt(context.canvasElement, '  short  ');
    const message = canvas.getByText('The prompt must be at least 10 characters.');
    await expect(prompt()).toHaveAttribute('aria-invalid', 'true');
    await expect(prompt().getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    await expect(prompt()).toHaveFocus();
    // Checked before sending: nothing reached the API.
    await expect(await generationPosts(storyAgent(context))).toHaveLength(0);
    await expect(context.args.onComplete).not.toHaveBeenCalled();
  },
};

export const Submitting: Story = {
  parameters: agentParameters(reach.submitting),
  play: async (context) => {
    const { canvas, form, prompt } = panel(context.canvasElement);
    await expect(form).toHaveAttribute('data-state', 'submitting');
    await expect(form).toHaveAttribute('aria-busy', 'true');
    await expect(canvas.getByRole('button', { name: 'Working…' })).toBeDisabled();
    await expect(prompt()).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Stop watching' })).toBeEnabled();
    // The POST goes once the click's state has rendered (in the task after it, in a browser).
    await waitFor(async () => expect(await generationPosts(storyAgent(context))).toHaveLength(1));
  },
};

export const DoubleClickSendsOnePost: Story = {
  ...behaviour,
  name: 'Behaviour: a double click sends one POST',
  parameters: agentParameters(prepare.holdBeforeFirstEvent),
  play: async (context) => {
    const { form, prompt, submit } = panel(context.canvasElement);
    await userEvent.type(prompt(), storyPrompt);
    await userEvent.dblClick(submit());
    await waitFor(() => expect(form).toHaveAttribute('data-state', 'submitting'));
    // The request has reached the mock (it created the project); the second click sent nothing.
    await waitFor(async () => expect(await storyAgent(context).admin.projects()).toHaveLength(1));
    await expect(await generationPosts(storyAgent(context))).toHaveLength(1);
  },
};

export const Provisioning: Story = {
  name: 'Provisioning 35%',
  parameters: agentParameters(reach.provisioning(35)),
  play: async ({ canvasElement }) => {
    const { canvas, form, prompt } = panel(canvasElement);
    await expect(form).toHaveAttribute('data-state', 'provisioning');
    await expect(prompt()).toBeDisabled();
    await expect(canvas.getByRole('group', { name: 'Mode' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Stop watching' })).toBeEnabled();
  },
};

export const Generating: Story = {
  name: 'Generating (5 files)',
  parameters: agentParameters(reach.generating(5)),
  play: async ({ canvasElement }) => {
    const { canvas, form } = panel(canvasElement);
    await expect(form).toHaveAttribute('data-state', 'generating');
    await expect(canvas.getByRole('button', { name: 'Working…' })).toBeDisabled();
  },
};

export const CancelWhileProvisioning: Story = {
  name: 'Stopped watching while provisioning',
  parameters: agentParameters(reach.cancelled),
  play: async (context) => {
    const { form, submit } = panel(context.canvasElement);
    await expect(form).toHaveAttribute('data-state', 'aborted');
    // The panel stays the project's: its change waits for the build the server may still be running.
    await expect(submit()).toHaveAccessibleName('Send follow-up');
    await expect(submit()).toBeDisabled();
    await expect(submit()).toHaveAccessibleDescription(
      'This app is being built. You can send a follow-up once it is done.',
    );
  },
};

export const CompletedOffersFollowUp: Story = {
  name: 'Completed: follow-up offered',
  parameters: agentParameters(reach.completed),
  play: async (context) => {
    const { canvas, form, prompt } = panel(context.canvasElement);
    await expect(form).toHaveAttribute('data-state', 'completed');
    await expect(canvas.getByRole('heading', { name: 'Refine your app' })).toBeInTheDocument();
    await expect(canvas.getByText(/^Changes go to /)).toBeInTheDocument();
    await expect(prompt()).toHaveAccessibleName('What should change?');
    await expect(canvas.getByRole('button', { name: 'Send follow-up' })).toBeEnabled();
    await expect(canvas.queryByRole('group', { name: 'Mode' })).not.toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: 'New project' })).toBeEnabled();
  },
};

export const FollowUp: Story = {
  name: 'A follow-up done',
  parameters: agentParameters(reach.followUpCompleted),
  play: async (context) => {
    const agent = storyAgent(context);
    const projectId = (await agent.admin.projects())[0]?.id ?? '';
    const { form } = panel(context.canvasElement);
    await expect(form).toHaveAttribute('data-state', 'completed');
    const posts = await generationPosts(agent);
    await expect(posts.map((post) => post.path.replace(/^.*\/agent/, '/agent'))).toEqual([
      '/agent/generate',
      `/agent/generate/${projectId}`,
    ]);
    await expect((await agent.admin.projects())[0]?.prompts).toHaveLength(2);
  },
};

export const CreditsExhaustedBefore: Story = {
  name: 'Credits exhausted before (400): Buy credits',
  args: { onBuyCredits: () => {} },
  parameters: agentParameters(reach.creditsExhaustedBefore),
  play: async (context) => {
    const { canvas, form } = panel(context.canvasElement);
    const alert = await canvas.findByRole('alert');
    await expect(alert).toHaveTextContent('Your app could not be started');
    await expect(alert).toHaveTextContent('You have run out of credits. Buy more credits to continue.');
    // The API's own words are the agency's (onError), not the end user's.
    await expect(alert).not.toHaveTextContent(agentApiMessages.insufficientCredits);
    await expect(alert).toHaveAttribute('data-kind', 'insufficient_credits');
    await expect(form).toHaveAttribute('data-state', 'credits_exhausted');
    // Nothing was built, so the form owns this failure and its next step.
    await expect(within(alert).getByRole('button', { name: 'Buy credits' })).toBeEnabled();
  },
};

export const CreditsExhaustedBeforeBuyLink: Story = {
  name: 'Credits exhausted before (400): a link to the billing page',
  args: { buyCreditsUrl: storyBillingUrl },
  parameters: agentParameters(reach.creditsExhaustedBefore),
  play: async (context) => {
    const { canvas } = panel(context.canvasElement);
    const alert = await canvas.findByRole('alert');
    const link = within(alert).getByRole('link', { name: 'Buy credits' });
    await expect(link).toHaveAttribute('href', storyBillingUrl);
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  },
};

export const CreditsExhaustedDuring: Story = {
  name: 'Credits exhausted during (event)',
  parameters: agentParameters(reach.creditsExhaustedDuring),
  play: async (context) => {
    const { canvas, form, submit } = panel(context.canvasElement);
    await expect(form).toHaveAttribute('data-state', 'credits_exhausted');
    // The stream had started: the build log tells the story, the form is not refused.
    await expect(canvas.queryByRole('alert')).not.toBeInTheDocument();
    await expect(submit()).toBeEnabled();
  },
};

export const Failed: Story = {
  parameters: agentParameters(reach.failed),
  play: async (context) => {
    const { form, submit } = panel(context.canvasElement);
    await expect(form).toHaveAttribute('data-state', 'failed');
    await expect(submit()).toBeEnabled();
  },
};

export const Recovering: Story = {
  name: 'Interrupted, recovering',
  parameters: agentParameters(reach.recovering),
  play: async (context) => {
    const { canvas, form, submit } = panel(context.canvasElement);
    await expect(form).toHaveAttribute('data-state', 'recovering');
    await expect(submit()).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Stop watching' })).toBeEnabled();
  },
};

export const RecoveringThenStopWatching: Story = {
  ...behaviour,
  name: 'Behaviour: stop watching while recovering',
  parameters: agentParameters(prepare.cutAndStalled),
  play: async (context) => {
    const { canvas, form, submit } = panel(context.canvasElement);
    await submitPrompt(context.canvasElement);
    await waitFor(() => expect(form).toHaveAttribute('data-state', 'recovering'));
    await expect(submit()).toBeDisabled();
    await userEvent.click(canvas.getByRole('button', { name: 'Stop watching' }));
    // Stopped, as from a live stream: the build may go on, and polling shows its end when it comes.
    await waitFor(() => expect(form).toHaveAttribute('data-state', 'aborted'));
    await expect(submit()).toHaveAccessibleName('Send follow-up');
    await expect(submit()).toBeDisabled();
    await expect(await generationPosts(storyAgent(context))).toHaveLength(1);
  },
};

export const ConnectionDroppedBeforeAnyAnswer: Story = {
  name: 'Connection dropped before any answer',
  parameters: agentParameters(prepare.answerLost),
  play: async (context) => {
    const { canvas, form, prompt, submit } = panel(context.canvasElement);
    await submitPrompt(context.canvasElement);
    const alert = await canvas.findByRole('alert');
    // The server may have received it: not "could not be started", and the app shows up among the projects if so.
    await expect(alert).toHaveTextContent(
      'The connection droppedIf your app started building anyway, it will show up among your projects.',
    );
    await expect(alert).not.toHaveTextContent('could not be started');
    await expect(form).toHaveAttribute('data-state', 'failed');
    await expect(prompt()).toHaveValue(storyPrompt);
    await expect(submit()).toBeEnabled();
    // Sent once, and built there: nothing sends it again.
    await waitFor(async () => expect(await storyAgent(context).admin.projects()).toHaveLength(1));
    await expect(await generationPosts(storyAgent(context))).toHaveLength(1);
  },
};

export const ChangeLostBeforeAnyAnswer: Story = {
  name: 'A change whose connection dropped before any answer',
  parameters: agentParameters(prepare.changeLost),
  play: async (context) => {
    const { canvas, form, prompt, submit } = panel(context.canvasElement);
    await userEvent.type(prompt(), 'Make the header sticky please');
    await userEvent.click(submit());
    const alert = await canvas.findByRole('alert');
    // It may have reached the server: not "could not be sent", and nothing sends it again.
    await expect(alert).toHaveTextContent(
      'The connection droppedYour change may have reached the server. Check your app before sending it again.',
    );
    await expect(form).toHaveAccessibleName('Refine your app');
    await expect(prompt()).toHaveValue('Make the header sticky please');
    await waitFor(async () => expect(await generationPosts(storyAgent(context))).toHaveLength(2));
  },
};

export const ChangeLostThenFoundBuilding: Story = {
  ...behaviour,
  name: 'Behaviour: a change whose answer was lost, found building',
  // The store's first look comes 3 s after the loss, and the change builds for about 6 s.
  parameters: { ...agentParameters(prepare.changeLostThenFound), testTimeoutMs: 20_000 },
  play: async (context) => {
    const { canvas, form, prompt, submit } = panel(context.canvasElement);
    await userEvent.type(prompt(), 'Make the header sticky please');
    await userEvent.click(submit());
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Your change may have reached the server.');
    // 3 s later the store looks, finds the change building, and follows it: the doubt goes with the change's text.
    await waitFor(() => expect(canvas.queryByRole('alert')).not.toBeInTheDocument(), { timeout: 6_000 });
    await expect(prompt()).toHaveValue('');
    await expect(form.getAttribute('data-state')).toMatch(/^(recovering|generating)$/);
    await waitFor(() => expect(form).toHaveAttribute('data-state', 'completed'), { timeout: 10_000 });
    await expect(submit()).toHaveAccessibleName('Send follow-up');
    await expect(submit()).toBeEnabled();
    await expect(await generationPosts(storyAgent(context))).toHaveLength(2);
  },
};

function refused(parameters: AgentStoryParameters, kind: AgentErrorKind, message: string): Story {
  return {
    parameters: agentParameters(parameters),
    play: async (context) => {
      const { canvas, form, submit } = panel(context.canvasElement);
      const alert = await canvas.findByRole('alert');
      await expect(alert).toHaveAttribute('data-kind', kind);
      // The API's own words are the agency's (onError), not the end user's.
      await expect(alert).not.toHaveTextContent(message);
      await expect(form).toHaveAttribute('data-state', 'failed');
      // A rate limit holds the action until its countdown ends; anything else can be tried again at once.
      if (kind === 'rate_limited') await expect(submit()).toBeDisabled();
      else await expect(submit()).toBeEnabled();
    },
  };
}

export const RateLimited: Story = refused(reach.rateLimited, 'rate_limited', agentApiMessages.tooManyAttempts);
export const Unauthorized: Story = refused(reach.unauthorized, 'unauthorized', agentApiMessages.unauthorized);
export const TokenExpired: Story = refused(reach.expired, 'token_expired', agentApiMessages.tokenExpired);
export const TeamSuspended: Story = refused(reach.suspended, 'suspended', agentApiMessages.suspended);

/** A project being built elsewhere (another tab, an earlier visit): this store has only its status to go on. */
export const GivenProjectBuilding: Story = {
  name: 'Given a project being built elsewhere',
  parameters: agentParameters({
    setup: async (agent) => {
      // A paused build never answers: the story shows it while it runs.
      await agent.admin.injectFault({ kind: 'pause_after', events: 10 });
      void agent.client.generate({ prompt: storyPrompt }).catch(() => undefined);
      await waitFor(async () => expect(await agent.admin.projects()).toHaveLength(1));
    },
  }),
  render: (args, context) => <GeneratePanel {...args} projectId={storyAgent(context).projects[0]?.id ?? ''} />,
  play: async (context) => {
    const { form, submit } = panel(context.canvasElement);
    await expect(Object.keys(storyAgent(context).store.getState().generations)).toHaveLength(0);
    await waitFor(() => expect(submit()).toBeDisabled());
    await expect(submit()).toHaveAccessibleDescription(
      'This app is being built. You can send a follow-up once it is done.',
    );
    await expect(form).toHaveTextContent('Refine your app');
  },
};

/** The end user's quota as the agency's proxy reports it, used up (held by the store before render). */
async function quotaUsedUp(agent: StoryAgent) {
  const resetsAt = new Date();
  resetsAt.setUTCHours(24, 0, 0, 0);
  const usage: Usage = { used: 20, limit: 20, resets_at: resetsAt.toISOString(), period: 'day' };
  agent.store.setState({
    resources: { usage: { status: 'success', data: usage, error: undefined, updatedAt: Date.now() } },
  });
}

export const FailedWithTheQuotaUsedUp: Story = {
  name: 'Failed, with the quota used up',
  parameters: agentParameters({
    setup: async (agent) => {
      await reach.failed.setup?.(agent);
      await quotaUsedUp(agent);
    },
  }),
  render: (args) => (
    <>
      <GeneratePanel {...args} />
      <LiveBuildLog />
    </>
  ),
  play: async (context) => {
    const { form, submit, canvas } = panel(context.canvasElement);
    await expect(form).toHaveAttribute('data-state', 'failed');
    // The next build waits for the quota, and nothing offers one that would be refused.
    await expect(submit()).toBeDisabled();
    await expect(canvas.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    // The log's next step is that wait, never "try again in a moment"; it is said there once, not again in the form,
    // whose held Generate is described by the log's words.
    const alert = canvas.getByRole('alert');
    await expect(alert).toHaveTextContent('The build failed.You have used today’s 20 builds.');
    await expect(alert).not.toHaveTextContent(/try again/i);
    await waitFor(() => expect(form).not.toHaveTextContent('You have used today’s 20 builds.'));
    await expect(canvas.getAllByText(/^You have used today’s 20 builds\./)).toHaveLength(1);
    await expect(submit()).toHaveAccessibleDescription(/^You have used today’s 20 builds\. More at /);
  },
};

export const GivenProjectGone: Story = {
  name: 'Given a project that is gone',
  args: { projectId: 'proj_removed_4821' },
  play: async (context) => {
    const { form, submit } = panel(context.canvasElement);
    await waitFor(() => expect(submit()).toBeDisabled());
    await expect(submit()).toHaveAccessibleDescription(
      'This project could not be found. It may have been removed; start a new one.',
    );
    await expect(form).toHaveTextContent('Refine your app');
  },
};
