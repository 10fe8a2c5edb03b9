import type { Meta, StoryObj } from '@storybook/react-vite';
import { DeployButton } from 'agent-embed';
import { agentApiMessages } from 'agent-embed/core';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { agentParameters, storyUser, type AgentStoryParameters, type StoryAgent } from './story-agent.js';
import { reach } from './story-states.js';

const meta = {
  title: 'Deploy/DeployButton',
  component: DeployButton,
  args: { provider: 'vercel', onDeployed: fn() },
  // Every story has a completed project to deploy.
  parameters: agentParameters(reach.completed),
} satisfies Meta<typeof DeployButton>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A token the mock's Vercel accepts, for the account `studio-ada`. */
const acceptedToken = 'studio-ada:story-token';

function region(canvasElement: HTMLElement) {
  const element = within(canvasElement).getByRole('region', { name: /^Deploy to / });
  return { element, view: within(element) };
}

/** The completed project, then whatever else the story needs. */
function withProject(then: (agent: StoryAgent) => Promise<void> | void): AgentStoryParameters {
  return {
    setup: async (agent) => {
      await reach.completed.setup?.(agent);
      await then(agent);
    },
  };
}

async function connectStoryUser(agent: StoryAgent, token = acceptedToken): Promise<void> {
  await agent.client.deployments.connect('vercel', { external_user_id: storyUser.id, token });
}

/** Opens the dialog from the region and submits a token, as a person would. */
async function submitToken(canvasElement: HTMLElement, token: string, button = 'Connect Vercel') {
  const { element, view } = region(canvasElement);
  await waitFor(() => expect(element).toHaveAttribute('data-state', 'missing'));
  await userEvent.click(view.getByRole('button', { name: button }));
  const dialog = await screen.findByRole('dialog', { name: 'Connect Vercel' });
  const input = within(dialog).getByLabelText('Vercel access token');
  await userEvent.type(input, token);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
  return { dialog, input: input as HTMLInputElement };
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
  parameters: agentParameters(
    withProject((agent) => {
      // Frozen in the state: the provider's check of the token never answers.
      agent.client.deployments.connect = () => new Promise(() => {});
    }),
  ),
  play: async ({ canvasElement }) => {
    const { dialog, input } = await submitToken(canvasElement, acceptedToken, 'Connect Vercel');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Connecting…' })).toBeDisabled());
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

export const Expired: Story = {
  parameters: agentParameters(
    withProject(async (agent) => {
      await connectStoryUser(agent);
      // The mock stores tokens without an expiry; the real API may send one that has passed.
      const getConnection = agent.client.deployments.getConnection;
      agent.client.deployments.getConnection = async (...args) => ({
        ...(await getConnection(...args)),
        expires_at: '2024-01-01T00:00:00Z',
      });
    }),
  ),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'expired'));
    await expect(view.getByText('Your Vercel connection has expired. Connect again to deploy.')).toBeInTheDocument();
    await expect(view.queryByRole('button', { name: 'Deploy to Vercel' })).not.toBeInTheDocument();
    await userEvent.click(view.getByRole('button', { name: 'Connect Vercel' }));
    await expect(await screen.findByRole('dialog', { name: 'Connect Vercel' })).toBeInTheDocument();
  },
};

export const ProviderRejection: Story = {
  name: 'Provider rejects the token (422)',
  play: async ({ canvasElement }) => {
    const { dialog, input } = await submitToken(canvasElement, 'bad_revoked_token');
    const error = await within(dialog).findByText(
      'The token was rejected by Vercel. Check that it is valid and has not been revoked.',
    );
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(input).toHaveAttribute('aria-describedby', error.id);
    await expect(input.value).toBe('');
  },
};

export const AlreadyConnectedElsewhere: Story = {
  name: 'Account connected to another end user (409)',
  parameters: agentParameters(
    withProject(
      (agent) =>
        void agent.client.deployments.connect('vercel', {
          external_user_id: 'someone-else',
          token: 'shared-studio:first',
        }),
    ),
  ),
  play: async ({ canvasElement }) => {
    const { dialog } = await submitToken(canvasElement, 'shared-studio:second');
    const alert = await within(dialog).findByRole('alert');
    await expect(alert).toHaveTextContent('already connected to someone else here');
    // The API's words stay for support, inside the closed Details disclosure.
    await expect(alert.querySelector('details')).toHaveTextContent(agentApiMessages.providerAccountTaken);
  },
};

export const DeployOk: Story = {
  name: 'Deploy ok',
  parameters: agentParameters(withProject((agent) => connectStoryUser(agent))),
  play: async ({ canvasElement, args }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'connected'));
    await userEvent.click(view.getByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'deployed'));
    await expect(view.getByText('Deployed')).toBeInTheDocument();
    await expect(view.getByText('Live')).toBeInTheDocument();
    await expect(view.getByRole('link', { name: /^Open the deployment/ })).toHaveAttribute(
      'href',
      expect.stringMatching(/^https:\/\/.+\.vercel\.mock\.agent-embed\.test\/$/),
    );
    await expect(args.onDeployed).toHaveBeenCalledTimes(1);
  },
};

export const DeployOkAfterConnecting: Story = {
  name: 'Deploy ok, connecting first',
  play: async ({ canvasElement }) => {
    await submitToken(canvasElement, acceptedToken);
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'connected'));
    await userEvent.click(view.getByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'deployed'));
    await expect(view.getByText('Connected as studio-ada')).toBeInTheDocument();
    await expect(view.getByRole('link', { name: /^Open the deployment/ })).toBeInTheDocument();
  },
};

export const DeployFailed: Story = {
  parameters: agentParameters(
    withProject(async (agent) => {
      await connectStoryUser(agent);
      agent.api.admin.injectFault({ kind: 'http_500', route: 'deploy' });
    }),
  ),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'connected'));
    await userEvent.click(view.getByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'failed'));
    await expect(view.getByRole('alert')).toHaveTextContent('The deployment failed');
    await expect(view.getByRole('alert')).toHaveTextContent('Something went wrong on our side. Try again in a moment.');
    await expect(view.queryByRole('link')).not.toBeInTheDocument();
  },
};

export const DeployRateLimited: Story = {
  name: 'Deploy refused for a while (429, live countdown)',
  parameters: agentParameters(
    withProject(async (agent) => {
      await connectStoryUser(agent);
      agent.api.admin.injectFault({ kind: 'rate_limited', retryAfterSeconds: 20, route: 'deploy' });
    }),
  ),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'connected'));
    await userEvent.click(view.getByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'failed'));
    await expect(view.getByRole('alert')).toHaveTextContent(/You can try again in \d+ s\./);
    // The API's words only inside the closed Details disclosure.
    const details = view.getByRole('alert').querySelector('details')!;
    await expect(details.open).toBe(false);
    await expect(details).toHaveTextContent('Too Many Attempts.');
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
    await expect(view.getByRole('heading', { name: 'Deploy to Netlify' })).toBeInTheDocument();
  },
};
