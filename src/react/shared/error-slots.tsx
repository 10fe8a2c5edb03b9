'use client';
/**
 * "One error, shown once": every place of a provider that can show a failure (each `ErrorAlert`, the build
 * log's outcome, the preview's empty stage) claims a slot for it; the claim of the highest rank shows it in
 * full (the first among equals), the others only name it or stay neutral. An account-wide failure (the
 * service unavailable, paused, or its key expired) is one failure however many calls met it.
 */
import { createContext, useContext, useEffect, useId, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { AgentApiError, AgentErrorKind, ProjectView } from '../../core/index.js';

/** Kinds that say the same thing whichever call met them: shown once per provider, not once per call. */
const accountWideKinds: ReadonlySet<AgentErrorKind> = new Set(['unauthorized', 'token_expired', 'suspended']);

/**
 * How strongly a place claims the failure it could show: the place with the next step outranks one that can
 * only mention it (the build log's outcome, with "Buy credits", outranks the preview's empty stage).
 */
export const slotRank = { mention: 0, nextStep: 1 } as const;

interface Claim {
  id: string;
  rank: number;
  /** The element that tells it, for a place that only points at it (`useToldSentence`). */
  textId?: string | undefined;
}

interface ErrorSlots {
  claim(key: unknown, id: string, rank: number, textId?: string): void;
  release(key: unknown, id: string): void;
  owner(key: unknown): Claim | undefined;
  subscribe(listener: () => void): () => void;
}

function createErrorSlots(): ErrorSlots {
  const claims = new Map<unknown, Claim[]>();
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  return {
    claim(key, id, rank, textId) {
      // Each effect releases before it claims again, so a claim is always new.
      claims.set(key, [...(claims.get(key) ?? []), { id, rank, textId }]);
      notify();
    },
    release(key, id) {
      const held = (claims.get(key) ?? []).filter((claim) => claim.id !== id);
      if (held.length === 0) claims.delete(key);
      else claims.set(key, held);
      notify();
    },
    owner(key) {
      let owner: Claim | undefined;
      // The highest rank; among equals, the first to claim.
      for (const claim of claims.get(key) ?? []) if (owner === undefined || claim.rank > owner.rank) owner = claim;
      return owner;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const ErrorSlotsContext = createContext<ErrorSlots | undefined>(undefined);

/** Gives the alerts inside it one shared set of slots (AgentProvider renders it). */
export function ErrorSlotsProvider({ children }: { children: ReactNode }) {
  const [slots] = useState(createErrorSlots);
  return <ErrorSlotsContext.Provider value={slots}>{children}</ErrorSlotsContext.Provider>;
}

const noOwner = () => undefined;
const noSubscription = () => () => {};

/** The slot of the sentence that says the end user's quota is used up and when more builds come: one per provider. */
export const quotaSlotKey = 'quota';

/** The slot of the sentence that says a project is gone and what to do next (the log's, else the prompt box's). */
export const goneSentenceSlotKey = (view: Pick<ProjectView, 'projectId' | 'key'>) =>
  `gone-sentence:${view.projectId ?? view.key ?? ''}`;

/**
 * The slot of a build that ended badly (failed, out of credits, connection lost), shared by every place that
 * tells it for the same project; undefined while nothing has gone wrong.
 */
export function outcomeSlotKey(view: Pick<ProjectView, 'phase' | 'projectId' | 'key'>): string | undefined {
  const { phase } = view;
  if (phase !== 'failed' && phase !== 'credits_exhausted' && phase !== 'interrupted' && phase !== 'gone')
    return undefined;
  return `outcome:${view.projectId ?? view.key ?? ''}:${phase}`;
}

/** Whether this alert is the one that shows `error` in full (always, outside a provider). */
export function useErrorSlot(error: AgentApiError | undefined, rank: number = slotRank.nextStep): boolean {
  const key = error === undefined ? undefined : accountWideKinds.has(error.kind) ? `kind:${error.kind}` : error;
  return useFailureSlot(key, rank);
}

/**
 * Whether this place is the one that shows the failure named by `key` in full (always, outside a provider,
 * and when `key` is undefined). Places that show the same failure in their own words share a key.
 */
export function useFailureSlot(key: unknown, rank: number): boolean {
  return useSlotClaim(key, rank, undefined).toldHere;
}

/**
 * `useFailureSlot` for a sentence a place tells in an element of its own (`textId`): the id of the element that tells
 * it, this place's own when it does (always outside a provider, and when `key` is undefined). A place that defers points
 * at the teller's element (an `aria-describedby`) instead of saying the sentence a second time.
 */
export function useToldSentence(key: unknown, rank: number, textId: string): string | undefined {
  const { toldHere, owner } = useSlotClaim(key, rank, textId);
  return toldHere ? textId : owner?.textId;
}

/** Claims the slot of `key` while mounted; whether this place tells it, and the claim of the place that does. */
function useSlotClaim(key: unknown, rank: number, textId: string | undefined) {
  const slots = useContext(ErrorSlotsContext);
  const id = useId();
  useEffect(() => {
    if (slots === undefined || key === undefined) return;
    slots.claim(key, id, rank, textId);
    return () => slots.release(key, id);
  }, [slots, key, id, rank, textId]);
  const owner = useSyncExternalStore(
    slots?.subscribe ?? noSubscription,
    () => (key === undefined ? undefined : (slots?.owner(key) ?? noOwner())),
    () => undefined,
  );
  // Before the first claim lands (the first render) everyone is a candidate; the claims settle it at once.
  return { toldHere: slots === undefined || owner === undefined || owner.id === id, owner };
}
