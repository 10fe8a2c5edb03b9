'use client';
/** The signed-in end user's code-host connection and install flow, refreshed when the user comes back. */
import { useEffect, useMemo } from 'react';
import {
  codehostConnectionStatus,
  mutationKeys,
  resourceSpecs,
  selectResource,
  type CodehostConnection,
  type CodehostConnectionStatus,
  type IntegrationResult,
  type Mutation,
  type StartCodehostConnectResult,
} from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { unavailableResult } from '../shared/unavailable-result.js';
import type { UseLoadOptions } from '../shared/use-auto-load.js';
import { useMutation } from '../shared/use-mutation.js';
import { useResource, type UseResourceResult } from '../shared/use-resource.js';

/** Options of `useCodehost`. */
export interface UseCodehostOptions extends UseLoadOptions {
  /**
   * Load again when the user may be back from the install page (default true): when the page is restored
   * from the back/forward cache, and on focus or a visible tab while not connected. A connected account is
   * not reloaded on every focus: every request counts against the agency's rate budget.
   */
  refreshOnReturn?: boolean;
}

/** What `useCodehost` returns: `data` is the connection, or null when the end user has none. */
export interface UseCodehostResult extends UseResourceResult<CodehostConnection | null> {
  /** Where the connection stands (`missing`, `connected`, `expired`, `inactive`, or the load's `idle`, `loading`, `error`). */
  connectionStatus: CodehostConnectionStatus;
  /** The latest start of the install flow (the `codehostStart` mutation); its data's `redirect_url` is http(s). */
  start: Mutation<StartCodehostConnectResult, { externalUserId: string }>;
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
  const spec = resourceSpecs.codehostConnection(userId ?? '');
  const connection = useResource(spec, { enabled: enabled && userId !== undefined });
  const start = useMutation(userId === undefined ? undefined : mutationKeys.codehostStart(userId));
  const load = connection.refresh;

  useEffect(() => {
    if (userId === undefined || !enabled || !refreshOnReturn || typeof window === 'undefined') return undefined;
    const refreshUnlessConnected = () => {
      if (codehostConnectionStatus(selectResource(store.getState(), spec)) !== 'connected') void load();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') refreshUnlessConnected();
    };
    // A page restored from the back/forward cache never remounts: it may come straight from the install page.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) void load();
    };
    window.addEventListener('pageshow', onPageShow);
    window.addEventListener('focus', refreshUnlessConnected);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pageshow', onPageShow);
      window.removeEventListener('focus', refreshUnlessConnected);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [store, userId, enabled, refreshOnReturn, load]); // eslint-disable-line react-hooks/exhaustive-deps

  const actions = useMemo(
    () => ({
      refresh: () => (userId === undefined ? unavailableResult<CodehostConnection | null>('signedOut') : load()),
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
    [store, userId, userName, userEmail, load],
  );
  return { ...connection, connectionStatus: codehostConnectionStatus(connection), start, ...actions };
}
