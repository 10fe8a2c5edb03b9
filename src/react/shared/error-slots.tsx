'use client';
/**
 * "One error, shown once": every `ErrorAlert` of a provider claims a slot for what it shows; the first
 * to claim an error shows it in full, the others only name what failed. An account-wide failure (the
 * service unavailable, paused, or its key expired) is one failure however many calls met it.
 */
import { createContext, useContext, useEffect, useId, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { AgentApiError, AgentErrorKind } from '../../core/index.js';

/** Kinds that say the same thing whichever call met them: shown once per provider, not once per call. */
const accountWideKinds: ReadonlySet<AgentErrorKind> = new Set(['unauthorized', 'token_expired', 'suspended']);

interface ErrorSlots {
  claim(key: unknown, id: string): void;
  release(key: unknown, id: string): void;
  owner(key: unknown): string | undefined;
  subscribe(listener: () => void): () => void;
}

function createErrorSlots(): ErrorSlots {
  const claims = new Map<unknown, string[]>();
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  return {
    claim(key, id) {
      const ids = claims.get(key) ?? [];
      if (ids.includes(id)) return;
      claims.set(key, [...ids, id]);
      notify();
    },
    release(key, id) {
      const ids = (claims.get(key) ?? []).filter((claimed) => claimed !== id);
      if (ids.length === 0) claims.delete(key);
      else claims.set(key, ids);
      notify();
    },
    owner: (key) => claims.get(key)?.[0],
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

/** Whether this alert is the one that shows `error` in full (always, outside a provider). */
export function useErrorSlot(error: AgentApiError | undefined): boolean {
  const slots = useContext(ErrorSlotsContext);
  const id = useId();
  const key = error === undefined ? undefined : accountWideKinds.has(error.kind) ? `kind:${error.kind}` : error;
  useEffect(() => {
    if (slots === undefined || key === undefined) return;
    slots.claim(key, id);
    return () => slots.release(key, id);
  }, [slots, key, id]);
  const owner = useSyncExternalStore(
    slots?.subscribe ?? noSubscription,
    () => (key === undefined ? undefined : (slots?.owner(key) ?? noOwner())),
    () => undefined,
  );
  // Before the first claim lands (the first render) everyone is a candidate; the claims settle it at once.
  return slots === undefined || owner === undefined || owner === id;
}
