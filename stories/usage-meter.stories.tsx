import type { Meta, StoryObj } from '@storybook/react-vite';
import { UsageMeter } from 'agent-embed';
import type { Usage } from 'agent-embed/core';
import { expect, within } from 'storybook/test';
import { agentParameters } from './story-agent.js';

/**
 * The end user's quota, as the agency's proxy reports it (`GET {basePath}/usage`). The in-browser mock has no
 * proxy in front of it, so each state is set in the store before render: what the proxy would have answered.
 */
const meta = {
  title: 'Usage/UsageMeter',
  component: UsageMeter,
} satisfies Meta<typeof UsageMeter>;

export default meta;
type Story = StoryObj<typeof meta>;

const tonight = () => {
  const reset = new Date();
  reset.setUTCHours(24, 0, 0, 0);
  return reset.toISOString();
};

/** The proxy's answer for this story, held by the store before the meter renders. */
const withUsage = (used: number, limit: number, period: Usage['period'] = 'day') =>
  agentParameters({
    setup: async ({ store }) => {
      const usage: Usage = { used, limit, resets_at: tonight(), period };
      store.setState({
        resources: { usage: { status: 'success', data: usage, error: undefined, updatedAt: Date.now() } },
      });
    },
  });

export const PlentyLeft: Story = {
  name: 'Plenty left (17 of 20 today)',
  parameters: withUsage(3, 20),
  play: async ({ canvasElement }) => {
    const meter = within(canvasElement).getByText('17 of 20 builds left today').closest('.ae-usage');
    await expect(meter).toHaveAttribute('data-state', 'ok');
  },
};

export const FewLeft: Story = {
  name: 'Few left (2 of 20 this week)',
  parameters: withUsage(18, 20, 'week'),
  play: async ({ canvasElement }) => {
    const meter = within(canvasElement).getByText('2 of 20 builds left this week').closest('.ae-usage');
    await expect(meter).toHaveAttribute('data-state', 'low');
  },
};

export const NoneLeft: Story = {
  name: 'None left: when more come',
  parameters: withUsage(20, 20),
  play: async ({ canvasElement }) => {
    const meter = canvasElement.querySelector('.ae-usage');
    await expect(meter).toHaveAttribute('data-state', 'exhausted');
    await expect(meter).toHaveTextContent(/^0 of 20 builds left today · More at /);
  },
};

export const NoQuota: Story = {
  name: 'No quota: nothing shown',
  parameters: agentParameters({
    setup: async ({ store }) => {
      const usage: Usage = { used: 0, limit: null, resets_at: null, period: null };
      store.setState({
        resources: { usage: { status: 'success', data: usage, error: undefined, updatedAt: Date.now() } },
      });
    },
  }),
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.ae-usage')).toBeNull();
  },
};
