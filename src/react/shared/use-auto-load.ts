'use client';
/** The one load policy of the data hooks, described in the README's "Hooks" section. */
import { useEffect, useRef } from 'react';
import { useLatestCallback } from './use-latest-callback.js';

/** Options of the data hooks' load policy. */
export interface UseLoadOptions {
  /** Load on mount and key change when the store does not hold the data yet (default true); actions work either way. */
  enabled?: boolean;
}

/** What the store holds for a hook's key: nothing yet (or it was dropped), an answer or a load in flight, a failure. */
export type Holding = 'absent' | 'held' | 'failed';

/**
 * Loads the resource of `key` when the hook mounts, when `key` changes and whenever the store drops it
 * (`absent` again), unless the store holds it. A failed load is tried again on the next mount or key change,
 * never in a loop. Nothing while `enabled` is false or without a key (no end user, no project).
 */
export function useAutoLoad(key: string | undefined, holding: Holding, enabled: boolean, load: () => unknown): void {
  const run = useLatestCallback(load);
  // The key this hook instance last looked at: a failure is retried only when the key (or the mount) is new.
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!enabled || key === undefined) return;
    const newKey = seen.current !== key;
    seen.current = key;
    if (holding === 'absent' || (holding === 'failed' && newKey)) run();
  }, [key, holding, enabled, run]);
}
