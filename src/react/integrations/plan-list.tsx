'use client';
/** The subscription plans in display order, with prices formatted for the provider's locale. */
import { forwardRef, useId } from 'react';
import type { SubscriptionPlan } from '../../core/index.js';
import type { PlanListLabels } from './plan-list.labels.js';
import { useAgentFormat } from '../provider/use-agent-format.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { usePlans } from './use-plans.js';
import { cx } from '../shared/class-names.js';
import type { WithRootProps } from '../shared/root-props.js';
import { ErrorAlert } from '../shared/error-alert.js';
import { Skeleton } from '../shared/skeleton.js';

/** A plan in the agency's own words: what `planWords` gives for a plan, each part instead of the API's. */
export interface PlanWords {
  name?: string;
  description?: string;
  features?: readonly string[];
}

/** Props of `PlanList`: its own, plus any attribute of its root `section`. */
export type PlanListProps = WithRootProps<
  {
    /** When given, each plan gets a button that calls it. */
    onSelect?: (plan: SubscriptionPlan) => void;
    /**
     * The plan's name, description and features in the end user's language. The API's are the catalog as the team
     * wrote it, in one language; without this, they are shown as they are.
     */
    planWords?: (plan: SubscriptionPlan) => PlanWords | undefined;
  },
  'section'
>;

// The spec shows no plan fields beyond ordering: these are read defensively, as the mock sends them.
function monthlyPrice(plan: SubscriptionPlan): number | null | undefined {
  // `price_monthly: null` is custom pricing, unless the plan has a `price` after all.
  const value = plan.price_monthly ?? plan.price ?? (plan.price_monthly === null ? null : undefined);
  if (value === null) return null;
  const amount = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  // A negative price is no price a plan can have: none is shown.
  return typeof amount === 'number' && Number.isFinite(amount) && amount >= 0 ? amount : undefined;
}

/** A plan's monthly price for a locale: `Free` at zero, `Custom pricing` when null, nothing when absent. */
export function formatPlanPrice(
  plan: SubscriptionPlan,
  locale: string | undefined,
  text: Pick<PlanListLabels, 'free' | 'customPrice' | 'perMonth'>,
): string | undefined {
  const amount = formatPlanAmount(plan, locale);
  if (amount === undefined) return undefined;
  if (amount === null) return text.customPrice;
  if (amount === 0) return text.free;
  return text.perMonth(amount);
}

/** The formatted amount of a paid plan; 0 for free, null for custom pricing, undefined without a price. */
function formatPlanAmount(plan: SubscriptionPlan, locale: string | undefined): string | 0 | null | undefined {
  const price = monthlyPrice(plan);
  if (price === undefined || price === null || price === 0) return price;
  const currency =
    typeof plan.currency === 'string' && /^[A-Za-z]{3}$/.test(plan.currency) ? plan.currency.toUpperCase() : undefined;
  // Whole prices read as "$49", not "$49.00"; cents stay when there are some.
  const options: Intl.NumberFormatOptions = {
    ...(currency === undefined ? {} : { style: 'currency', currency }),
    ...(Number.isInteger(price) ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
  };
  try {
    return new Intl.NumberFormat(locale, options).format(price);
  } catch {
    // An invalid locale tag: the default locale still knows the currency.
    return new Intl.NumberFormat(undefined, options).format(price);
  }
}

/** The amount large and the rest of the label small, as pricing pages show them ("$49" then "per month"). */
function PlanPrice({ price, amount }: { price: string; amount: string | undefined }) {
  const at = amount === undefined ? -1 : price.indexOf(amount);
  if (amount === undefined || at === -1)
    return (
      <p className="ae-plan-price">
        <span className="ae-plan-amount" data-text="">
          {price}
        </span>
      </p>
    );
  return (
    <p className="ae-plan-price">
      {price.slice(0, at)}
      <span className="ae-plan-amount">{amount}</span>
      <span className="ae-plan-period">{price.slice(at + amount.length)}</span>
    </p>
  );
}

function amountOf(plan: SubscriptionPlan, locale: string | undefined): string | undefined {
  const amount = formatPlanAmount(plan, locale);
  return typeof amount === 'string' ? amount : undefined;
}

/** The plan's features to list: each once, none blank (a feature is its list item's key). */
function features(plan: SubscriptionPlan, words: PlanWords | undefined): string[] {
  const listed: readonly unknown[] = words?.features ?? (Array.isArray(plan.features) ? plan.features : []);
  return [
    ...new Set(listed.filter((feature): feature is string => typeof feature === 'string' && feature.trim() !== '')),
  ];
}

/** Lists the subscription plans. `data-state` is `loading`, `success`, `empty` or `error`. */
export const PlanList = forwardRef<HTMLElement, PlanListProps>(function PlanList(
  { onSelect, planWords, className, ...rest },
  ref,
) {
  const text = useAgentLabels().planList;
  const { locale } = useAgentFormat();
  const { status, data: plans = [], error, refresh } = usePlans();
  const headingId = useId();
  const state = status === 'idle' ? 'loading' : status === 'success' && plans.length === 0 ? 'empty' : status;

  return (
    <section
      ref={ref}
      className={cx('ae-plans', className)}
      data-state={state}
      aria-labelledby={headingId}
      aria-busy={state === 'loading'}
      {...rest}
    >
      <h2 id={headingId} className="ae-title">
        {text.heading}
      </h2>
      {state === 'loading' && plans.length === 0 && <Skeleton rows={2} label={text.loading} />}
      {state === 'empty' && <p className="ae-muted">{text.empty}</p>}
      {state === 'error' && (
        <ErrorAlert error={error} title={text.errorTitle} context="plans" onRetry={() => void refresh()} />
      )}
      {plans.length > 0 && (
        <ol className="ae-plan-list">
          {plans.map((plan) => {
            const price = formatPlanPrice(plan, locale, text);
            const words = planWords?.(plan);
            const name = words?.name ?? plan.name;
            const description = words?.description ?? plan.description;
            const planFeatures = features(plan, words);
            const planHeadingId = `${headingId}-plan-${String(plan.id)}`;
            return (
              <li
                key={String(plan.id)}
                className="ae-plan"
                data-plan={typeof plan.slug === 'string' ? plan.slug : undefined}
                aria-labelledby={planHeadingId}
              >
                {/* The catalog's words (or planWords'), each running its own way: English ones in an Arabic page
                    kept their full stops and numbers at the wrong end. */}
                <h3 id={planHeadingId} className="ae-subtitle">
                  <bdi>{name}</bdi>
                </h3>
                {price !== undefined && <PlanPrice price={price} amount={amountOf(plan, locale)} />}
                {typeof description === 'string' && description !== '' && (
                  <p className="ae-muted">
                    <bdi>{description}</bdi>
                  </p>
                )}
                {planFeatures.length > 0 && (
                  <ul className="ae-plan-features">
                    {planFeatures.map((feature) => (
                      <li key={feature}>
                        <bdi>{feature}</bdi>
                      </li>
                    ))}
                  </ul>
                )}
                {onSelect !== undefined && (
                  <button type="button" className="ae-button" onClick={() => onSelect(plan)}>
                    {text.choose(name)}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
});
