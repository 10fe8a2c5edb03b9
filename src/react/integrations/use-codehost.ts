'use client';
/** The signed-in end user's code-host connection and install flow, refreshed when the user comes back. */
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import type {
  CodehostConnection,
  CodehostConnectionState,
  CodehostStartState,
  IntegrationResult,
  StartCodehostConnectResult,
} from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { unavailableResult } from '../shared/unavailable-result.js';
import { useAutoLoad, type UseLoadOptions } from '../shared/use-auto-load.js';

/** Options of `useCodehost`. */
export interface UseCodehostOptions extends UseLoadOptions {
  /**
   * Load again when the user may be back from the install page (default true): when the page is restored
   * from the back/forward cache, and on focus or a visible tab while not connected. A connected account is
   * not reloaded on every focus: every request counts against the agency's rate budget.
   */
  refreshOnReturn?: boolean;
}

/** What `useCodehost` returns. */
export interface UseCodehostResult {
  /** Undefined without an `externalUser` on the provider. */
  connection: CodehostConnectionState | undefined;
  start: CodehostStartState | undefined;
  /** Loads the connection again. */
  refresh(): Promise<IntegrationResult<CodehostConnection>>;
  /** Starts the install flow; name and email come from the provider's `externalUser`. */
  startConnect(returnUrl: string): Promise<IntegrationResult<StartCodehostConnectResult>>;
}

/** The connection, loaded by the hooks' load policy and, by default, again when the user comes back to the page. */
export function useCodehost(options: UseCodehostOptions = {}): UseCodehostResult {
  const { store, externalUser } = useAgentContext();
  const enabled = options.enabled ?? true;
  const refreshOnReturn = options.refreshOnReturn ?? true;
  const userId = externalUser?.id;
  const userName = externalUser?.name;
  const userEmail = externalUser?.email;
  const connection = useStore(store, (state) => (userId === undefined ? undefined : state.codehostConnections[userId]));
  const start = useStore(store, (state) => (userId === undefined ? undefined : state.codehostStarts[userId]));

  useEffect(() => {
    if (userId === undefined || !enabled || !refreshOnReturn || typeof window === 'undefined') return undefined;
    const refresh = () => void store.getState().loadCodehostConnection(userId);
    const refreshUnlessConnected = () => {
      if (store.getState().codehostConnections[userId]?.status !== 'connected') refresh();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') refreshUnlessConnected();
    };
    // A page restored from the back/forward cache never remounts: it may come straight from the install page.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) refresh();
    };
    window.addEventListener('pageshow', onPageShow);
    window.addEventListener('focus', refreshUnlessConnected);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pageshow', onPageShow);
      window.removeEventListener('focus', refreshUnlessConnected);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [store, userId, enabled, refreshOnReturn]);

  const actions = useMemo(
    () => ({
      refresh: () =>
        userId === undefined
          ? unavailableResult<CodehostConnection>('signedOut')
          : store.getState().loadCodehostConnection(userId),
      startConnect: (returnUrl: string) =>
        userId === undefined
          ? unavailableResult<StartCodehostConnectResult>('signedOut')
          : store.getState().startCodehostConnect({
              external_user_id: userId,
              ...(userName === undefined ? {} : { external_user_name: userName }),
              ...(userEmail === undefined ? {} : { external_user_email: userEmail }),
              return_url: returnUrl,
            }),
    }),
    [store, userId, userName, userEmail],
  );
  const status = connection?.status;
  useAutoLoad(
    userId,
    status === undefined || status === 'idle' ? 'absent' : status === 'error' ? 'failed' : 'held',
    enabled,
    actions.refresh,
  );
  return { connection, start, ...actions };
}
