/**
 * Per-end-user quotas: how many generations (generate or follow-up) each end user may start in a period.
 * A generation counts when the upstream accepts it (its stream opened): the count is taken atomically
 * before the request goes upstream, so concurrent requests on any number of instances never pass the
 * limit, and given back when the upstream refuses it before starting, or when its stream says the team's credits ran
 * out before a file was written (the end user got nothing built).
 */
import type { Usage } from '../core/index.js';
import { jsonHeaders, retryAfterSeconds, withRetryAfter } from './proxy-responses.js';
import type { ProxyStore } from './proxy-store.js';
import type { AgentProxyUser } from './route-policy.js';

/** A quota period: a calendar day, ISO week (from Monday) or month in UTC, or a number of seconds. */
export type QuotaPeriod = 'day' | 'week' | 'month' | number;

/** How many generations an end user may start per period. */
export interface QuotaLimit {
  generations: number;
  per: QuotaPeriod;
}

/** A fixed limit for everyone, or one per end user (plans differ); `undefined` means no limit. */
export type QuotaOption =
  QuotaLimit | ((user: AgentProxyUser) => QuotaLimit | undefined | Promise<QuotaLimit | undefined>);

export type { Usage } from '../core/index.js';

/** The proxy's answer when a quota is used up (429, before anything goes upstream). */
export interface QuotaExceededBody extends Usage {
  status: false;
  message: string;
  code: 'quota_exceeded';
}

/** The message of the over-limit answer (the client shows its own words, keyed by `code`). */
export const quotaExceededMessage = 'The build limit for this period has been reached.';

interface QuotaWindow {
  key: string;
  resetsAt: number;
}

const day = 86_400_000;
/** The last moment a `Date` can hold: a period of seconds that ends later (a "lifetime" quota) ends then. */
const lastDate = 8.64e15;

/** The period containing `now`: its key in the store and when it ends. */
export function quotaWindow(per: QuotaPeriod, now: number): QuotaWindow {
  if (typeof per === 'number') {
    const length = per * 1000;
    const start = Math.floor(now / length) * length;
    return { key: `s${per}:${start}`, resetsAt: Math.min(start + length, lastDate) };
  }
  const date = new Date(now);
  const midnight = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  switch (per) {
    case 'day':
      return { key: `day:${midnight}`, resetsAt: midnight + day };
    case 'week': {
      const monday = midnight - ((date.getUTCDay() + 6) % 7) * day;
      return { key: `week:${monday}`, resetsAt: monday + 7 * day };
    }
    case 'month': {
      const first = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
      return { key: `month:${first}`, resetsAt: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) };
    }
    default:
      return per satisfies never;
  }
}

/** Whether a value is a usable quota limit (checked with the options). */
export function isQuotaLimit(value: unknown): value is QuotaLimit {
  if (typeof value !== 'object' || value === null) return false;
  const { generations, per } = value as Partial<QuotaLimit>;
  const periodOk =
    per === 'day' || per === 'week' || per === 'month' || (typeof per === 'number' && Number.isInteger(per) && per > 0);
  return typeof generations === 'number' && Number.isInteger(generations) && generations >= 0 && periodOk;
}

/** A generation counted against a quota, until it is given back. */
export interface QuotaTicket {
  /** Never rejects: a store that fails to give it back is logged, and the caller's refusal stands. */
  giveBack(): Promise<void>;
}

/** What taking a generation from a user's quota gave. */
export type QuotaDecision = { ok: true; ticket: QuotaTicket | undefined } | { ok: false; usage: Usage };

/** The log entry of a give-back the store failed (a `ProxyLogEntry`). */
interface GiveBackFailure {
  level: 'error';
  event: 'internal_error';
  method: 'POST';
  route: 'generate';
  reason: string;
}

/** The quotas of one proxy. */
export function createQuotas(
  option: QuotaOption | undefined,
  store: ProxyStore,
  now: () => number,
  log: (entry: GiveBackFailure) => void = () => undefined,
) {
  // Logged, not thrown: the browser gets the refusal that called for the give-back, not the store's error.
  const onGiveBackError = (error: unknown) =>
    log({
      level: 'error',
      event: 'internal_error',
      method: 'POST',
      route: 'generate',
      reason: `quota not given back: ${String(error)}`,
    });
  // A fixed limit is checked at once: a misspelt one fails the proxy's creation, not every build's request.
  if (option !== undefined && typeof option !== 'function' && !isQuotaLimit(option))
    throw new TypeError('quota must give { generations, per } or undefined.');
  const limitOf = async (user: AgentProxyUser): Promise<QuotaLimit | undefined> => {
    const limit = typeof option === 'function' ? await option(user) : option;
    if (limit === undefined) return undefined;
    if (!isQuotaLimit(limit)) throw new TypeError('quota must give { generations, per } or undefined.');
    return limit;
  };
  const usageOf = (limit: QuotaLimit, window: QuotaWindow, used: number): Usage => ({
    used,
    limit: limit.generations,
    resets_at: new Date(window.resetsAt).toISOString(),
    period: typeof limit.per === 'number' ? 'seconds' : limit.per,
  });
  const needStore = () => {
    const { takeQuota, returnQuota, readQuota } = store;
    if (takeQuota === undefined || returnQuota === undefined || readQuota === undefined)
      throw new TypeError('quota needs a store with takeQuota, returnQuota and readQuota.');
    return { takeQuota, returnQuota, readQuota };
  };

  return {
    /** Counts one generation for the user, or says the quota is used up; no limit: always ok. */
    async take(user: AgentProxyUser): Promise<QuotaDecision> {
      const limit = await limitOf(user);
      if (limit === undefined) return { ok: true, ticket: undefined };
      const quotaStore = needStore();
      const window = quotaWindow(limit.per, now());
      const userId = user.externalUserId;
      const taken = await quotaStore.takeQuota.call(store, userId, window.key, limit.generations, window.resetsAt);
      if (!taken.ok) return { ok: false, usage: usageOf(limit, window, taken.used) };
      let given = false;
      return {
        ok: true,
        ticket: {
          async giveBack() {
            if (given) return;
            given = true;
            await quotaStore.returnQuota.call(store, userId, window.key).catch(onGiveBackError);
          },
        },
      };
    },
    /** The user's usage in the current period. */
    async usage(user: AgentProxyUser): Promise<Usage> {
      const limit = await limitOf(user);
      if (limit === undefined) return { used: 0, limit: null, resets_at: null, period: null };
      const window = quotaWindow(limit.per, now());
      return usageOf(limit, window, await needStore().readQuota.call(store, user.externalUserId, window.key));
    },
  };
}

/** The proxy's 429 when a user's quota is used up, with a Retry-After until the period ends. */
export function quotaExceededResponse(usage: Usage, now: number): Response {
  const body: QuotaExceededBody = { status: false, message: quotaExceededMessage, code: 'quota_exceeded', ...usage };
  const resetsAt = usage.resets_at === null ? now : Date.parse(usage.resets_at);
  const waitSeconds = retryAfterSeconds(resetsAt - now);
  return new Response(JSON.stringify(body), {
    status: 429,
    headers: withRetryAfter(jsonHeaders(), String(waitSeconds)),
  });
}
