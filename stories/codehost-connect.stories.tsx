import type { Meta, StoryObj } from '@storybook/react-vite';
import { CodehostConnect } from 'agent-embed';
import { agentApiMessages } from 'agent-embed/core';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { agentParameters, installCodehost, storyAgent, storyUser } from './story-agent.js';

const meta = {
  title: 'Code host/CodehostConnect',
  component: CodehostConnect,
  // Stories never leave the page: the installation address goes to a spy.
  args: { navigate: fn() },
  argTypes: {
    mode: { control: 'inline-radio', options: ['redirect', 'popup'], table: { defaultValue: { summary: 'redirect' } } },
    navigate: {
      control: false,
      table: { type: { summary: '(url: string) => void' }, defaultValue: { summary: 'window.location.assign' } },
    },
    openWindow: {
      control: false,
      table: {
        type: { summary: '(url: string, name: string) => Window | null' },
        defaultValue: { summary: 'window.open' },
      },
    },
  },
} satisfies Meta<typeof CodehostConnect>;

/**
 * A story that checks what a click does rather than showing a state set up before it renders: it runs as a
 * test and stays in the sidebar, not on the docs page.
 */
const behaviour = { tags: ['!autodocs'] };

export default meta;
type Story = StoryObj<typeof meta>;

const day = 24 * 60 * 60 * 1000;

function region(canvasElement: HTMLElement) {
  const element = within(canvasElement).getByRole('region', { name: 'Save the code to GitHub' });
  return { element, view: within(element) };
}

export const NotConnected: Story = {
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'missing'));
    await expect(view.getByText('Connect GitHub to keep your app’s code in a repository.')).toBeInTheDocument();
    await expect(view.getByRole('button', { name: 'Connect GitHub' })).toBeEnabled();
  },
};

export const Redirecting: Story = {
  ...behaviour,
  name: 'Behaviour: Connect sends the end user to the installation page',
  play: async (context) => {
    const { element, view } = region(context.canvasElement);
    // The story's mock's own install page (each story's mock has an origin of its own).
    const mockOrigin = new URL(storyAgent(context).baseUrl).origin.replaceAll('.', '\\.');
    await userEvent.click(await view.findByRole('button', { name: 'Connect GitHub' }));
    await waitFor(() =>
      expect(context.args.navigate).toHaveBeenCalledWith(
        expect.stringMatching(new RegExp(`^${mockOrigin}/__mock/codehost/install\\?state=`)),
      ),
    );
    await expect(element).toHaveAttribute('data-state', 'redirecting');
    await expect(view.getByRole('status')).toHaveTextContent('Taking you to the installation page…');
  },
};

export const Popup: Story = {
  ...behaviour,
  name: 'Behaviour: Connect in a popup',
  args: { mode: 'popup', openWindow: fn(() => ({ closed: false }) as unknown as Window) },
  play: async ({ canvasElement, args }) => {
    const { element, view } = region(canvasElement);
    await userEvent.click(await view.findByRole('button', { name: 'Connect GitHub' }));
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'popup'));
    await expect(args.openWindow).toHaveBeenCalledTimes(1);
    await expect(args.navigate).not.toHaveBeenCalled();
    await expect(view.getByRole('status')).toHaveTextContent('Finish the installation in the window that opened.');
  },
};

export const Connected: Story = {
  parameters: agentParameters({ setup: installCodehost, provider: { locale: 'en-GB' } }),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'connected'));
    await expect(view.getByText('Connected as ada-lovelace')).toBeInTheDocument();
    await expect(view.getByText('Active')).toBeInTheDocument();
    // The account once, its installation status and connection date beside it.
    await expect(element.querySelectorAll('time')).toHaveLength(1);
    await expect(element.textContent?.split('ada-lovelace')).toHaveLength(2);
    await expect(view.queryByRole('button', { name: 'Connect GitHub' })).not.toBeInTheDocument();
  },
};

export const ConnectedUnnamed: Story = {
  name: 'Connected (the answer names no login, an unknown installation status)',
  parameters: agentParameters({
    setup: async (agent) => {
      await installCodehost(agent);
      // The proxy keeps null for any field; a status the labels do not name is not shown in the API's words.
      const getConnection = agent.client.codehost.getConnection;
      agent.client.codehost.getConnection = async (...args) => ({
        ...(await getConnection(...args)),
        codehost_login: null as unknown as string,
        installation_status: 'PENDING_REVIEW',
      });
    },
  }),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'inactive'));
    await expect(element.querySelector('.ae-connection-text .ae-truncate')).toHaveTextContent(/^Connected$/);
    await expect(view.getByText('Unknown')).toBeInTheDocument();
    await expect(element.textContent).not.toMatch(/null|PENDING|Connected as/);
  },
};

export const Expired: Story = {
  parameters: agentParameters({ setup: installCodehost, store: { now: () => Date.now() + 400 * day } }),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'expired'));
    await expect(
      view.getByText('Your GitHub connection has expired. Connect again to keep saving your code.'),
    ).toBeInTheDocument();
    await expect(view.getByRole('button', { name: 'Connect again' })).toBeEnabled();
  },
};

export const InstallationSuspended: Story = {
  parameters: agentParameters({
    setup: async (agent) => {
      await installCodehost(agent);
      await agent.admin.setCodehostInstallationStatus(storyUser.id, 'suspended');
    },
  }),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'inactive'));
    await expect(view.getByText('Suspended')).toBeInTheDocument();
    await expect(
      view.getByText('The GitHub app is not active for this account. Install it again to continue.'),
    ).toBeInTheDocument();
  },
};

export const StartRefused: Story = {
  name: 'Start refused (no name or email)',
  parameters: agentParameters({
    externalUser: { id: 'user-without-profile' },
    // The start the Connect button sends, for an end user the agency knows no name or email of.
    setup: async (agent) => {
      await agent.store
        .getState()
        .startCodehostConnect({ external_user_id: 'user-without-profile', return_url: window.location.href });
    },
  }),
  play: async ({ canvasElement, args }) => {
    const { view } = region(canvasElement);
    const alert = await view.findByRole('alert');
    // The API's field message is its own (it names the agency's missing field): the end user reads the library's words.
    await expect(alert).toHaveTextContent('This feature is not available right now. Please let the site’s owner know.');
    await expect(alert).not.toHaveTextContent('The external user name field is required.');
    await expect(args.navigate).not.toHaveBeenCalled();
  },
};

export const Unauthorized: Story = {
  parameters: agentParameters({ setup: (agent) => agent.admin.revokeToken(agent.token) }),
  play: async ({ canvasElement }) => {
    const { element, view } = region(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'error'));
    await expect(view.getByRole('alert')).toHaveTextContent('Please let the site’s owner know.');
    await expect(view.getByRole('alert')).not.toHaveTextContent(agentApiMessages.unauthorized);
  },
};
