import type { Decorator, Meta, StoryObj } from '@storybook/react-vite';
import { AgentBuilder } from 'agent-embed';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { agentParameters, installCodehost, storyPrompt, storyUser } from './story-agent.js';
import { prepare, reach } from './story-states.js';

const meta = {
  title: 'Builder/AgentBuilder',
  component: AgentBuilder,
  // Stories never leave the page: the code-host installation address goes to a spy.
  args: { codehost: { navigate: fn() } },
  argTypes: {
    codehost: {
      control: false,
      table: { type: { summary: "{ mode?: 'redirect' | 'popup'; returnUrl?; navigate?; openWindow? }" } },
    },
    onSelectPlan: { control: false, table: { type: { summary: '(plan: SubscriptionPlan) => void' } } },
    onBuyCredits: { control: false, table: { type: { summary: '() => void' } } },
    toolbarSlot: { control: false, table: { type: { summary: 'ReactNode' } } },
    provider: { table: { defaultValue: { summary: 'vercel' } } },
    showProjects: { table: { defaultValue: { summary: 'true' } } },
  },
} satisfies Meta<typeof AgentBuilder>;

/**
 * A story that checks what a click or a key does rather than showing a state set up before it renders: it
 * runs as a test and stays in the sidebar, not on the docs page.
 */
const behaviour = { tags: ['!autodocs'] };

export default meta;
type Story = StoryObj<typeof meta>;

function builder(canvasElement: HTMLElement) {
  const element = within(canvasElement).getByRole('region', { name: 'App builder' });
  const view = within(element);
  // Deploy, code host, repository and plans live in a sheet (a dialog rendered in the provider's root).
  const sheet = () => within(within(canvasElement.ownerDocument.body).getByRole('dialog'));
  return { element, view, sheet, part: (name: string) => sheet().getByRole('region', { name }) };
}

export const Start: Story = {
  name: 'Before the first prompt',
  play: async ({ canvasElement }) => {
    const { element, view } = builder(canvasElement);
    await expect(element).toHaveAttribute('data-state', 'idle');
    await expect(view.getByRole('heading', { name: 'Create an app' })).toBeInTheDocument();
    await expect(view.getByText('Your app will appear here.')).toBeInTheDocument();
    await expect(view.getByRole('button', { name: 'Publish' })).toBeEnabled();
  },
};

export const StartPublish: Story = {
  ...behaviour,
  name: 'Behaviour: the Publish sheet before the first prompt',
  play: async ({ canvasElement }) => {
    const { view, part } = builder(canvasElement);
    await userEvent.click(view.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(part('Publish to the web')).toHaveAttribute('data-state', 'missing'));
    await expect(part('Publish to the web')).toHaveTextContent('Connect your Vercel account to deploy your app.');
    await waitFor(() => expect(part('Save the code to GitHub')).toHaveAttribute('data-state', 'missing'));
  },
};

export const Gone: Story = {
  name: 'A project that is gone, with its Publish sheet',
  parameters: agentParameters(reach.gone),
  play: async ({ canvasElement }) => {
    const { view, part } = builder(canvasElement);
    const toolbar = view.getByRole('toolbar');
    await waitFor(() => expect(toolbar).toHaveTextContent('Untitled app'));
    await waitFor(() => expect(toolbar).toHaveTextContent('Not found'));
    await userEvent.click(view.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(part('Publish to the web')).toHaveAttribute('data-state', 'missing'));
    await expect(view.getByRole('button', { name: 'New project' })).toBeInTheDocument();
  },
};

/** Two projects built on an earlier visit (through the client alone). */
const returningUser = agentParameters({
  setup: async (agent) => {
    await agent.client.generate({ prompt: storyPrompt });
    await agent.client.generate({ prompt: 'A habit tracker with streaks and reminders' });
  },
});

export const ReturningUser: Story = {
  name: 'A returning end user: the empty builder offers their latest projects',
  parameters: returningUser,
  play: async ({ canvasElement }) => {
    const { view } = builder(canvasElement);
    const recent = await view.findByRole('region', { name: 'Continue a project' });
    await expect(within(recent).getAllByRole('button')).toHaveLength(2);
  },
};

export const ReturningUserOpens: Story = {
  ...behaviour,
  name: 'Behaviour: a returning end user opens a recent project',
  parameters: returningUser,
  play: async ({ canvasElement }) => {
    const { element, view } = builder(canvasElement);
    const recent = await view.findByRole('region', { name: 'Continue a project' });
    const items = within(recent).getAllByRole('button');
    await userEvent.click(items[0]!);
    await waitFor(() => expect(element).toHaveAttribute('data-phase', 'ready'));
    await expect(view.getByLabelText('What should change?')).toBeInTheDocument();
    await expect(view.queryByRole('region', { name: 'Continue a project' })).toBeNull();
  },
};

export const Generate: Story = {
  ...behaviour,
  name: 'Behaviour: generate from the builder',
  play: async ({ canvasElement }) => {
    const { element, view } = builder(canvasElement);
    await userEvent.type(view.getByLabelText('Describe the app you want'), storyPrompt);
    await userEvent.click(view.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'completed'));
    await expect(view.getByTitle('Preview of the generated app')).toBeInTheDocument();
  },
};

/** A completed project, the code host and Vercel connected. */
const readyToShip = agentParameters({
  setup: async (agent) => {
    await installCodehost(agent);
    await agent.client.deployments.connect('vercel', {
      external_user_id: storyUser.id,
      token: 'studio-ada:story-token',
    });
    await reach.completed.setup?.(agent);
  },
});

export const ReadyToShip: Story = {
  name: 'Completed, code host connected, deploy connected',
  args: { showPlans: true },
  parameters: readyToShip,
  play: async ({ canvasElement }) => {
    const { element, view } = builder(canvasElement);
    await expect(element).toHaveAttribute('data-state', 'completed');
    await expect(view.getByTitle('Preview of the generated app')).toBeInTheDocument();
    await expect(view.getByRole('region', { name: 'Conversation' })).toHaveTextContent(storyPrompt);
    await expect(view.getByRole('button', { name: 'Publish' })).toBeEnabled();
  },
};

export const ReadyToShipSheets: Story = {
  ...behaviour,
  name: 'Behaviour: the Plans and Publish sheets of a ready app, deploying',
  args: { showPlans: true },
  parameters: readyToShip,
  play: async ({ canvasElement }) => {
    const { view, part } = builder(canvasElement);
    await userEvent.click(view.getByRole('button', { name: 'Plans' }));
    await waitFor(() => expect(part('Plans')).toHaveAttribute('data-state', 'success'));
    await userEvent.click(within(canvasElement.ownerDocument.body).getByRole('button', { name: 'Close' }));
    await userEvent.click(view.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(part('Publish to the web')).toHaveAttribute('data-state', 'connected'));
    await waitFor(() => expect(part('Save the code to GitHub')).toHaveAttribute('data-state', 'connected'));
    await waitFor(() => expect(part('Repository')).toHaveAttribute('data-state', 'ready'));
    await userEvent.click(within(part('Publish to the web')).getByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(part('Publish to the web')).toHaveAttribute('data-state', 'deployed'));
  },
};

/** Where the builder says that credits ran out, on screen (not the build log's screen-reader announcement). */
function creditsTold(element: HTMLElement) {
  return within(element)
    .queryAllByText(/run out of credits|credits ran out/i)
    .filter((node) => node.closest('.ae-visually-hidden') === null);
}

export const OutOfCreditsBefore: Story = {
  name: 'Out of credits before a build: told once, by the prompt box; Buy credits opens the plans',
  args: { showPlans: true },
  parameters: agentParameters(reach.creditsExhaustedBefore),
  play: async ({ canvasElement }) => {
    const { element, view } = builder(canvasElement);
    const alert = await view.findByRole('alert');
    await expect(alert).toHaveTextContent('You have run out of credits. Buy more credits to continue.');
    // Nothing was built: no pill, no build log, a neutral stage.
    await expect(element).toHaveAttribute('data-phase', 'idle');
    await expect(view.queryByRole('region', { name: 'Build progress' })).not.toBeInTheDocument();
    await expect(view.getByText('Your app will appear here.')).toBeInTheDocument();
    await expect(creditsTold(element)).toHaveLength(1);
    await expect(within(alert).getByRole('button', { name: 'Buy credits' })).toBeEnabled();
  },
};

export const OutOfCreditsDuring: Story = {
  name: 'Credits ran out during a build: told once, by the build log on the stage',
  args: { showPlans: true },
  parameters: agentParameters(reach.creditsExhaustedDuring),
  play: async ({ canvasElement }) => {
    const { element, view } = builder(canvasElement);
    await expect(element).toHaveAttribute('data-phase', 'credits_exhausted');
    const log = view.getByRole('region', { name: 'Build progress' });
    await expect(log).toHaveTextContent('Your credits ran out.');
    await expect(view.getByRole('region', { name: 'Conversation' })).toHaveTextContent(storyPrompt);
    // No app to preview: the log, with its next step, has the stage.
    await expect(view.getByRole('group', { name: 'Preview' })).toContainElement(log);
    await expect(view.queryByRole('region', { name: 'App preview' })).not.toBeInTheDocument();
    await expect(creditsTold(element)).toHaveLength(1);
    await expect(within(log).getByRole('button', { name: 'Buy credits' })).toBeEnabled();
  },
};

export const ChangeLostThenFoundBuilding: Story = {
  ...behaviour,
  name: 'Behaviour: a change whose answer was lost, found building, then built',
  // The store's first look comes 3 s after the loss, and the change builds for about 6 s.
  parameters: { ...agentParameters(prepare.changeLostThenFound), testTimeoutMs: 20_000 },
  play: async ({ canvasElement }) => {
    const { element, view } = builder(canvasElement);
    const change = 'Make the header sticky please';
    await userEvent.type(await view.findByLabelText('What should change?'), change);
    await userEvent.click(view.getByRole('button', { name: 'Send follow-up' }));
    // The prompt box says the change may have reached the server until a status poll finds it building (the pill's
    // own poll may find it before the store's look 3 s later). Then every part says so at once: the doubt goes, and
    // the change is a turn of the conversation, built on the stage.
    await waitFor(
      () => {
        expect(view.getByRole('region', { name: 'Conversation' })).toHaveTextContent(change);
        expect(view.queryByRole('alert')).not.toBeInTheDocument();
      },
      { timeout: 6_000 },
    );
    await expect(view.getByLabelText('What should change?')).toHaveValue('');
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'completed'), { timeout: 10_000 });
    await expect(view.getByRole('button', { name: 'Send follow-up' })).toBeEnabled();
    await expect(view.queryByRole('alert')).not.toBeInTheDocument();
  },
};

/** Renders the builder in a box of `width` pixels: it lays itself out by its own width, not the window's. */
function atWidth(width: number): Decorator {
  function AtWidth(Story: Parameters<Decorator>[0]) {
    return (
      <div style={{ width, maxWidth: '100%' }}>
        <Story />
      </div>
    );
  }
  return AtWidth;
}

// jsdom has no layout (no ResizeObserver): there the builder stays wide, and the narrow tabs are checked in Chromium.
const hasLayout = typeof ResizeObserver !== 'undefined';

export const Desktop: Story = {
  name: 'Completed, desktop (1280 px)',
  decorators: [atWidth(1280)],
  parameters: agentParameters(reach.completed),
  play: async ({ canvasElement }) => {
    const { element, view } = builder(canvasElement);
    await expect(element).toHaveAttribute('data-layout', 'wide');
    await expect(view.getByRole('group', { name: 'Preview' })).toBeInTheDocument();
    await expect(view.getByTitle('Preview of the generated app')).toBeInTheDocument();
  },
};

export const Tablet: Story = {
  name: 'Completed, tablet (800 px)',
  decorators: [atWidth(800)],
  parameters: agentParameters(reach.completed),
  play: async ({ canvasElement }) => {
    const { element, view } = builder(canvasElement);
    await expect(element).toHaveAttribute('data-layout', 'wide');
    await expect(view.getByRole('group', { name: 'Chat' })).toBeInTheDocument();
  },
};

export const Mobile: Story = {
  name: 'Completed, mobile (390 px): Chat, Preview and Publish tabs',
  decorators: [atWidth(390)],
  parameters: agentParameters(reach.completed),
  play: async ({ canvasElement }) => {
    const { element, view } = builder(canvasElement);
    if (!hasLayout) return expect(element).toHaveAttribute('data-layout', 'wide');
    await waitFor(() => expect(element).toHaveAttribute('data-layout', 'narrow'));
    const chat = view.getByRole('tab', { name: 'Chat' });
    await expect(chat).toHaveAttribute('aria-selected', 'true');
    await expect(view.getByRole('region', { name: 'Conversation' })).toHaveTextContent(storyPrompt);
  },
};

export const MobileTabs: Story = {
  ...behaviour,
  name: 'Behaviour: mobile tabs by keyboard',
  decorators: [atWidth(390)],
  parameters: agentParameters(reach.completed),
  play: async ({ canvasElement }) => {
    const { element, view } = builder(canvasElement);
    if (!hasLayout) return expect(element).toHaveAttribute('data-layout', 'wide');
    await waitFor(() => expect(element).toHaveAttribute('data-layout', 'narrow'));
    const chat = view.getByRole('tab', { name: 'Chat' });
    chat.focus();
    await userEvent.keyboard('{ArrowRight}');
    await expect(view.getByRole('tab', { name: 'Preview' })).toHaveFocus();
    await expect(view.getByTitle('Preview of the generated app')).toBeInTheDocument();
    await userEvent.keyboard('{End}');
    await expect(view.getByRole('tabpanel', { name: 'Publish' })).toBeInTheDocument();
  },
};
