'use client';
/** An end user's connection to a deployment provider and a project's deployment there, with their actions. */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import {
  deploymentConnectionKey,
  deploymentKey,
  resourceSpecs,
  type Deployment,
  type DeploymentConnection,
  type DeploymentConnectionState,
  type DeploymentState,
  type IntegrationResult,
} from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { unavailableResult } from '../shared/unavailable-result.js';
import { useAutoLoad, type Holding, type UseLoadOptions } from '../shared/use-auto-load.js';
import { useResource, type UseResourceResult } from '../shared/use-resource.js';

/** What `useDeployment` returns. */
export interface UseDeploymentResult {
  /** The signed-in end user's connection; undefined without an `externalUser` on the provider. */
  connection: DeploymentConnectionState | undefined;
  /** The project's latest deployment to the provider. */
  deployment: DeploymentState | undefined;
  /** Loads the connection again. */
  refresh(): Promise<IntegrationResult<DeploymentConnection>>;
  /** Sends a provider token once; it is not kept anywhere. Call it from an event handler. */
  connect(token: string): Promise<IntegrationResult<DeploymentConnection>>;
  /** Deploys the project (de-duplicated while one runs). Call it from an event handler, never an effect. */
  deploy(): Promise<IntegrationResult<Deployment>>;
}

function holdingOf(status: DeploymentConnectionState['status'] | undefined): Holding {
  return status === undefined || status === 'idle' ? 'absent' : status === 'error' ? 'failed' : 'held';
}

/** The signed-in end user's connection to `provider` (loaded by the hooks' load policy) and `projectId`'s deployment. */
export function useDeployment(
  provider: string,
  projectId: string | undefined,
  options: UseLoadOptions = {},
): UseDeploymentResult {
  const { store, externalUser } = useAgentContext();
  const userId = externalUser?.id;
  const connectionKey = userId === undefined ? undefined : deploymentConnectionKey(provider, userId);
  const connection = useStore(store, (state) =>
    connectionKey === undefined ? undefined : state.deploymentConnections[connectionKey],
  );
  const deployment = useStore(store, (state) =>
    projectId === undefined ? undefined : state.deployments[deploymentKey(provider, projectId)],
  );

  const actions = useMemo(
    () => ({
      refresh: () =>
        userId === undefined
          ? unavailableResult<DeploymentConnection>('signedOut')
          : store.getState().loadDeploymentConnection(provider, userId),
      connect: (token: string) =>
        userId === undefined
          ? unavailableResult<DeploymentConnection>('signedOut')
          : store.getState().connectDeployment(provider, userId, token),
      deploy: () =>
        projectId === undefined
          ? unavailableResult<Deployment>('noProject')
          : store.getState().deploy(provider, projectId, userId),
    }),
    [store, provider, userId, projectId],
  );
  useAutoLoad(connectionKey, holdingOf(connection?.status), options.enabled ?? true, actions.refresh);
  return { connection, deployment, ...actions };
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
