import { act, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CodehostConnect, codehostPopupName, codehostReturnMessage, type ExternalUser } from 'agent-embed';
import type { TransportRequest } from 'agent-embed/core';
import { cleanupRendered, renderWithMock, type RenderWithMockOptions } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada: ExternalUser = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const day = 24 * 60 * 60 * 1000;

async function violations(container: HTMLElement) {
  const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
  );
}

function renderConnect(
  props: Parameters<typeof CodehostConnect>[0] = {},
  options: RenderWithMockOptions & { user?: ExternalUser } = {},
) {
  const sent: TransportRequest[] = [];
  const navigate = vi.fn<(url: string) => void>();
  const rendered = renderWithMock(<CodehostConnect navigate={navigate} {...props} />, {
    ...options,
    provider: { externalUser: options.user ?? ada, ...options.provider },
    wrapTransport: (inner) => {
      const wrapped = options.wrapTransport?.(inner) ?? inner;
      return {
        json: (request) => {
          sent.push(request);
          return wrapped.json(request);
        },
        stream: wrapped.stream,
      };
    },
  });
  const region = () => screen.getByRole('region', { name: 'Save the code to GitHub' });
  /** What the mock's install page does when the user clicks Install: the callback, then the redirect to return_url. */
  async function install(redirectUrl: string) {
    const state = new URL(redirectUrl).searchParams.get('state')!;
    const page = await rendered.transport.api.fetch(new Request(redirectUrl));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Install the Agent code-host app');
    return rendered.transport.api.fetch(
      new Request(new URL(`/__mock/codehost/callback?state=${state}`, redirectUrl), { method: 'POST' }),
    );
  }
  return { ...rendered, sent, navigate, region, install };
}

describe('CodehostConnect journeys', () => {
  it('not connected → start with the provider user → the install page → back to return_url → connected', async () => {
    const { user, region, navigate, sent, install } = renderConnect({}, { provider: { locale: 'de-DE' } });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'missing'));
    expect(region()).toHaveTextContent('Connect GitHub to keep your app’s code in a repository.');

    await user.click(within(region()).getByRole('button', { name: 'Connect GitHub' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    expect(region()).toHaveAttribute('data-state', 'redirecting');
    expect(within(region()).getByRole('status')).toHaveTextContent('Taking you to the installation page…');
    const start = sent.find((request) => request.path === '/codehost/connect/start');
    expect(start?.body).toEqual({
      external_user_id: 'ada',
      external_user_name: 'Ada Lovelace',
      external_user_email: 'ada@example.com',
      return_url: window.location.href,
    });
    const redirectUrl = navigate.mock.calls[0]![0];
    expect(redirectUrl).toMatch(/^http:\/\/mock\.agent-embed\.test\/__mock\/codehost\/install\?state=[0-9a-f]+$/);

    const back = await install(redirectUrl);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(window.location.href);
    // Back on return_url: the page regains focus and the component refreshes itself.
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'connected'));
    expect(region()).toHaveTextContent('Connected as ada-lovelace');
    // The account is named once; the installation status and the connection date sit beside it.
    expect(region().textContent!.split('ada-lovelace')).toHaveLength(2);
    expect(region()).toHaveTextContent('Installation: Active');
    const times = region().querySelectorAll('time');
    expect(times).toHaveLength(1);
    const format = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short' });
    for (const time of times) expect(time.textContent).toBe(format.format(Date.parse(time.getAttribute('datetime')!)));
    expect(within(region()).queryByRole('button', { name: 'Connect GitHub' })).not.toBeInTheDocument();
  });

  it('refreshes on pageshow from the back/forward cache; focus and a visible tab reload only an unconnected account', async () => {
    const { region, transport, sent } = renderConnect();
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'missing'));
    const gets = () =>
      sent.filter((request) => request.method === 'GET' && request.path === '/codehost/connections/ada').length;
    const before = gets();
    const started = await transport.json({
      method: 'POST',
      path: '/codehost/connect/start',
      body: {
        external_user_id: 'ada',
        external_user_name: 'Ada Lovelace',
        external_user_email: 'ada@example.com',
        return_url: 'http://localhost:3000/',
      },
    });
    const redirectUrl = (started as { data: { redirect_url: string } }).data.redirect_url;
    await transport.api.fetch(
      new Request(
        new URL(`/__mock/codehost/callback?state=${new URL(redirectUrl).searchParams.get('state')}`, redirectUrl),
      ),
    );
    act(() => {
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false }));
    });
    expect(gets()).toBe(before);
    act(() => {
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'connected'));
    expect(gets()).toBe(before + 1);
    // Connected: coming back to the tab costs no request (each one counts against the agency's budget).
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('focus'));
    });
    expect(gets()).toBe(before + 1);
    act(() => {
      within(region()).getByRole('button', { name: 'Refresh' }).click();
    });
    await waitFor(() => expect(gets()).toBe(before + 2));
  });

  it('popup mode: opens the install page in a window, refreshes when the popup reports back; a blocked popup falls back to a redirect', async () => {
    const popup = { closed: false } as unknown as Window;
    const openWindow = vi.fn<(url: string, name: string) => Window | null>(() => popup);
    const { user, region, navigate, install } = renderConnect({ mode: 'popup', openWindow });
    await user.click(await within(region()).findByRole('button', { name: 'Connect GitHub' }));
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'popup'));
    expect(openWindow).toHaveBeenCalledWith(
      expect.stringContaining('/__mock/codehost/install?state='),
      codehostPopupName,
    );
    expect(navigate).not.toHaveBeenCalled();
    expect(region()).toHaveTextContent('Finish the installation in the window that opened.');
    await install(openWindow.mock.calls[0]![0]);
    // A message from another origin is ignored; the popup's own page (same origin) is believed.
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', { data: { type: codehostReturnMessage }, origin: 'https://evil.example' }),
      );
    });
    expect(region()).toHaveAttribute('data-state', 'popup');
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', { data: { type: codehostReturnMessage }, origin: window.location.origin }),
      );
    });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'connected'));

    cleanupRendered();
    const blocked = renderConnect({ mode: 'popup', openWindow: () => null });
    await blocked.user.click(await within(blocked.region()).findByRole('button', { name: 'Connect GitHub' }));
    await waitFor(() => expect(blocked.navigate).toHaveBeenCalledTimes(1));
    expect(blocked.region()).toHaveAttribute('data-state', 'redirecting');
  });

  it('an explicit return_url is sent as given', async () => {
    const { user, region, sent } = renderConnect({ returnUrl: 'https://agency.example/projects?tab=code' });
    await user.click(await within(region()).findByRole('button', { name: 'Connect GitHub' }));
    await waitFor(() => expect(sent.some((request) => request.path === '/codehost/connect/start')).toBe(true));
    expect(sent.find((request) => request.path === '/codehost/connect/start')?.body).toMatchObject({
      return_url: 'https://agency.example/projects?tab=code',
    });
  });

  it('suspended installation and expired connection: said so, with "Connect again"', async () => {
    const first = renderConnect();
    await first.user.click(await within(first.region()).findByRole('button', { name: 'Connect GitHub' }));
    await waitFor(() => expect(first.navigate).toHaveBeenCalled());
    await first.install(first.navigate.mock.calls[0]![0]);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(first.region()).toHaveAttribute('data-state', 'connected'));
    first.transport.api.admin.setCodehostInstallationStatus('ada', 'suspended');
    await first.user.click(within(first.region()).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(first.region()).toHaveAttribute('data-state', 'inactive'));
    expect(first.region()).toHaveTextContent(
      'The GitHub app is not active for this account. Install it again to continue.',
    );
    expect(first.region()).toHaveTextContent('Installation: Suspended');
    expect(within(first.region()).getByRole('button', { name: 'Connect again' })).toBeEnabled();
    const api = first.transport.api;
    first.unmount();

    const later = renderConnect({}, { mock: { api }, store: { now: () => Date.now() + 400 * day } });
    await waitFor(() => expect(later.region()).toHaveAttribute('data-state', 'expired'));
    expect(later.region()).toHaveTextContent(
      'Your GitHub connection has expired. Connect again to keep saving your code.',
    );
    expect(within(later.region()).getByRole('button', { name: 'Connect again' })).toBeInTheDocument();
  });

  it("a start refused for a missing name or email asks the end user to tell the site's owner; the user is not sent anywhere", async () => {
    const { user, region, navigate } = renderConnect({}, { user: { id: 'ada' } });
    await user.click(await within(region()).findByRole('button', { name: 'Connect GitHub' }));
    const alert = await within(region()).findByRole('alert');
    expect(alert).toHaveTextContent('Could not connect GitHub');
    // The API's field messages name the agency's fields ("external user"): operator words, for onError only.
    // Nothing the end user typed was refused: the site's setup was, which its owner mends.
    expect(alert).toHaveTextContent('This feature is not available right now. Please let the site’s owner know.');
    expect(alert).not.toHaveTextContent(/external user/);
    await waitFor(() => expect(alert).toHaveFocus());
    expect(navigate).not.toHaveBeenCalled();
  });

  it('"Unauthorized." (a revoked token) is shown as the API says it', async () => {
    const { region, transport } = renderConnect({}, { mock: {} });
    transport.api.admin.revokeToken(transport.api.token);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'error'));
    // End-user words; the API's own ("Unauthorized.") go to the agency's onError.
    expect(within(region()).getByRole('alert')).toHaveTextContent('Please let the site’s owner know.');
    expect(within(region()).getByRole('alert')).not.toHaveTextContent('Unauthorized.');
  });

  it('signed out: says so and sends nothing', () => {
    const { transport } = renderWithMock(<CodehostConnect />);
    expect(screen.getByRole('region', { name: 'Save the code to GitHub' })).toHaveAttribute('data-state', 'signed_out');
    expect(screen.getByText('Sign in to connect GitHub.')).toBeInTheDocument();
    expect(transport.api.admin.requests).toHaveLength(0);
  });
});

describe('CodehostConnect never follows a non-http(s) address', () => {
  it.each([
    'javascript:alert(document.domain)',
    'data:text/html,<script>alert(1)</script>',
    '//evil.example/install',
    'ftp://files.example/install',
  ])('redirect_url %s: no navigation, no popup, no link', async (redirectUrl) => {
    const openWindow = vi.fn<(url: string, name: string) => Window | null>(() => null);
    const { user, region, navigate, container } = renderConnect(
      { mode: 'popup', openWindow },
      {
        wrapTransport: (inner) => ({
          json: async (request) => {
            const body = (await inner.json(request)) as { data?: Record<string, unknown> };
            return request.path === '/codehost/connect/start'
              ? { ...body, data: { ...body.data, redirect_url: redirectUrl } }
              : body;
          },
          stream: inner.stream,
        }),
      },
    );
    await user.click(await within(region()).findByRole('button', { name: 'Connect GitHub' }));
    const alert = await within(region()).findByRole('alert');
    expect(alert).toHaveTextContent('We got an answer we did not understand.');
    expect(navigate).not.toHaveBeenCalled();
    expect(openWindow).not.toHaveBeenCalled();
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(container.innerHTML).not.toContain(redirectUrl.slice(0, 12));
  });
});

describe('CodehostConnect accessibility (axe, color-contrast off in jsdom)', () => {
  it('disconnected, error and connected', async () => {
    const { user, region, container, navigate } = renderConnect({}, { user: { id: 'ada' } });
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'missing'));
    expect(await violations(container)).toEqual([]);
    await user.click(within(region()).getByRole('button', { name: 'Connect GitHub' }));
    await within(region()).findByRole('alert');
    expect(await violations(container)).toEqual([]);
    cleanupRendered();

    const full = renderConnect();
    await full.user.click(await within(full.region()).findByRole('button', { name: 'Connect GitHub' }));
    await waitFor(() => expect(full.navigate).toHaveBeenCalled());
    await full.install(full.navigate.mock.calls[0]![0]);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(full.region()).toHaveAttribute('data-state', 'connected'));
    expect(await violations(full.container)).toEqual([]);
    expect(navigate).not.toHaveBeenCalled();
  });
});
