/** Texts of `UsageMeter`. */
import type { QuotaDetails } from '../../core/index.js';
import { plural } from '../../locales/plural.js';

/** The texts of the usage meter (counts come formatted for the locale; `limitCount` picks a plural form). */
export interface UsageMeterLabels {
  /** How many builds are left of the period's limit: "3 of 20 builds left today". */
  left: (left: string, limit: string, period: QuotaDetails['period'], limitCount: number) => string;
  /** When more builds come, once none are left: "More at 09:00". */
  moreAt: (when: string) => string;
}

/** The default (English) texts. */
export const defaultUsageMeterLabels: UsageMeterLabels = {
  left: (left, limit, period, limitCount) => {
    const base = `${left} of ${plural('en', limitCount, { one: `${limit} build`, other: `${limit} builds` })} left`;
    switch (period) {
      case 'day':
        return `${base} today`;
      case 'week':
        return `${base} this week`;
      case 'month':
        return `${base} this month`;
      default:
        return base;
    }
  },
  moreAt: (when) => `More at ${when}`,
};
