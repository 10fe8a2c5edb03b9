import { screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlanList, defaultLabels, formatPlanPrice } from 'agent-embed';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

function plans() {
  return screen.getByRole('region', { name: 'Plans' });
}

describe('PlanList', () => {
  it('shows the plans in display order with prices in the provider locale, and no payment ids', async () => {
    const { container } = renderWithMock(<PlanList />, { provider: { locale: 'de-DE' } });
    await waitFor(() => expect(plans()).toHaveAttribute('data-state', 'success'));
    const items = within(plans())
      .getAllByRole('listitem')
      .filter((item) => item.classList.contains('ae-plan'));
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
      'Starter',
      'Pro',
      'Agency',
      'Enterprise',
    ]);
    const euroFormat = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
    expect(items[0]).toHaveTextContent('Free');
    const price = (item: HTMLElement) => item.querySelector('.ae-plan-price')?.textContent;
    expect(price(items[1]!)).toBe(`${euroFormat.format(49)} per month`);
    expect(price(items[2]!)).toBe(`${euroFormat.format(199)} per month`);
    expect(items[1]!.querySelector('.ae-plan-amount')?.textContent).toBe(euroFormat.format(49));
    expect(items[3]).toHaveTextContent('Custom pricing');
    expect(euroFormat.format(49)).toMatch(/^49\s\$$/);
    expect(items[1]).toHaveTextContent('1,000 credits a month');
    expect(items[0]).toHaveTextContent('Try the agent on a few projects.');
    expect(container.innerHTML).not.toMatch(/stripe|price_mock|prod_mock/);
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });

  it('English prices by default and a choose button per plan when onSelect is given', async () => {
    const onSelect = vi.fn();
    const { user } = renderWithMock(<PlanList onSelect={onSelect} />, { provider: { locale: 'en-US' } });
    await waitFor(() => expect(plans()).toHaveAttribute('data-state', 'success'));
    expect(plans()).toHaveTextContent('$49 per month');
    await user.click(within(plans()).getByRole('button', { name: 'Choose Pro' }));
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ name: 'Pro', slug: 'pro' }));
  });

  it('a failure shows its message and "Try again" loads them', async () => {
    const api = (await import('agent-embed/mock')).createMockAgentApi({ speed: 'instant', rateLimit: false });
    api.admin.suspendTeam();
    const failing = renderWithMock(<PlanList />, { mock: { api } });
    await waitFor(() => expect(plans()).toHaveAttribute('data-state', 'error'));
    const alert = within(plans()).getByRole('alert');
    expect(alert).toHaveTextContent('This feature is paused for now. Please contact the site’s owner.');
    expect(alert).not.toHaveTextContent('This team is currently suspended.');
    api.admin.suspendTeam(undefined, false);
    await failing.user.click(within(plans()).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(plans()).toHaveAttribute('data-state', 'success'));
  });
});

describe('formatPlanPrice', () => {
  const text = defaultLabels.planList;
  it('reads numbers and numeric strings, falls back on a bad currency or locale, and says nothing without a price', () => {
    expect(formatPlanPrice({ id: 1, name: 'A', price_monthly: 12, currency: 'eur' }, 'fr-FR', text)).toBe(
      `${new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 }).format(12)} per month`,
    );
    expect(formatPlanPrice({ id: 1, name: 'A', price: '9.5', currency: 'USD' }, 'en-US', text)).toBe('$9.50 per month');
    expect(formatPlanPrice({ id: 1, name: 'A', price_monthly: 5, currency: 'not-a-code' }, 'en-US', text)).toBe(
      '5 per month',
    );
    expect(formatPlanPrice({ id: 1, name: 'A', price_monthly: 5, currency: 'USD' }, 'not a locale!!', text)).toMatch(
      /5 per month$/,
    );
    expect(formatPlanPrice({ id: 1, name: 'A' }, 'en-US', text)).toBeUndefined();
    expect(formatPlanPrice({ id: 1, name: 'A', price_monthly: null }, 'en-US', text)).toBe('Custom pricing');
  });
});
