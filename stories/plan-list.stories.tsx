import type { Meta, StoryObj } from '@storybook/react-vite';
import { PlanList } from 'agent-embed';
import { agentApiMessages } from 'agent-embed/core';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { agentParameters } from './story-agent.js';

const meta = {
  title: 'Plans/PlanList',
  component: PlanList,
  argTypes: { onSelect: { control: false, table: { type: { summary: '(plan: SubscriptionPlan) => void' } } } },
} satisfies Meta<typeof PlanList>;

export default meta;
type Story = StoryObj<typeof meta>;

function plans(canvasElement: HTMLElement) {
  const element = within(canvasElement).getByRole('region', { name: 'Plans' });
  return { element, view: within(element) };
}

async function loaded(canvasElement: HTMLElement) {
  const found = plans(canvasElement);
  await waitFor(() => expect(found.element).toHaveAttribute('data-state', 'success'));
  return found;
}

export const InDisplayOrder: Story = {
  play: async ({ canvasElement }) => {
    const { view } = await loaded(canvasElement);
    await expect(view.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'Starter',
      'Pro',
      'Agency',
      'Enterprise',
    ]);
    await expect(view.getByText('Free')).toBeInTheDocument();
    await expect(view.getByText('Custom pricing')).toBeInTheDocument();
    await expect(canvasElement.innerHTML).not.toMatch(/stripe|price_mock/);
  },
};

export const GermanLocale: Story = {
  parameters: agentParameters({ provider: { locale: 'de-DE' } }),
  play: async ({ canvasElement }) => {
    const { element } = await loaded(canvasElement);
    const amount = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
    const expected = `${amount.format(49)} per month`;
    await expect([...element.querySelectorAll('.ae-plan-price')].map((price) => price.textContent)).toContain(expected);
  },
};

export const Selectable: Story = {
  name: 'Selectable (a Choose button per plan)',
  args: { onSelect: () => {} },
  play: async ({ canvasElement }) => {
    const { view } = await loaded(canvasElement);
    await expect(view.getByRole('button', { name: 'Choose Agency' })).toBeEnabled();
  },
};

export const Choosing: Story = {
  // A behaviour, not a state: a test in the sidebar, not on the docs page.
  tags: ['!autodocs'],
  name: 'Behaviour: Choose calls onSelect with the plan',
  args: { onSelect: fn() },
  play: async ({ canvasElement, args }) => {
    const { view } = await loaded(canvasElement);
    await userEvent.click(view.getByRole('button', { name: 'Choose Agency' }));
    await expect(args.onSelect).toHaveBeenCalledWith(expect.objectContaining({ name: 'Agency' }));
  },
};

export const Failed: Story = {
  parameters: agentParameters({ setup: (agent) => agent.admin.suspendTeam() }),
  play: async ({ canvasElement }) => {
    const { element, view } = plans(canvasElement);
    await waitFor(() => expect(element).toHaveAttribute('data-state', 'error'));
    await expect(view.getByRole('alert')).toHaveTextContent('This feature is paused for now.');
    await expect(view.getByRole('alert')).not.toHaveTextContent(agentApiMessages.suspended);
    await expect(view.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
};
