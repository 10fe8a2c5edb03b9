import type { Meta, StoryObj } from '@storybook/react-vite';
import { ErrorAlert, defaultErrorLabels } from 'agent-embed';
import { AgentApiError, agentApiMessages, errorFromResponse } from 'agent-embed/core';
import { expect, waitFor, within } from 'storybook/test';
import { agentParameters } from './story-agent.js';

const meta = {
  title: 'Shared/ErrorAlert',
  component: ErrorAlert,
  args: { title: 'The deployment failed', error: undefined },
  argTypes: {
    error: { control: false, table: { type: { summary: 'AgentApiError | undefined' } } },
    onRetry: { control: false, table: { type: { summary: '() => void' } } },
  },
} satisfies Meta<typeof ErrorAlert>;

export default meta;
type Story = StoryObj<typeof meta>;

const operatorWords = /API token|team|external user|Unauthorized\.|Too Many Attempts\.|Server Error/;

/** The end-user sentence, and nowhere the API's own words (the agency gets them through `onError`). */
async function expectWords(canvasElement: HTMLElement, copy: string, apiMessage: string) {
  const alert = within(canvasElement).getByRole('alert');
  await expect(alert.querySelector('.ae-alert-text')).toHaveTextContent(copy);
  await expect(alert.textContent).not.toMatch(operatorWords);
  await expect(alert).not.toHaveTextContent(apiMessage);
  await expect(alert.querySelector('details')).toBeNull();
}

export const ExpiredKey: Story = {
  name: 'The service key expired (ask the site’s owner)',
  args: {
    title: 'Could not start the build',
    error: new AgentApiError('token_expired', agentApiMessages.tokenExpired, { status: 401 }),
  },
  play: ({ canvasElement }) =>
    expectWords(canvasElement, defaultErrorLabels.kinds.token_expired, agentApiMessages.tokenExpired),
};

export const WithDetails: Story = {
  name: 'For an agency’s staff: the API’s words in a closed Details (errorDetails)',
  args: {
    title: 'Could not start the build',
    error: new AgentApiError('token_expired', agentApiMessages.tokenExpired, { status: 401 }),
  },
  parameters: agentParameters({ provider: { errorDetails: true } }),
  play: async ({ canvasElement }) => {
    const details = within(canvasElement).getByRole('alert').querySelector('details')!;
    await expect(details.open).toBe(false);
    await expect(details).toHaveTextContent(`401 · ${agentApiMessages.tokenExpired}`);
  },
};

export const Paused: Story = {
  name: 'The service is paused',
  args: {
    title: 'Could not load the plans',
    error: new AgentApiError('suspended', agentApiMessages.suspended, { status: 403 }),
  },
  play: ({ canvasElement }) =>
    expectWords(canvasElement, defaultErrorLabels.kinds.suspended, agentApiMessages.suspended),
};

export const NoCredits: Story = {
  name: 'Out of credits (buy more)',
  args: {
    title: 'Could not start the build',
    error: new AgentApiError('insufficient_credits', agentApiMessages.insufficientCredits, { status: 400 }),
  },
  play: ({ canvasElement }) =>
    expectWords(canvasElement, defaultErrorLabels.kinds.insufficient_credits, agentApiMessages.insufficientCredits),
};

export const ServerError: Story = {
  name: 'Something went wrong on the server, with a retry',
  args: {
    title: 'Could not load your repositories',
    error: new AgentApiError('upstream', 'Server Error', { status: 500 }),
    onRetry: () => {},
  },
  play: async ({ canvasElement }) => {
    await expectWords(canvasElement, defaultErrorLabels.kinds.upstream, 'Server Error');
    await expect(within(canvasElement).getByRole('button', { name: 'Try again' })).toBeEnabled();
  },
};

export const RateLimited: Story = {
  name: 'Too many requests: a live countdown, the retry enabled at zero',
  args: {
    title: 'Could not deploy',
    error: new AgentApiError('rate_limited', agentApiMessages.tooManyAttempts, { status: 429, retryAfterMs: 2000 }),
    onRetry: () => {},
  },
  play: async ({ canvasElement }) => {
    const view = within(canvasElement);
    await expect(view.getByRole('alert')).toHaveTextContent('You can try again in 2 s.');
    await expect(view.getByRole('button', { name: 'Try again in 2 s' })).toBeDisabled();
    await waitFor(() => expect(view.getByRole('button', { name: 'Try again' })).toBeEnabled(), { timeout: 4000 });
    await expect(view.getByRole('alert')).toHaveTextContent('You can try again now.');
  },
};

export const QuotaUsedUp: Story = {
  name: 'The end user’s quota is used up: when more builds come',
  args: {
    title: 'Your app could not be started',
    error: errorFromResponse(
      429,
      new Headers(),
      JSON.stringify({
        status: false,
        message: 'The build limit for this period has been reached.',
        code: 'quota_exceeded',
        used: 20,
        limit: 20,
        resets_at: '2026-11-26T09:00:00.000Z',
        period: 'day',
      }),
    ),
  },
  play: async ({ canvasElement }) => {
    const alert = within(canvasElement).getByRole('alert');
    await expect(alert.querySelector('.ae-alert-text')).toHaveTextContent(
      /^You have used today’s 20 builds\. More at /,
    );
    await expect(within(alert).queryByRole('button')).toBeNull();
  },
};

export const FieldErrors: Story = {
  name: 'Field errors instead of a generic sentence',
  args: {
    title: 'Check the prompt',
    error: new AgentApiError('validation', agentApiMessages.promptTooShort, {
      status: 422,
      fieldErrors: { prompt: [agentApiMessages.promptTooShort] },
    }),
  },
  play: async ({ canvasElement }) => {
    const alert = within(canvasElement).getByRole('alert');
    await expect(alert).toHaveTextContent(agentApiMessages.promptTooShort);
    await expect(alert).not.toHaveTextContent(defaultErrorLabels.kinds.validation);
  },
};

export const Offline: Story = {
  name: 'No connection',
  args: {
    title: 'Could not check your GitHub connection',
    error: new AgentApiError('network', 'The Agent API could not be reached.'),
  },
  play: ({ canvasElement }) =>
    expectWords(canvasElement, defaultErrorLabels.kinds.network, 'The Agent API could not be reached.'),
};
