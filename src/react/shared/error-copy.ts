/** End-user words for every `AgentApiError`: what happened and the next step, never the API's operator text. */
import { ownLabel } from './outside-values.js';
import type { AgentApiError, AgentErrorKind, QuotaDetails } from '../../core/index.js';
import type { AgentFormat } from '../provider/agent-format.js';
import { plural } from '../../locales/plural.js';

/** Codes (core's `AgentApiError.code`) whose words say more than their kind. */
export type SpecificErrorCode =
  'project_not_found' | 'project_forbidden' | 'provider_not_found' | 'account_taken' | 'connection_not_found';

/** What the failed call was about: the same kind reads differently for a project, a connection or a list. */
export type ErrorContext =
  | 'generation'
  | 'project'
  | 'deployment'
  | 'deploymentConnection'
  | 'codehostConnection'
  | 'repositories'
  | 'repository'
  | 'plans';

/** The `errors` label group: one sentence per error kind, some refined by context. */
export interface ErrorLabels {
  /** One sentence per kind, with the next step. `rate_limited` is used when no wait time is known. */
  kinds: Record<AgentErrorKind, string>;
  /** A rate limit with a known wait: the live countdown's sentence. */
  rateLimitedFor: (seconds: string) => string;
  /** A rate limit whose wait is over. */
  rateLimitOver: string;
  /** Errors whose code says more than their kind (a missing project is not a missing repository); checked first. */
  codes: Partial<Record<SpecificErrorCode, string>>;
  /** A missing connection (`connection_not_found`) by context (falls back to `codes.connection_not_found`). */
  connectionMissing: Partial<Record<ErrorContext, string>>;
  /** `not_found` by context (falls back to `kinds.not_found`). */
  notFound: Partial<Record<ErrorContext, string>>;
  /** `conflict` by context (falls back to `kinds.conflict`). */
  conflict: Partial<Record<ErrorContext, string>>;
  /** The disclosure that holds the API's own message, for the agency's support. */
  details: string;
  /** The retry button. */
  retry: string;
  /** The retry button while a rate limit runs. */
  retryIn: (seconds: string) => string;
  /**
   * The end user's quota is used up (`quota_exceeded`): how many builds the period allowed and when more
   * come (`when` is a time of day for a daily quota or a reset within a day, else a date and time).
   */
  quotaExceeded: (limit: string, period: QuotaDetails['period'], when: string, limitCount: number) => string;
}

/** The default (English) error copy. */
export const defaultErrorLabels: ErrorLabels = {
  kinds: {
    unauthorized: 'This feature is not available right now. Please let the site’s owner know.',
    token_expired: 'This feature needs attention from the site’s owner. Please let them know.',
    suspended: 'This feature is paused for now. Please contact the site’s owner.',
    insufficient_credits: 'You have run out of credits. Buy more credits to continue.',
    forbidden: 'You do not have access to this. Ask the site’s owner if you think you should.',
    not_found: 'We could not find that. It may have been removed.',
    validation: 'Please check what you entered and try again.',
    rate_limited: 'Too many requests in a short time. Wait a moment, then try again.',
    conflict: 'This changed in the meantime. Refresh and try again.',
    upstream: 'Something went wrong on our side. Try again in a moment.',
    network: 'We could not reach the service. Check your connection and try again.',
    protocol: 'We got an answer we did not understand. Try again in a moment.',
    aborted: 'Cancelled.',
  },
  rateLimitedFor: (seconds) => `Too many requests in a short time. You can try again in ${seconds} s.`,
  rateLimitOver: 'You can try again now.',
  codes: {
    project_not_found: 'This project could not be found. It may have been removed; start a new one.',
    project_forbidden: 'This project is not available to you. Start a new one.',
    provider_not_found: 'Deploying to this provider is not available.',
    account_taken:
      'This hosting account is already connected to someone else here. Use a token from a different account.',
    connection_not_found: 'Your account is not connected yet. Connect it to continue.',
  },
  connectionMissing: {
    deployment: 'Your hosting account is not connected yet. Connect it to deploy.',
    deploymentConnection: 'Your hosting account is not connected yet. Connect it to deploy.',
    codehostConnection: 'GitHub is not connected yet. Connect it to continue.',
    repositories: 'GitHub is not connected yet. Connect it to see your repositories.',
    repository: 'GitHub is not connected yet. Connect it to save your code.',
  },
  notFound: {
    project: 'This project could not be found. It may have been removed; start a new one.',
    generation: 'This project could not be found. It may have been removed; start a new one.',
    repository: 'That repository could not be found. Check its name, or connect GitHub again.',
  },

  conflict: {
    deploymentConnection:
      'This hosting account is already connected to someone else here. Use a token from a different account.',
  },
  details: 'Details',
  retry: 'Try again',
  retryIn: (seconds) => `Try again in ${seconds} s`,
  quotaExceeded: (limit, period, when, limitCount) => {
    const builds = plural('en', limitCount, { one: `${limit} build`, other: `${limit} builds` });
    switch (period) {
      case 'day':
        return `You have used today’s ${builds}. More at ${when}.`;
      case 'week':
        return `You have used this week’s ${builds}. More on ${when}.`;
      case 'month':
        return `You have used this month’s ${builds}. More on ${when}.`;
      default:
        return `You have used your ${builds} for now. More at ${when}.`;
    }
  },
};

/** When a quota's period ends, in the end user's words: a time within a day, else a date and time. */
export function quotaResetText(quota: QuotaDetails, format: AgentFormat, now: number = Date.now()): string {
  const resetsAt = Date.parse(quota.resetsAt);
  return quota.period === 'day' || resetsAt - now < 86_400_000 ? format.time(resetsAt) : format.dateTime(resetsAt);
}

/** The end-user sentence for a used-up quota: how many builds, and when more come. */
export function quotaCopy(quota: QuotaDetails, labels: ErrorLabels, format: AgentFormat): string {
  return labels.quotaExceeded(format.number(quota.limit), quota.period, quotaResetText(quota, format), quota.limit);
}

/** The end-user sentence for an error, in its context; `secondsLeft` picks the rate-limit countdown wording. */
export function errorCopy(
  error: AgentApiError,
  labels: ErrorLabels,
  context?: ErrorContext,
  secondsLeft?: number,
  format?: AgentFormat,
): string {
  if (error.quota !== undefined && format !== undefined) return quotaCopy(error.quota, labels, format);
  // Core classifies every error by a stable code; only some of them have words of their own here.
  const code = error.code as SpecificErrorCode;
  // A missing connection reads best in the words of the component that needs it.
  const forContext =
    code === 'connection_not_found' && context !== undefined ? labels.connectionMissing[context] : undefined;
  const forCode = forContext ?? ownLabel(labels.codes, code);
  if (forCode !== undefined) return forCode;
  switch (error.kind) {
    case 'not_found':
      return (context && labels.notFound[context]) ?? labels.kinds.not_found;
    case 'conflict':
      return (context && labels.conflict[context]) ?? labels.kinds.conflict;
    case 'validation':
      // The code-host start sends nothing the end user typed (the agency's profile, its return address): what was
      // refused is the site's setup, which only its owner can mend.
      return context === 'codehostConnection' ? labels.kinds.unauthorized : labels.kinds.validation;
    case 'rate_limited':
      if (secondsLeft === undefined) return labels.kinds.rate_limited;
      if (secondsLeft <= 0) return labels.rateLimitOver;
      return labels.rateLimitedFor(format?.number(secondsLeft) ?? String(secondsLeft));
    default:
      return ownLabel(labels.kinds, error.kind) ?? labels.kinds.upstream;
  }
}
