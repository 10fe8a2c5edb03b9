/**
 * An answer's timestamps (`connected_at`, `expires_at`, `updated_at`, a turn's `at`) are read as ISO 8601 dates or
 * not at all: `Date.parse` alone reads "0" as the year 2000 and "1" as 2001, so a broken answer showed an old date
 * or marked a live connection expired. The transport layer below stands where an answer reaches the client.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CodehostConnect, Conversation, DeployButton, ProjectList, type ExternalUser } from 'agent-embed';
import { answering, envelope, projectInMock, rule, shownText } from './rewritten-answers.js';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada: ExternalUser = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const at = '2024-05-01T10:00:00.000Z';
/** Years `Date.parse` makes of "0", "1" and "5". */
const madeUpYears = /\b(2000|2001)\b/;

const deploymentConnection = (overrides: Record<string, unknown>) => ({
  ...{ id: 1, provider: 'vercel', provider_name: 'Vercel', external_user_id: 'ada', provider_account_id: 'acc_1' },
  ...{ provider_account_name: 'Ada (Vercel)', provider_account_email: 'ada@example.com', expires_at: null },
  ...{ last_used_at: null, connected_at: at, updated_at: at, metadata: { slug: 'ada' }, ...overrides },
});

const codehostConnection = (overrides: Record<string, unknown>) => ({
  ...{ external_user_id: 'ada', external_user_name: 'Ada Lovelace', external_user_email: 'ada@example.com' },
  ...{ codehost_user_id: '42', codehost_login: 'ada', provider: 'github', installation_id: '7', target_type: 'User' },
  ...{ user_authorized: true, expires_at: null, connected_at: at, updated_at: at, installation_status: 'active' },
  ...overrides,
});

function renderCodehost(overrides: Record<string, unknown>) {
  renderWithMock(<CodehostConnect navigate={vi.fn()} returnUrl="http://localhost:3000/" />, {
    provider: { externalUser: ada },
    wrapTransport: answering(
      rule('GET', /^\/codehost\/connections(\/ada)?$/, (_real, request) =>
        envelope(request.path.endsWith('/ada') ? codehostConnection(overrides) : [codehostConnection({})]),
      ),
    ),
  });
  return screen.findByRole('region', { name: 'Save the code to GitHub' });
}

describe('a connection whose expires_at Date.parse reads as a past year', () => {
  for (const expires of ['1', '5', 'Dec 6']) {
    it(`DeployButton, expires_at "${expires}": connected, not expired`, async () => {
      renderWithMock(<DeployButton provider="vercel" />, {
        provider: { externalUser: ada },
        wrapTransport: answering(
          rule('GET', /^\/deployments\/vercel\/connections(\/ada)?$/, (_real, request) =>
            envelope(
              request.path.endsWith('/ada')
                ? deploymentConnection({ expires_at: expires })
                : [deploymentConnection({})],
            ),
          ),
        ),
      });
      const region = await screen.findByRole('region', { name: 'Publish to the web' });
      await waitFor(() => expect(region.getAttribute('data-state')).not.toBe('loading'));
      expect(region).toHaveAttribute('data-state', 'connected');
    });

    it(`CodehostConnect, expires_at "${expires}": connected, not expired`, async () => {
      const region = await renderCodehost({ expires_at: expires });
      await waitFor(() => expect(region.getAttribute('data-state')).not.toBe('loading'));
      expect(region).toHaveAttribute('data-state', 'connected');
    });
  }

  it('an ISO 8601 expires_at in the past still expires the connection', async () => {
    const region = await renderCodehost({ expires_at: '2001-01-01T00:00:00Z' });
    await waitFor(() => expect(region).toHaveAttribute('data-state', 'expired'));
  });
});

describe('CodehostConnect: when it was connected', () => {
  for (const connected of ['0', '1', '2024']) {
    it(`connected_at "${connected}" shows a dash, not a made-up date`, async () => {
      const region = await renderCodehost({ connected_at: connected });
      await waitFor(() => expect(region).toHaveAttribute('data-state', 'connected'));
      expect(region.querySelector('time')).toBeNull();
      expect(shownText(region)).not.toMatch(madeUpYears);
      expect(region.querySelector('.ae-connection .ae-hint')?.textContent).toContain('—');
    });
  }

  it('a date with a space for the T, as some servers write it, is a date', async () => {
    const region = await renderCodehost({ connected_at: '2024-05-01 10:00:00' });
    await waitFor(() => expect(region).toHaveAttribute('data-state', 'connected'));
    expect(region.querySelector('time')).toHaveAttribute('datetime', '2024-05-01 10:00:00');
  });

  it('with no login, "Connected" is said once: the date goes without its label', async () => {
    const region = await renderCodehost({ codehost_login: null });
    await waitFor(() => expect(region).toHaveAttribute('data-state', 'connected'));
    const card = region.querySelector('.ae-connection') as HTMLElement;
    expect(shownText(card).match(/Connected/g)).toHaveLength(1);
    expect(within(card).getByText('Connected')).toBeInTheDocument();
    expect(card.querySelector('time')).not.toBeNull();
  });

  it('with a login, the date keeps its label', async () => {
    const region = await renderCodehost({});
    await waitFor(() => expect(region).toHaveAttribute('data-state', 'connected'));
    const card = region.querySelector('.ae-connection') as HTMLElement;
    expect(shownText(card)).toMatch(/Connected as ada/);
    expect(card.querySelector('.ae-hint')?.textContent).toMatch(/^Connected /);
  });
});

describe("the proxy's own listings with timestamps that are not dates", () => {
  const prompt = 'A portfolio site for a ceramic artist';

  it('ProjectList: updated_at "5" shows no date', async () => {
    const entry = { project_id: 'p1', name: 'Shop', app_url: null, project_status: 'ready', created_at: at };
    renderWithMock(<ProjectList />, {
      provider: { externalUser: ada },
      wrapTransport: answering(rule('GET', /^\/projects$/, () => ({ projects: [{ ...entry, updated_at: '5' }] }))),
    });
    const list = await screen.findByRole('region', { name: 'Your projects' });
    await waitFor(() => expect(list.querySelector('.ae-project-item-name')).not.toBeNull());
    expect(list.querySelector('time')).toBeNull();
    expect(shownText(list)).not.toMatch(madeUpYears);
  });

  it('Conversation: a turn at "0" shows no time', async () => {
    const { api, projectId } = await projectInMock(ada, prompt);
    renderWithMock(<Conversation projectId={projectId} />, {
      mock: { api },
      provider: { externalUser: ada },
      wrapTransport: answering(
        rule('GET', /\/conversation$/, () => ({ turns: [{ kind: 'generate', prompt, mode: 'build', at: '0' }] })),
      ),
    });
    await screen.findByText(prompt);
    expect(document.querySelector('time')).toBeNull();
  });
});
