/** Texts of `PlanList`. */
export interface PlanListLabels {
  regionLabel: string;
  heading: string;
  loading: string;
  empty: string;
  errorTitle: string;
  retry: string;
  free: string;
  customPrice: string;
  perMonth: (price: string) => string;
  choose: (plan: string) => string;
}

/** The default (English) texts of `PlanList`. */
export const defaultPlanListLabels: PlanListLabels = {
  regionLabel: 'Plans',
  heading: 'Plans',
  loading: 'Loading plans…',
  empty: 'No plans are available.',
  errorTitle: 'Could not load the plans',
  retry: 'Try again',
  free: 'Free',
  customPrice: 'Custom pricing',
  perMonth: (price) => `${price} per month`,
  choose: (plan) => `Choose ${plan}`,
};
