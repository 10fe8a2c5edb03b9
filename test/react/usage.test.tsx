/**
 * The agency's per-end-user quota on screen: the builder shows what is left near the prompt, refreshed after
 * each generation, and a refusal over the limit says when more builds come while the prompt stays in the box.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentBuilder, GeneratePanel, LiveBuildLog, UsageMeter } from 'agent-embed';
import { errorFromResponse, type AgentApiError, type AgentTransport, type Usage } from 'agent-embed/core';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const resetsAt = new Date(Date.now() + 3 * 3_600_000).toISOString();
const resetTime = () => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(Date.parse(resetsAt));

/** The mock behind a proxy with a quota of `limit` builds a day for this end user. */
function withQuota(limit: number, startUsed: number) {
  let used = startUsed;
  const usageReads = vi.fn();
  const wrap = (inner: AgentTransport): AgentTransport => ({
    json: async (request) => {
      if (request.path !== '/usage') return inner.json(request);
      usageReads();
      return { status: true, used, limit, resets_at: resetsAt, period: 'day' } satisfies Usage & { status: true };
    },
    stream: async (request, handlers) => {
      if (used >= limit) {
        const body = { status: false, message: 'The build limit for this period has been reached.' };
        const quota = { code: 'quota_exceeded', used, limit, resets_at: resetsAt, period: 'day' };
        throw errorFromResponse(429, new Headers({ 'retry-after': '10800' }), JSON.stringify({ ...body, ...quota }));
      }
      used++;
      return inner.stream(request, handlers);
    },
  });
  return { wrap, usageReads, spend: () => void used++ };
}

/** With 1 of 20 builds left, starts one that fails: the meter then says none are left. Gives the build log. */
async function failTheLastBuild(
  user: ReturnType<typeof renderWithMock>['user'],
  transport: ReturnType<typeof renderWithMock>['transport'],
) {
  expect(await screen.findByText('1 of 20 builds left today')).toBeInTheDocument();
  transport.api.admin.injectFault({ kind: 'error_event', afterEvents: 2, message: 'The build broke.' });
  await user.type(screen.getByLabelText('Describe the app you want'), 'A landing page for a bakery');
  await user.click(screen.getByRole('button', { name: 'Generate' }));
  expect(await screen.findByText(/0 of 20 builds left today/)).toBeInTheDocument();
  const log = screen.getByRole('region', { name: 'Build progress' });
  await waitFor(() => expect(log).toHaveAttribute('data-phase', 'failed'));
  return log;
}

describe('quota and usage', () => {
  it('shows the builds left near the prompt and refreshes them after each generation', async () => {
    const quota = withQuota(20, 17);
    const { user } = renderWithMock(<AgentBuilder />, {
      provider: { externalUser: ada },
      wrapTransport: quota.wrap,
    });
    expect(await screen.findByText('3 of 20 builds left today')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Describe the app you want'), 'A landing page for a bakery');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('2 of 20 builds left today')).toBeInTheDocument();
  });

  it('once the quota is used up, Generate waits and says until when, and sends nothing', async () => {
    const quota = withQuota(20, 20);
    const { user, generationPosts } = renderWithMock(<AgentBuilder />, {
      provider: { externalUser: ada },
      wrapTransport: quota.wrap,
    });
    const meter = await screen.findByText(/0 of 20 builds left today/);
    expect(meter.closest('[data-state]')).toHaveAttribute('data-state', 'exhausted');
    await user.type(screen.getByLabelText('Describe the app you want'), 'A landing page for a bakery');
    const generate = screen.getByRole('button', { name: 'Generate' });
    expect(generate).toBeDisabled();
    expect(generate).toHaveAccessibleDescription(`You have used today’s 20 builds. More at ${resetTime()}.`);
    expect(generationPosts()).toHaveLength(0);
  });

  it('a refusal the screen did not see coming says when more builds come, keeps the prompt, and hands the code to onError', async () => {
    // The prompt box alone: nothing has loaded the usage, so the proxy's refusal is the first word of it.
    const quota = withQuota(20, 20);
    const errors: AgentApiError[] = [];
    const { user } = renderWithMock(<GeneratePanel />, {
      provider: { externalUser: ada, onError: (error) => errors.push(error) },
      wrapTransport: quota.wrap,
    });
    const prompt = screen.getByLabelText('Describe the app you want');
    await user.type(prompt, 'A landing page for a bakery');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(`You have used today’s 20 builds. More at ${resetTime()}.`)).toBeInTheDocument();
    expect(within(alert).queryByRole('button', { name: /try again in/i })).not.toBeInTheDocument();
    await waitFor(() => expect(prompt).toHaveValue('A landing page for a bakery'));
    expect(errors.map((error) => error.code)).toContain('quota_exceeded');
    expect(quota.usageReads).not.toHaveBeenCalled();
  });

  it('a refusal after another tab used the last builds brings the meter and Generate in line with it', async () => {
    const quota = withQuota(20, 19);
    const { user, generationPosts } = renderWithMock(
      <>
        <UsageMeter />
        <GeneratePanel />
      </>,
      { provider: { externalUser: ada }, wrapTransport: quota.wrap },
    );
    expect(await screen.findByText('1 of 20 builds left today')).toBeInTheDocument();
    // Another tab of the same end user spends the last build, which this page has not heard of.
    quota.spend();
    await user.type(screen.getByLabelText('Describe the app you want'), 'A landing page for a bakery');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `You have used today’s 20 builds. More at ${resetTime()}.`,
    );
    expect(await screen.findByText(/0 of 20 builds left today/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Generate' })).toBeDisabled());
    expect(generationPosts()).toHaveLength(0);
  });

  it('a failed build that used the last build offers no "Try again" the quota would refuse', async () => {
    const quota = withQuota(20, 19);
    const { user, transport, generationPosts } = renderWithMock(<AgentBuilder />, {
      provider: { externalUser: ada },
      wrapTransport: quota.wrap,
    });
    const log = await failTheLastBuild(user, transport);
    expect(within(log).queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(generationPosts()).toHaveLength(1);
  });

  it('a failed build that used the last build says when more come once: the log tells it, Generate points at it', async () => {
    const quota = withQuota(20, 19);
    /** The prompt box beside the build log, which the test can take away. */
    function PanelAndLog() {
      const [log, setLog] = useState(true);
      return (
        <>
          <UsageMeter />
          {log && <LiveBuildLog />}
          <GeneratePanel />
          <button type="button" onClick={() => setLog(false)}>
            Hide the log
          </button>
        </>
      );
    }
    const { user, transport, generationPosts } = renderWithMock(<PanelAndLog />, {
      provider: { externalUser: ada },
      wrapTransport: quota.wrap,
    });
    const log = await failTheLastBuild(user, transport);
    const sentence = `You have used today’s 20 builds. More at ${resetTime()}.`;
    const generate = screen.getByRole('button', { name: 'Generate' });
    await waitFor(() => expect(generate).toBeDisabled());
    // Said once, by the log's failure (its next step)…
    await waitFor(() => expect(screen.getAllByText(sentence)).toHaveLength(1));
    expect(within(log).getByRole('alert')).toHaveTextContent(sentence);
    const form = screen.getByRole('form', { name: 'Create an app' });
    expect(form).not.toHaveTextContent('You have used today’s');
    // …and the held button is still described by it, where it is said.
    expect(generate).toHaveAccessibleDescription(sentence);
    const describedBy = generate.getAttribute('aria-describedby') ?? '';
    expect(describedBy.split(' ').every((id) => document.getElementById(id) !== null)).toBe(true);

    // Without the log, the prompt box says it itself.
    await user.click(screen.getByRole('button', { name: 'Hide the log' }));
    await waitFor(() => expect(form).toHaveTextContent(sentence));
    expect(screen.getAllByText(sentence)).toHaveLength(1);
    expect(generate).toHaveAccessibleDescription(sentence);
    expect(generationPosts()).toHaveLength(1);
  });

  it('renders nothing without a quota', async () => {
    const usageReads = vi.fn();
    const { container } = renderWithMock(<UsageMeter data-testid="meter" />, {
      provider: { externalUser: ada },
      wrapTransport: (inner) => ({
        ...inner,
        json: async (request) => {
          if (request.path !== '/usage') return inner.json(request);
          usageReads();
          return { status: true, used: 0, limit: null, resets_at: null, period: null };
        },
      }),
    });
    await waitFor(() => expect(usageReads).toHaveBeenCalledTimes(1));
    expect(container.querySelector('[data-testid="meter"]')).toBeNull();
  });
});
