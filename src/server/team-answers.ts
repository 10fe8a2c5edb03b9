/**
 * Answers that are the same for every end user of the team (the subscription plans), reused for a short
 * while by every user of this proxy instance: reading them then costs the team's budget once per
 * `ttlMs`, not once per user, and concurrent readers share one upstream request.
 */
import type { AgentRouteName } from '../core/index.js';
import type { RelayedJson } from './proxy-responses.js';

/** Routes whose answer does not depend on the end user or on anything in the request. */
const teamWideRoutes: ReadonlySet<AgentRouteName> = new Set(['listPlans']);

/** The default of `teamAnswersCacheMs`. */
export const defaultTeamAnswersCacheMs = 60_000;

/** A reused answer, or how it was obtained. */
export interface TeamAnswer {
  answer: RelayedJson;
  cache: 'hit' | 'miss' | 'coalesced';
}

/** The cache of team-wide answers of one proxy instance. */
export interface TeamAnswers {
  /** Whether `route` is answered from this cache. */
  covers(route: AgentRouteName): boolean;
  /** The kept answer of `route`, else the one `load` gets (shared by concurrent callers; kept if it `succeeded`). */
  get(route: AgentRouteName, load: () => Promise<{ relayed: RelayedJson; succeeded: boolean }>): Promise<TeamAnswer>;
}

/** Creates the cache; `ttlMs` 0 turns it off (every read goes upstream). */
export function createTeamAnswers(ttlMs: number, now: () => number): TeamAnswers {
  const kept = new Map<AgentRouteName, { answer: RelayedJson; expiresAt: number }>();
  const loading = new Map<AgentRouteName, Promise<RelayedJson>>();
  return {
    covers: (route) => ttlMs > 0 && teamWideRoutes.has(route),
    async get(route, load) {
      const found = kept.get(route);
      if (found !== undefined && found.expiresAt > now()) return { answer: found.answer, cache: 'hit' };
      const pending = loading.get(route);
      if (pending !== undefined) return { answer: await pending, cache: 'coalesced' };
      const started = load()
        .then(({ relayed, succeeded }) => {
          if (succeeded) kept.set(route, { answer: relayed, expiresAt: now() + ttlMs });
          return relayed;
        })
        .finally(() => loading.delete(route));
      loading.set(route, started);
      return { answer: await started, cache: 'miss' };
    },
  };
}
