'use client';
/** An end user's connection to a deployment provider and a project's deployment there, with their actions. */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import {
  deploymentConnectionStatus,
  mutationKeys,
  resourceSpecs,
  selectResource,
  type Deployment,
  type DeploymentConnection,
  type DeploymentConnectionStatus,
  type IntegrationResult,
  type Mutation,
} from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { unavailableResult } from '../shared/unavailable-result.js';
import type { UseLoadOptions } from '../shared/use-auto-load.js';
import { useMutation } from '../shared/use-mutation.js';
import { useResource, type UseResourceResult } from '../shared/use-resource.js';

/** What `useDeployment` returns: `data` is the end user's connection, or null when they have none. */
export interface UseDeploymentResult extends UseResourceResult<DeploymentConnection | null> {
  /** Where the connection stands (`missing`, `connected`, `expired`, `unknown_provider`, or the load's `idle`, `loading`, `error`). */
  connectionStatus: DeploymentConnectionStatus;
  /** The last token sent from here (the `deploymentConnect` mutation): `pending`, `success` or `error` with why. */
  connecting: Mutation<DeploymentConnection, { provider: string; externalUserId: string }>;
  /** The project's latest deploy to the provider (the `deploy` mutation): `pending`, `success` or `error` with why. */
  deployment: Mutation<Deployment, { provider: string; projectId: string }>;
  /** The project's live deployment: the latest deploy that succeeded, still live when a later one failed. */
  live: Deployment | undefined;
  /** Sends a provider token once; it is not kept anywhere. Call it from an event handler. */
  connect(token: string): Promise<IntegrationResult<DeploymentConnection>>;
  /** Deploys the project (de-duplicated while one runs). Call it from an event handler, never an effect. */
  deploy(): Promise<IntegrationResult<Deployment>>;
}

/** The signed-in end user's connection to `provider` (loaded by the hooks' load policy) and `projectId`'s deployment. */
export function useDeployment(
  provider: string,
  projectId: string | undefined,
  options: UseLoadOptions = {},
): UseDeploymentResult {
  const { store, externalUser } = useAgentContext();
  const userId = externalUser?.id;
  const connection = useResource(resourceSpecs.deploymentConnection(provider, userId ?? ''), {
    enabled: userId !== undefined && (options.enabled ?? true),
  });
  const connecting = useMutation(userId === undefined ? undefined : mutationKeys.deploymentConnect(provider, userId));
  const deployment = useMutation(projectId === undefined ? undefined : mutationKeys.deploy(provider, projectId));
  const live = useStore(store, (state) =>
    projectId === undefined ? undefined : selectResource(state, resourceSpecs.deployment(provider, projectId)).data,
  );
  const load = connection.refresh;
  const actions = useMemo(
    () => ({
      refresh: () => (userId === undefined ? unavailableResult<DeploymentConnection | null>('signedOut') : load()),
      connect: (token: string) =>
        userId === undefined
          ? unavailableResult<DeploymentConnection>('signedOut')
          : store.getState().connectDeployment(provider, userId, token),
      deploy: () =>
        projectId === undefined
          ? unavailableResult<Deployment>('noProject')
          : store.getState().deploy(provider, projectId, userId),
    }),
    [store, provider, userId, projectId, load],
  );
  return {
    ...connection,
    connectionStatus: deploymentConnectionStatus(connection),
    connecting,
    deployment,
    live,
    ...actions,
  };
}

/** What `useDeploymentConnections` returns: `data` is the connections. */
export type UseDeploymentConnectionsResult = UseResourceResult<DeploymentConnection[]>;

/**
 * The agency's connections to a provider, loaded by the hooks' load policy (behind the agency's proxy, only
 * the signed-in end user's own). For agency dashboards built on the headless hooks.
 */
export function useDeploymentConnections(
  provider: string,
  options: UseLoadOptions = {},
): UseDeploymentConnectionsResult {
  return useResource(resourceSpecs.deploymentConnections(provider), options);
}
