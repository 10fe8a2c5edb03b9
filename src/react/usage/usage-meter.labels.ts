/** Texts of `UsageMeter`. */
import type { QuotaDetails } from '../../core/index.js';

/** The texts of the usage meter (counts come formatted for the locale; `leftCount` picks a plural form). */
export interface UsageMeterLabels {
  /** How many builds are left of the period's limit: "3 of 20 builds left today". */
  left: (left: string, limit: string, period: QuotaDetails['period'], leftCount: number) => string;
  /** When more builds come, once none are left: "More at 09:00". */
  moreAt: (when: string) => string;
}

const builds = (count: number) => (count === 1 ? 'build' : 'builds');

/** The default (English) texts. */
export const defaultUsageMeterLabels: UsageMeterLabels = {
  left: (left, limit, period, leftCount) => {
    const base = `${left} of ${limit} ${builds(leftCount)} left`;
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
