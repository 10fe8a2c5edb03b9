/**
 * The projects whose generation a proxy is relaying, while the upstream stream is open. The upstream's first status
 * after a follow-up starts may still say how the project was before it (`ready`): a browser that stopped watching
 * would read that as the build's end, so the status route answers a terminal status as `generating` then.
 * Known in this process at once; with a store that keeps relay leases (Redis), every instance knows it too. A lease
 * lives `relayLeaseMs` unless its relay renews it, so an instance that crashed mid-build holds no project
 * "generating" longer than that.
 */
import { polledStatusOf } from '../core/index.js';
import type { RelayTimers } from './event-stream-relay.js';
import type { RelayedJson } from './proxy-responses.js';
import type { ProxyStore } from './proxy-store.js';

/** How long a relay's lease lives in the store without renewal (renewed every third of it while the relay runs). */
export const relayLeaseMs = 15_000;

/** The projects with a live relay, counted per relay. */
export interface RelayingProjects {
  /**
   * Marks a relay of the project as live; gives the function that ends it (idempotent), whose promise settles once
   * the store has the lease back (a drain waits for it: a process that exits then leaves no lease behind); undefined
   * when the store keeps no leases.
   */
  hold(projectId: string, route: 'generate' | 'followUp'): () => Promise<void> | undefined;
  /** Whether a relay of the project is live: in this instance, or (with leases) in another one. */
  isRelayed(projectId: string): Promise<boolean>;
  /** A status answer as the browser gets it: a terminal `project_status` is `generating` while a relay is live. */
  answer<T extends RelayedJson>(projectId: string, answer: T): Promise<T>;
}

/** What the relaying projects need: the store (its leases, when it keeps them), timers, and where failures go. */
export interface RelayingProjectsContext {
  store: ProxyStore;
  timers: RelayTimers;
  /**
   * A lease the store could not write (`route` is the relay's) or read (`getProject`): the status answers what the
   * upstream says meanwhile.
   */
  onLeaseError(error: unknown, projectId: string, route: 'generate' | 'followUp' | 'getProject'): void;
}

/** A success answer with a terminal `project_status` as `generating`; every other answer as it is. */
function whileBuilding<T extends RelayedJson>(answer: T): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    return answer;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return answer;
  const status = (parsed as { project_status?: unknown }).project_status;
  if (typeof status !== 'string' || polledStatusOf(status) === 'building') return answer;
  // Every other field stays as the allow-list built it, in its place.
  return { ...answer, body: JSON.stringify({ ...parsed, project_status: 'generating' }) };
}

/** A lease of the store's, renewed until it is given back. */
function leaseRelay(
  projectId: string,
  route: 'generate' | 'followUp',
  { store, timers, onLeaseError }: RelayingProjectsContext,
): () => Promise<void> | undefined {
  const { holdRelay, releaseRelay } = store;
  if (holdRelay === undefined || releaseRelay === undefined) return () => undefined;
  // One holder per relay: two relays of a project (two instances, or two tabs' requests) each hold their own.
  const holder = globalThis.crypto.randomUUID();
  let handle: unknown;
  let released = false;
  // Each write after the one before: a release sent while a renewal is on its way must not be overtaken by it.
  let written: Promise<void> = Promise.resolve();
  const write = (call: () => Promise<void>) =>
    (written = written.then(call).catch((error: unknown) => onLeaseError(error, projectId, route)));
  const renew = () => {
    void write(() => holdRelay.call(store, projectId, holder, relayLeaseMs));
    handle = timers.setTimeout(() => {
      if (!released) renew();
    }, relayLeaseMs / 3);
  };
  renew();
  return () => {
    released = true;
    timers.clearTimeout(handle);
    return write(() => releaseRelay.call(store, projectId, holder));
  };
}

/** Creates the relaying projects of one proxy instance. */
export function createRelayingProjects(context: RelayingProjectsContext): RelayingProjects {
  const live = new Map<string, number>();
  // One rewrite per answer: the waiters of one coalesced request share it (a body may be megabytes).
  const rewritten = new WeakMap<RelayedJson, RelayedJson>();
  const isRelayed = async (projectId: string) => {
    if (live.has(projectId)) return true;
    try {
      return (await context.store.isRelayed?.(projectId)) === true;
    } catch (error) {
      context.onLeaseError(error, projectId, 'getProject');
      return false;
    }
  };
  return {
    isRelayed,
    hold(projectId, route) {
      live.set(projectId, (live.get(projectId) ?? 0) + 1);
      const release = leaseRelay(projectId, route, context);
      let ended = false;
      let released: Promise<void> | undefined;
      return () => {
        if (ended) return released;
        ended = true;
        released = release();
        const left = (live.get(projectId) ?? 1) - 1;
        if (left > 0) live.set(projectId, left);
        else live.delete(projectId);
        return released;
      };
    },
    async answer(projectId, answer) {
      // Any success: an upstream's 202 "ready" mid-build is as misleading as its 200.
      if (answer.status < 200 || answer.status > 299) return answer;
      let result = rewritten.get(answer) as typeof answer | undefined;
      if (result === undefined) {
        result = whileBuilding(answer);
        rewritten.set(answer, result);
      }
      // The store is asked only when the answer would change: a poll of a building project costs no lease read.
      return result !== answer && (await isRelayed(projectId)) ? result : answer;
    },
  };
}
