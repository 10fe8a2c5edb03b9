import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentProvider, ErrorAlert, defaultErrorLabels, errorCopy, type AgentLabelsOverride } from 'agent-embed';
import { AgentApiError, agentApiMessages, type AgentErrorKind } from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';

const transports: ReturnType<typeof createMockTransport>[] = [];
afterEach(() => {
  cleanup();
  for (const transport of transports.splice(0)) transport.api.dispose();
  vi.useRealTimers();
});

function inProvider(ui: ReactNode, labels?: AgentLabelsOverride, errorDetails?: boolean) {
  const transport = createMockTransport({ speed: 'instant' });
  transports.push(transport);
  return render(
    <AgentProvider
      transport={transport}
      {...(labels === undefined ? {} : { labels })}
      {...(errorDetails === undefined ? {} : { errorDetails })}
    >
      {ui}
    </AgentProvider>,
  );
}

const operatorWords = /API token|team|external user|Unauthorized\.|Too Many Attempts\.|Server Error/;

const kinds: [AgentErrorKind, string][] = [
  ['unauthorized', agentApiMessages.unauthorized],
  ['token_expired', agentApiMessages.tokenExpired],
  ['suspended', agentApiMessages.suspended],
  ['insufficient_credits', agentApiMessages.insufficientCredits],
  ['forbidden', agentApiMessages.projectForbidden],
  ['not_found', agentApiMessages.codehostConnectionNotFound],
  ['validation', 'The given data was invalid.'],
  ['rate_limited', agentApiMessages.tooManyAttempts],
  ['conflict', agentApiMessages.providerAccountTaken],
  ['upstream', 'Server Error'],
  ['network', 'The Agent API could not be reached.'],
  ['protocol', 'The Agent API answered with HTTP 418.'],
  ['aborted', 'The request was cancelled.'],
];

describe('error copy', () => {
  it.each(kinds)('%s reads as end-user words with no operator text', (kind, message) => {
    const copy = errorCopy(new AgentApiError(kind, message), defaultErrorLabels, 'deploymentConnection');
    expect(copy).not.toMatch(operatorWords);
    expect(copy).not.toBe(message);
    expect(copy.length).toBeGreaterThan(5);
  });

  it('names the next step: buy credits, ask the owner, wait', () => {
    const copy = (kind: AgentErrorKind) => errorCopy(new AgentApiError(kind, 'x'), defaultErrorLabels);
    expect(copy('insufficient_credits')).toMatch(/buy more credits/i);
    expect(copy('token_expired')).toMatch(/owner/);
    expect(copy('suspended')).toMatch(/owner/);
    expect(copy('network')).toMatch(/try again/i);
  });

  it('reads a not_found by its context', () => {
    const error = new AgentApiError('not_found', 'Not found.', { status: 404 });
    expect(errorCopy(error, defaultErrorLabels, 'project')).toMatch(/project could not be found/);
    expect(errorCopy(error, defaultErrorLabels, 'repository')).toMatch(/repository could not be found/);
    // A missing connection reads in the words of the component that needs it.
    const missing = new AgentApiError('not_found', agentApiMessages.codehostConnectionNotFound, { status: 404 });
    expect(errorCopy(missing, defaultErrorLabels, 'repository')).toMatch(/GitHub is not connected/);
    expect(errorCopy(missing, defaultErrorLabels)).toBe(defaultErrorLabels.codes.connection_not_found);
    expect(errorCopy(error, defaultErrorLabels)).toBe(defaultErrorLabels.kinds.not_found);
    // A spec message says more than its context: a missing project met while linking is still a missing project.
    const project = new AgentApiError('not_found', agentApiMessages.projectNotFound, { status: 404 });
    expect(errorCopy(project, defaultErrorLabels, 'repository')).toMatch(/project could not be found/);
  });
});

describe('ErrorAlert', () => {
  it('shows the end-user words once, and never the API message or its status (operator words)', () => {
    const error = new AgentApiError('token_expired', agentApiMessages.tokenExpired, { status: 401 });
    inProvider(<ErrorAlert error={error} title="Could not start the build" />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Could not start the build');
    expect(alert).toHaveTextContent(defaultErrorLabels.kinds.token_expired);
    expect(alert.querySelector('details')).toBeNull();
    expect(alert).not.toHaveTextContent(agentApiMessages.tokenExpired);
    expect(alert).not.toHaveTextContent('401');
    expect(alert.textContent!.split(defaultErrorLabels.kinds.token_expired)).toHaveLength(2);
  });

  it("with the provider's errorDetails (an agency's staff build), the API message waits in a closed Details", () => {
    const error = new AgentApiError('token_expired', agentApiMessages.tokenExpired, { status: 401 });
    inProvider(<ErrorAlert error={error} title="Could not start the build" />, undefined, true);
    const details = screen.getByRole('alert').querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details).toHaveTextContent(`401 · ${agentApiMessages.tokenExpired}`);
  });

  it('uses labels.errors overrides', () => {
    const error = new AgentApiError('suspended', agentApiMessages.suspended, { status: 403 });
    inProvider(
      <ErrorAlert error={error} title="Paused" />,
      { errors: { kinds: { suspended: 'Service en pause.' }, details: 'Détails' } },
      true,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Service en pause.');
    expect(screen.getByText('Détails')).toBeInTheDocument();
    // The other kinds keep their defaults.
    expect(defaultErrorLabels.kinds.network).toMatch(/connection/);
  });

  it('lists field errors instead of the generic validation sentence, without a Details copy of them', () => {
    const error = new AgentApiError('validation', agentApiMessages.promptTooShort, {
      status: 422,
      fieldErrors: { prompt: [agentApiMessages.promptTooShort] },
    });
    inProvider(<ErrorAlert error={error} title="Check the prompt" />, undefined, true);
    const alert = screen.getByRole('alert');
    expect(alert.textContent!.split(agentApiMessages.promptTooShort)).toHaveLength(2);
    expect(alert).not.toHaveTextContent(defaultErrorLabels.kinds.validation);
  });

  it('counts a rate limit down from retryAfterMs and enables the retry at zero', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const onRetry = vi.fn();
    const error = new AgentApiError('rate_limited', agentApiMessages.tooManyAttempts, {
      status: 429,
      retryAfterMs: 3000,
    });
    inProvider(<ErrorAlert error={error} title="Too fast" onRetry={onRetry} />);
    const button = () => screen.getByRole('button', { name: /try again/i });
    expect(screen.getByRole('alert')).toHaveTextContent('You can try again in 3 s.');
    expect(button()).toBeDisabled();
    expect(button()).toHaveTextContent('Try again in 3 s');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByRole('alert')).toHaveTextContent('You can try again in 2 s.');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(button()).toHaveTextContent('Try again in 1 s');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByRole('alert')).toHaveTextContent('You can try again now.');
    expect(button()).toBeEnabled();
    expect(button()).toHaveTextContent(/^Try again$/);
    vi.useRealTimers();
    await userEvent.setup().click(button());
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('renders nothing without an error', () => {
    const { container } = inProvider(<ErrorAlert error={undefined} title="Nothing" />);
    expect(container.querySelector('[role="alert"]')).toBeNull();
  });
});

describe('onError gets the API message of integration failures', () => {
  it('a failing plans call reaches onError once with the spec message, while the screen shows end-user words', async () => {
    const { createMockAgentApi } = await import('agent-embed/mock');
    const { PlanList } = await import('agent-embed');
    const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
    api.admin.suspendTeam();
    const transport = createMockTransport({ api, externalUser: { id: 'ada' } });
    transports.push(transport);
    const onError = vi.fn();
    render(
      <AgentProvider transport={transport} onError={onError} externalUser={{ id: 'ada' }}>
        <PlanList />
      </AgentProvider>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(defaultErrorLabels.kinds.suspended);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toMatchObject({ kind: 'suspended', message: agentApiMessages.suspended });
  });
});

describe('one error, shown once', () => {
  it('the same error in two alerts is shown in full once; the other only names what failed', () => {
    const error = new AgentApiError('upstream', 'Server Error', { status: 500 });
    inProvider(
      <>
        <ErrorAlert error={error} title="Could not check your code host" />
        <ErrorAlert error={error} title="Could not load your repositories" />
      </>,
    );
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(document.body.textContent!.split(defaultErrorLabels.kinds.upstream)).toHaveLength(2);
    expect(document.body).toHaveTextContent('Could not load your repositories');
  });

  it('an account-wide failure met by several calls reads once; other failures keep their own alerts', () => {
    const expired = () => new AgentApiError('token_expired', agentApiMessages.tokenExpired, { status: 401 });
    const { rerender } = inProvider(
      <>
        <ErrorAlert error={expired()} title="Could not check your connection" />
        <ErrorAlert error={expired()} title="Could not load the plans" />
        <ErrorAlert error={new AgentApiError('network', 'offline')} title="Could not deploy" />
      </>,
    );
    expect(screen.getAllByRole('alert')).toHaveLength(2);
    expect(document.body.textContent!.split(defaultErrorLabels.kinds.token_expired)).toHaveLength(2);
    // When the alert that showed it goes away, the next one takes over.
    const transport = transports[0]!;
    rerender(
      <AgentProvider transport={transport}>
        <ErrorAlert error={undefined} title="Could not check your connection" />
        <ErrorAlert error={expired()} title="Could not load the plans" />
      </AgentProvider>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load the plans');
    expect(screen.getByRole('alert')).toHaveTextContent(defaultErrorLabels.kinds.token_expired);
  });
});
