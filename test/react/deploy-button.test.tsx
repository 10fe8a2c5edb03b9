import { act, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { AgentProvider, DeployButton, useDeploymentConnections } from 'agent-embed';
import {
  agentApiMessages,
  createAgentClient,
  errorFromResponse,
  resourceSpecs,
  type AgentTransport,
} from 'agent-embed/core';
import { createMockAgentApi, createMockTransport } from 'agent-embed/mock';
import { cleanupRendered, renderWithMock, type RenderWithMockOptions } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const prompt = 'A portfolio site for a ceramic artist';

async function violations(container: HTMLElement) {
  const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
  );
}

/** Renders a DeployButton for Ada over the mock, with a completed project as the current generation. */
async function renderDeploy(options: RenderWithMockOptions & { deployTo?: string; withProject?: boolean } = {}) {
  const { deployTo = 'vercel', withProject, ...renderOptions } = options;
  const rendered = renderWithMock(<DeployButton provider={deployTo} />, {
    store: {},
    ...renderOptions,
    provider: { externalUser: ada, ...renderOptions.provider },
  });
  if (withProject !== false) {
    await act(async () => {
      const result = await rendered.store!.getState().generate({ prompt });
      expect(result.outcome).toBe('completed');
    });
  }
  const region = () => screen.getByRole('region', { name: 'Publish to the web' });
  const deployPosts = () =>
    rendered.transport.api.admin.requests.filter(
      (request) => request.method === 'POST' && request.path.endsWith('/deploy'),
    );
  const connectPosts = () =>
    rendered.transport.api.admin.requests.filter(
      (request) => request.method === 'POST' && request.path.endsWith('/connections'),
    );
  return { ...rendered, region, deployPosts, connectPosts };
}

function clientOf(transport: AgentTransport) {
  return createAgentClient({ transport });
}

async function submitToken(user: ReturnType<typeof renderWithMock>['user'], token: string) {
  const dialog = screen.getByRole('dialog', { name: 'Connect Vercel' });
  const input = within(dialog).getByLabelText('Vercel access token');
  await user.clear(input);
  if (token !== '') await user.type(input, token);
  await user.click(within(dialog).getByRole('button', { name: 'Connect' }));
  return { dialog, input: input as HTMLInputElement };
}

describe('DeployButton journeys', () => {
  it('no connection → the dialog → a rejected token inline → an accepted one → deployed, with the token nowhere', async () => {
    const { user, region, store, deployPosts, container } = await renderDeploy();
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'missing'));
    expect(region()).toHaveTextContent('Connect your Vercel account to deploy your app.');
    // One primary action: the connect that unlocks deploying, not a disabled deploy above it.
    expect(within(region()).queryByRole('button', { name: 'Deploy to Vercel' })).not.toBeInTheDocument();

    await user.click(within(region()).getByRole('button', { name: 'Connect Vercel' }));
    const rejectedToken = 'bad_rejected_token_5521';
    const first = await submitToken(user, rejectedToken);
    // Refused, the token stays in the field to be corrected rather than typed again.
    const fieldError = await within(first.dialog).findByText(/This token was not accepted/);
    expect(first.input).toHaveAttribute('aria-invalid', 'true');
    expect(first.input).toHaveAttribute('aria-describedby', fieldError.id);
    await waitFor(() => expect(first.input).toHaveFocus());
    expect(first.input.value).toBe(rejectedToken);
    expect(deployPosts()).toHaveLength(0);

    const goodToken = 'studio-ada:vercel-secret-8841';
    const second = await submitToken(user, goodToken);
    // Accepted, it leaves the page with the dialog.
    await waitFor(() => expect(second.input.isConnected).toBe(false));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'connected'));
    expect(deployPosts()).toHaveLength(0);
    await user.click(within(region()).getByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'deployed'));
    expect(region()).toHaveTextContent('Connected as studio-ada');
    expect(region()).not.toHaveTextContent('(Vercel)');
    expect(region()).toHaveTextContent('Deployed');
    expect(region()).toHaveTextContent('Live');
    const link = within(region()).getByRole('link', { name: /^Open the deployment/ });
    expect(link.getAttribute('href')).toMatch(/^https:\/\/[a-z0-9-]+\.vercel\.mock\.agent-embed\.test\/$/);
    // The address is on screen as text, not only behind the link.
    expect(link).toHaveTextContent(link.getAttribute('href')!.replace('https://', '').replace(/\/$/, ''));
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(deployPosts()).toHaveLength(1);

    const everything = [
      JSON.stringify(store!.getState()),
      document.documentElement.outerHTML,
      JSON.stringify({ ...sessionStorage }),
      JSON.stringify({ ...localStorage }),
      container.innerHTML,
    ];
    for (const place of everything) {
      expect(place).not.toContain(rejectedToken);
      expect(place).not.toContain(goodToken);
      expect(place).not.toContain('vercel-secret');
    }
    for (const input of document.querySelectorAll('input')) expect(input.value).not.toContain('secret');
  });

  it('the 409 message when the provider account belongs to another end user', async () => {
    const { user, region, transport } = await renderDeploy();
    // Grace, another end user of the same agency, signed in on another browser.
    const grace = createMockTransport({ api: transport.api, externalUser: { id: 'grace' } });
    await clientOf(grace).deployments.connect('vercel', { external_user_id: 'grace', token: 'shared-account:one' });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'missing'));
    await user.click(within(region()).getByRole('button', { name: 'Connect Vercel' }));
    const { dialog, input } = await submitToken(user, 'shared-account:two');
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The token was not accepted');
    expect(alert).toHaveTextContent('already connected to someone else here');
    expect(alert).not.toHaveTextContent(agentApiMessages.providerAccountTaken);
    await waitFor(() => expect(alert).toHaveFocus());
    expect(input.value).toBe('shared-account:two');
    expect(input).not.toHaveAttribute('aria-invalid');
    // Connecting alone does not deploy.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(region()).toHaveAttribute('data-state', 'missing');
  });

  it('an empty token is refused before anything is sent; a reopened dialog starts clean', async () => {
    const { user, region, connectPosts } = await renderDeploy();
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'missing'));
    await user.click(within(region()).getByRole('button', { name: 'Connect Vercel' }));
    const { dialog } = await submitToken(user, '');
    expect(within(dialog).getByText('Enter an access token.')).toBeInTheDocument();
    expect(connectPosts()).toHaveLength(0);
    await submitToken(user, 'bad_one_two_three');
    await within(dialog).findByText(/This token was not accepted/);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(within(region()).getByRole('button', { name: 'Connect Vercel' }));
    const reopened = screen.getByRole('dialog', { name: 'Connect Vercel' });
    expect(within(reopened).queryByText(/This token was not accepted/)).not.toBeInTheDocument();
    expect(within(reopened).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('connected: deploys with one POST per double click and reports it once', async () => {
    const onDeployed = vi.fn();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const rendered = renderWithMock(<DeployButton provider="netlify" onDeployed={onDeployed} />, {
      store: {},
      provider: { externalUser: ada },
      // The answer waits until the test releases it, so the second click lands while the first is in flight.
      wrapTransport: (inner) => ({
        json: async (request) => {
          const answer = await inner.json(request);
          if (request.path.endsWith('/deploy')) await held;
          return answer;
        },
        stream: inner.stream,
      }),
    });
    await clientOf(rendered.transport).deployments.connect('netlify', {
      external_user_id: 'ada',
      token: 'netlify-ada:token',
    });
    await act(async () => {
      await rendered.store!.getState().generate({ prompt });
    });
    const region = screen.getByRole('region', { name: 'Publish to the web' });
    await act(async () => {
      await rendered.store!.getState().fetchResource(resourceSpecs.deploymentConnection('netlify', 'ada'));
    });
    await waitFor(() => expect(region).toHaveAttribute('data-state', 'connected'));
    expect(region).toHaveTextContent('Connected as netlify-ada');
    expect(region).toHaveTextContent('netlify-ada@netlify.mock.agent-embed.test');
    expect(region.textContent).not.toMatch(/[()]/);
    const button = within(region).getByRole('button', { name: 'Deploy to Netlify' });
    await rendered.user.dblClick(button);
    await waitFor(() => expect(region).toHaveAttribute('data-state', 'deploying'));
    expect(within(region).getByRole('status')).toHaveTextContent('Deploying to Netlify…');
    expect(button).toBeDisabled();
    release();
    await waitFor(() => expect(region).toHaveAttribute('data-state', 'deployed'));
    expect(rendered.transport.api.admin.requests.filter((request) => request.path.endsWith('/deploy'))).toHaveLength(1);
    expect(onDeployed).toHaveBeenCalledTimes(1);
    expect(onDeployed.mock.calls[0]?.[0]).toMatchObject({ status: 'ready' });
  });

  it('unknown provider: says it is not available, no deploy and no connect', async () => {
    const { region, container } = await renderDeploy({ deployTo: 'heroku' });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'unknown_provider'));
    expect(region()).toHaveTextContent('Deploying to this provider is not available.');
    expect(within(region()).queryByRole('button')).not.toBeInTheDocument();
    expect(await violations(container)).toEqual([]);
  });

  it('a deploy answered with "connection not found": the spec message, and the connect button is back', async () => {
    const { user, region } = await renderDeploy({
      // As if the connection were removed behind the page's back: the API finds none for the deploy.
      wrapTransport: (inner) => ({
        json: (request) =>
          request.path.endsWith('/deploy')
            ? Promise.reject(
                errorFromResponse(
                  404,
                  new Headers(),
                  JSON.stringify({
                    success: false,
                    message: agentApiMessages.deploymentConnectionNotFound,
                    data: null,
                  }),
                ),
              )
            : inner.json(request),
        stream: inner.stream,
      }),
    });
    await user.click(await within(region()).findByRole('button', { name: 'Connect Vercel' }));
    const { dialog } = await submitToken(user, 'ada-account:token');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    await user.click(await within(region()).findByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'failed'));
    const alert = within(region()).getByRole('alert');
    expect(alert).toHaveTextContent('The deployment failed');
    expect(alert).toHaveTextContent('Your hosting account is not connected yet. Connect it to deploy.');
    expect(alert).not.toHaveTextContent(agentApiMessages.deploymentConnectionNotFound);
    expect(region()).toHaveAttribute('data-connection', 'missing');
    expect(within(region()).getByRole('button', { name: 'Connect Vercel' })).toBeInTheDocument();
  });

  it('a failing deploy (HTTP 500) shows its message; the next click deploys', async () => {
    const { user, region, transport } = await renderDeploy();
    await user.click(await within(region()).findByRole('button', { name: 'Connect Vercel' }));
    await submitToken(user, 'ada-account:token');
    await user.click(await within(region()).findByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'deployed'));
    // Deployed, the site is the result: deploying again is offered, no longer as the primary action.
    const redeploy = within(region()).getByRole('button', { name: 'Redeploy' });
    expect(redeploy).not.toHaveClass('ae-button-primary');
    transport.api.admin.injectFault({ kind: 'http_500', route: 'deploy' });
    await user.click(redeploy);
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'failed'));
    expect(within(region()).getByRole('alert')).toHaveTextContent(
      'The new version was not deployed; the site stays as it was',
    );
    expect(within(region()).getByRole('alert')).toHaveTextContent('Something went wrong on our side.');
    // The site the first deploy published is still live: its link stays beside the failure.
    expect(within(region()).getByRole('link')).toBeInTheDocument();
    await user.click(within(region()).getByRole('button', { name: 'Redeploy' }));
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'deployed'));
  });

  it('an expired connection asks for a new token before deploying', async () => {
    const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
    await clientOf(createMockTransport({ api, externalUser: ada })).deployments.connect('vercel', {
      external_user_id: 'ada',
      token: 'ada-account:first',
    });
    const { user, region, deployPosts } = await renderDeploy({
      mock: { api },
      wrapTransport: (inner) => ({
        json: async (request) => {
          const body = (await inner.json(request)) as { data?: Record<string, unknown> };
          return request.method === 'GET' && request.path.includes('/connections/')
            ? { ...body, data: { ...body.data, expires_at: '2001-01-01T00:00:00Z' } }
            : body;
        },
        stream: inner.stream,
      }),
    });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'expired'));
    expect(region()).toHaveTextContent('Your Vercel connection has expired. Connect again to deploy.');
    expect(within(region()).queryByRole('button', { name: 'Deploy to Vercel' })).not.toBeInTheDocument();
    await user.click(within(region()).getByRole('button', { name: 'Connect Vercel' }));
    expect(deployPosts()).toHaveLength(0);
    await submitToken(user, 'ada-account:second');
    await user.click(await within(region()).findByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'deployed'));
    expect(deployPosts()).toHaveLength(1);
  });

  it('signed out: says so and sends nothing', () => {
    const { transport } = renderWithMock(<DeployButton provider="vercel" />);
    const region = screen.getByRole('region', { name: 'Publish to the web' });
    expect(region).toHaveAttribute('data-state', 'signed_out');
    expect(region).toHaveTextContent('Sign in to deploy your app.');
    expect(transport.api.admin.requests).toHaveLength(0);
  });
});

describe('DeployButton never links a non-http(s) deployment address', () => {
  it('javascript: from the deploy answer is shown as text, never as a link', async () => {
    const { user, region, transport, container } = await renderDeploy({
      wrapTransport: (inner) => ({
        json: async (request) => {
          const body = (await inner.json(request)) as { data?: Record<string, unknown> };
          return request.path.endsWith('/deploy')
            ? { ...body, data: { ...body.data, url: 'javascript:alert(document.cookie)' } }
            : body;
        },
        stream: inner.stream,
      }),
    });
    await clientOf(transport).deployments.connect('vercel', { external_user_id: 'ada', token: 'ada-account:token' });
    await user.click(await within(region()).findByRole('button', { name: 'Connect Vercel' }));
    await submitToken(user, 'ada-account:token');
    await user.click(await within(region()).findByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'deployed'));
    expect(region()).toHaveTextContent('The deployment address is not a web address, so it is not shown as a link.');
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(container.innerHTML).not.toContain('javascript:');
  });
});

describe('DeployButton accessibility (axe, color-contrast off in jsdom)', () => {
  it('disconnected, dialog with a field error, and deployed', async () => {
    const { user, region, container } = await renderDeploy();
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'missing'));
    expect(await violations(container)).toEqual([]);
    await user.click(within(region()).getByRole('button', { name: 'Connect Vercel' }));
    const { dialog } = await submitToken(user, 'bad_token_value');
    await within(dialog).findByText(/This token was not accepted/);
    expect(await violations(document.body)).toEqual([]);
    await submitToken(user, 'ada-account:token');
    await user.click(await within(region()).findByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'deployed'));
    expect(await violations(container)).toEqual([]);
  });
});

describe('useDeploymentConnections', () => {
  function Connections() {
    const { status, data: connections = [], error } = useDeploymentConnections('vercel');
    return (
      <p data-testid="connections" data-state={status}>
        {error?.message ??
          connections
            .map((connection) => `${connection.external_user_id}:${connection.provider_account_name}`)
            .join(', ')}
      </p>
    );
  }

  it('lists the connections to a provider', async () => {
    const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
    await clientOf(createMockTransport({ api, externalUser: ada })).deployments.connect('vercel', {
      external_user_id: 'ada',
      token: 'ada-account:token',
    });
    renderWithMock(<Connections />, { mock: { api }, provider: { externalUser: ada } });
    await waitFor(() => expect(screen.getByTestId('connections')).toHaveAttribute('data-state', 'success'));
    expect(screen.getByTestId('connections')).toHaveTextContent('ada:ada-account (Vercel)');
  });
});

describe('DeployButton dialog on mount', () => {
  it('shows a refusal the store holds when it starts open, and none from before its mount when the end user opens it', async () => {
    const rendered = renderWithMock(<p>Loading</p>, { store: {}, provider: { externalUser: ada } });
    const store = rendered.store!;
    await act(async () => {
      const result = await store.getState().connectDeployment('vercel', ada.id, 'bad_revoked_token');
      expect(result.ok).toBe(false);
    });
    const rejected = 'This token was not accepted. Check that it is complete and still valid, then paste it again.';
    const mount = (button: ReactNode) =>
      rendered.rerender(
        <AgentProvider store={store} externalUser={ada}>
          {button}
        </AgentProvider>,
      );

    // Mounted closed: the refusal belongs to an earlier opening, and opening the dialog starts clean.
    mount(<DeployButton key="closed" provider="vercel" />);
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Publish to the web' })).toHaveAttribute('data-state', 'missing'),
    );
    await rendered.user.click(screen.getByRole('button', { name: 'Connect Vercel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect Vercel' });
    expect(within(dialog).queryByText(rejected)).toBeNull();
    expect(within(dialog).getByLabelText('Vercel access token')).not.toHaveAttribute('aria-invalid');

    // Mounted open (a host page sending the end user here): the dialog shows where the connect stands.
    mount(<DeployButton key="open" provider="vercel" defaultDialogOpen />);
    const reopened = await screen.findByRole('dialog', { name: 'Connect Vercel' });
    expect(within(reopened).getByText(rejected)).toBeInTheDocument();
    expect(within(reopened).getByLabelText('Vercel access token')).toHaveAttribute('aria-invalid', 'true');
  });
});
