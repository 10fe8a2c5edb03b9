import type { Meta, StoryObj } from '@storybook/react-vite';
import { DeployButton } from 'agent-embed';
import { agentApiMessages, type DeploymentConnection } from 'agent-embed/core';
import { expect, screen, waitFor, within } from 'storybook/test';
import {
  agencyServerClient,
  agentParameters,
  currentGeneration,
  storyUser,
  type AgentStoryParameters,
  type StoryAgent,
} from './story-agent.js';
import { reach } from './story-states.js';

/**
 * Every state below is set up before the story renders (the mock, the store's connect and deploy actions, and
 * `defaultDialogOpen` for the dialog's states), so the docs page shows each one as it is; the play functions
 * only check what is shown.
 */
const meta = {
  title: 'Deploy/DeployButton',
  component: DeployButton,
  args: { provider: 'vercel' },
  argTypes: {
    provider: { control: 'select', options: ['vercel', 'netlify', 'heroku'] },
    onDeployed: { control: false, table: { type: { summary: '(deployment: Deployment) => void' } } },
    defaultDialogOpen: { table: { defaultValue: { summary: 'false' } } },
  },
  // Every story has a completed project to deploy.
  parameters: agentParameters(reach.completed),
} satisfies Meta<typeof DeployButton>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A token the mock's Vercel accepts, for the account `studio-ada`. */
const acceptedToken = 'studio-ada:story-token';

/** The dialog is modal: on the docs page its stories get a frame of their own, so it covers only that frame. */
const inFrame = { docs: { story: { inline: false, iframeHeight: 460 } } };

function region(canvasElement: HTMLElement) {
  const element = within(canvasElement).getByRole('region', { name: 'Publish to the web' });
  return { element, view: within(element) };
}

/** The completed project, then whatever else the story needs. */
function withProject(then: (agent: StoryAgent) => Promise<unknown> | void): AgentStoryParameters {
  return {
    setup: async (agent) => {
      await reach.completed.setup?.(agent);
      await then(agent);
    },
  };
}

/** The story user's connect through the store, as the dialog sends it. */
function connectStoryUser(agent: StoryAgent, token = acceptedToken) {
  return agent.store.getState().connectDeployment('vercel', storyUser.id, token);
}

/** Connected, then the story's project deployed through the store (as the Deploy button does). */
async function connectAndDeploy(agent: StoryAgent): Promise<void> {
  await connectStoryUser(agent);
  const projectId = currentGeneration(agent.store.getState())?.projectId;
  if (projectId === undefined) throw new Error('The story has no project.');
  await agent.store.getState().deploy('vercel', projectId, storyUser.id);
}

/** Connected, with the connection's detailed view answering `fields` over the mock's. */
function connectedAnswering(fields: Partial<DeploymentConnection>): AgentStoryParameters {
  return withProject(async (agent) => {
    await agent.client.deployments.connect('vercel', { external_user_id: storyUser.id, token: acceptedToken });
    const getConnection = agent.client.deployments.getConnection;
    agent.client.deployments.getConnection = async (...args) => ({ ...(await getConnection(...args)), ...fields });
  });
}

async function openDialog() {
  const dialog = await screen.findByRole('dialog', { name: 'Connect Vercel' });
  return { dialog, input: within(dialog).getByLabelText<HTMLInputElement>('Vercel access token') };
}

export const NoConnection: Story = {
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'missing'));
    await expect(view.getByText('Connect your Vercel account to deploy your app.')).toBeInTheDocument();
    // One primary action: the connect that unlocks deploying, no disabled deploy above it.
    await expect(view.queryByRole('button', { name: 'Deploy to Vercel' })).not.toBeInTheDocument();
    await expect(view.getByRole('button', { name: 'Connect Vercel' })).toBeEnabled();
  },
};

export const Connecting: Story = {
  name: 'Connecting (token sent, answer pending)',
  args: { defaultDialogOpen: true },
  parameters: {
    ...agentParameters(
      withProject((agent) => {
        // Frozen in the state: the provider's check of the token never answers.
        agent.client.deployments.connect = () => new Promise(() => {});
        void connectStoryUser(agent);
      }),
    ),
    ...inFrame,
  },
  play: async ({ canvasElement }) => {
    const { dialog, input } = await openDialog();
    await expect(within(dialog).getByRole('button', { name: 'Connecting…' })).toBeDisabled();
    await expect(input.value).toBe('');
    await expect(input).toBeDisabled();
    await expect(canvasElement.ownerDocument.body.innerHTML).not.toContain(acceptedToken);
  },
};

export const Connected: Story = {
  parameters: agentParameters(withProject((agent) => connectStoryUser(agent))),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'connected'));
    await expect(view.getByText('Connected as studio-ada')).toBeInTheDocument();
    await expect(element.textContent).not.toContain('(Vercel)');
    await expect(view.getByRole('button', { name: 'Use another account' })).toBeInTheDocument();
  },
};

export const ConnectedUnnamed: Story = {
  name: 'Connected (the answer names no account)',
  parameters: agentParameters(
    // The proxy keeps null for any field: an upstream that names no account still makes a connection.
    connectedAnswering({
      provider_account_name: null as unknown as string,
      provider_account_email: null as unknown as string,
    }),
  ),
  play: async ({ canvasElement }) => {
    const { element } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'connected'));
    await expect(element.querySelector('.ae-connection-text .ae-truncate')).toHaveTextContent(/^Connected$/);
    await expect(element.textContent).not.toMatch(/null|Connected as/);
  },
};

export const Expired: Story = {
  parameters: agentParameters(
    // The mock stores tokens without an expiry; the real API may send one that has passed.
    connectedAnswering({ expires_at: '2024-01-01T00:00:00Z' }),
  ),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'expired'));
    await expect(view.getByText('Your Vercel connection has expired. Connect again to deploy.')).toBeInTheDocument();
    await expect(view.queryByRole('button', { name: 'Deploy to Vercel' })).not.toBeInTheDocument();
    await expect(view.getByRole('button', { name: 'Connect Vercel' })).toBeEnabled();
  },
};

export const ProviderRejection: Story = {
  name: 'Provider rejects the token (422)',
  args: { defaultDialogOpen: true },
  parameters: {
    ...agentParameters(withProject((agent) => connectStoryUser(agent, 'bad_revoked_token'))),
    ...inFrame,
  },
  play: async () => {
    const { dialog, input } = await openDialog();
    // The provider's own words go to onError; the field says the library's, in the end user's language.
    const error = await within(dialog).findByText(
      'This token was not accepted. Check that it is complete and still valid, then paste it again.',
    );
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(input).toHaveAttribute('aria-describedby', error.id);
    await expect(input.value).toBe('');
  },
};

export const AlreadyConnectedElsewhere: Story = {
  name: 'Account connected to another end user (409)',
  args: { defaultDialogOpen: true },
  parameters: {
    ...agentParameters(
      withProject(async (agent) => {
        // Another end user of the same agency, signed in elsewhere, connected the account first.
        await agencyServerClient(agent).deployments.connect('vercel', {
          external_user_id: 'someone-else',
          token: 'shared-studio:first',
        });
        await connectStoryUser(agent, 'shared-studio:second');
      }),
    ),
    ...inFrame,
  },
  play: async () => {
    const { dialog, input } = await openDialog();
    const alert = await within(dialog).findByRole('alert');
    await expect(alert).toHaveTextContent('already connected to someone else here');
    // The API's words are the agency's (onError), not the end user's.
    await expect(alert).not.toHaveTextContent(agentApiMessages.providerAccountTaken);
    await expect(input).not.toHaveAttribute('aria-invalid', 'true');
  },
};

export const DeployOk: Story = {
  name: 'Deploy ok',
  parameters: agentParameters(withProject(connectAndDeploy)),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'deployed'));
    await expect(view.getByText('Deployed')).toBeInTheDocument();
    await expect(view.getByText('Live')).toBeInTheDocument();
    await expect(view.getByText('Connected as studio-ada')).toBeInTheDocument();
    await expect(view.getByRole('link', { name: /^Open the deployment/ })).toHaveAttribute(
      'href',
      expect.stringMatching(/^https:\/\/.+\.vercel\.mock\.agent-embed\.test\/$/),
    );
  },
};

export const DeployFailed: Story = {
  parameters: agentParameters(
    withProject(async (agent) => {
      await agent.admin.injectFault({ kind: 'http_500', route: 'deploy' });
      await connectAndDeploy(agent);
    }),
  ),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'failed'));
    await expect(view.getByRole('alert')).toHaveTextContent('The deployment failed');
    await expect(view.getByRole('alert')).toHaveTextContent('Something went wrong on our side. Try again in a moment.');
    await expect(view.queryByRole('link')).not.toBeInTheDocument();
  },
};

export const RedeployFailed: Story = {
  name: 'Redeploy failed (the site stays live)',
  parameters: agentParameters(
    withProject(async (agent) => {
      await connectAndDeploy(agent);
      await agent.admin.injectFault({ kind: 'http_500', route: 'deploy' });
      const projectId = currentGeneration(agent.store.getState())?.projectId;
      if (projectId !== undefined) await agent.store.getState().deploy('vercel', projectId, storyUser.id);
    }),
  ),
  play: async ({ canvasElement }) => {
    const { view } = region(canvasElement);
    const alert = await view.findByRole('alert');
    await expect(alert).toHaveTextContent('The new version was not deployed; the site stays as it was');
    // What was published is still published: its address stays beside the failure, and the next click redeploys it.
    await expect(view.getByRole('link', { name: /^Open the deployment/ })).toHaveAttribute(
      'href',
      expect.stringMatching(/^https:\/\/.+\.vercel\.mock\.agent-embed\.test\/$/),
    );
    await expect(view.getByRole('button', { name: 'Redeploy' })).toBeEnabled();
  },
};

export const DeployRateLimited: Story = {
  name: 'Deploy refused for a while (429, live countdown)',
  parameters: agentParameters(
    withProject(async (agent) => {
      await agent.admin.injectFault({ kind: 'rate_limited', retryAfterSeconds: 20, route: 'deploy' });
      await connectAndDeploy(agent);
    }),
  ),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'failed'));
    await expect(view.getByRole('alert')).toHaveTextContent(/You can try again in \d+ s\./);
    // The API's words are the agency's (onError), not the end user's.
    await expect(view.getByRole('alert')).not.toHaveTextContent('Too Many Attempts.');
    // The deploy button waits out the countdown with it.
    await expect(view.getByRole('button', { name: 'Deploy to Vercel' })).toBeDisabled();
  },
};

export const UnknownProvider: Story = {
  args: { provider: 'heroku' },
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'unknown_provider'));
    await expect(element).toHaveTextContent('Deploying to this provider is not available.');
    await expect(view.queryByRole('button')).not.toBeInTheDocument();
  },
};

export const Netlify: Story = {
  args: { provider: 'netlify' },
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'missing'));
    await expect(view.getByRole('heading', { name: 'Publish to the web' })).toBeInTheDocument();
  },
};

/** Connected, while a follow-up changes the app: the app is still the one to ship, once the change is built. */
export const WhileAFollowUpBuilds: Story = {
  name: 'While a follow-up builds',
  parameters: agentParameters({
    setup: async (agent) => {
      await connectStoryUser(agent);
      await reach.followUpRunning.setup?.(agent);
    },
  }),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'connected'));
    await expect(view.getByText('You can deploy once the changes are built.')).toBeInTheDocument();
    await expect(view.queryByText('Generate an app first, then deploy it.')).not.toBeInTheDocument();
    await expect(view.getByRole('button', { name: 'Deploy to Vercel' })).toBeDisabled();
  },
};
