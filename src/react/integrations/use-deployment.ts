'use client';
/** An end user's connection to a deployment provider and a project's deployment there, with their actions. */
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import {
  deploymentConnectionKey,
  deploymentKey,
  type Deployment,
  type DeploymentConnection,
  type DeploymentConnectionListState,
  type DeploymentConnectionState,
  type DeploymentState,
  type IntegrationResult,
} from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';

/** What `useDeployment` returns. */
export interface UseDeploymentResult {
  /** The signed-in end user's connection; undefined without an `externalUser` on the provider. */
  connection: DeploymentConnectionState | undefined;
  /** The project's latest deployment to the provider. */
  deployment: DeploymentState | undefined;
  /** Loads the connection again. */
  reload(): Promise<IntegrationResult<DeploymentConnection>> | undefined;
  /** Sends a provider token once; it is not kept anywhere. Call it from an event handler. */
  connect(token: string): Promise<IntegrationResult<DeploymentConnection>> | undefined;
  /** Deploys the project (de-duplicated while one runs). Call it from an event handler, never an effect. */
  deploy(): Promise<IntegrationResult<Deployment>> | undefined;
}

/** Loads the signed-in end user's connection to `provider` on mount and follows `projectId`'s deployment. */
export function useDeployment(provider: string, projectId: string | undefined): UseDeploymentResult {
  const { store, externalUser } = useAgentContext();
  const userId = externalUser?.id;
  const connection = useStore(store, (state) =>
    userId === undefined ? undefined : state.deploymentConnections[deploymentConnectionKey(provider, userId)],
  );
  const deployment = useStore(store, (state) =>
    projectId === undefined ? undefined : state.deployments[deploymentKey(provider, projectId)],
  );

  useEffect(() => {
    if (userId !== undefined) void store.getState().loadDeploymentConnection(provider, userId);
  }, [store, provider, userId]);

  const actions = useMemo(
    () => ({
      reload: () => (userId === undefined ? undefined : store.getState().loadDeploymentConnection(provider, userId)),
      connect: (token: string) =>
        userId === undefined ? undefined : store.getState().connectDeployment(provider, userId, token),
      deploy: () => (projectId === undefined ? undefined : store.getState().deploy(provider, projectId, userId)),
    }),
    [store, provider, userId, projectId],
  );
  return { connection, deployment, ...actions };
}

/** What `useDeploymentConnections` returns. */
export interface UseDeploymentConnectionsResult extends DeploymentConnectionListState {
  reload(): Promise<IntegrationResult<DeploymentConnection[]>>;
}

/**
 * The agency's connections to a provider, loaded on mount (behind the agency's proxy, only the signed-in
 * end user's own). For agency dashboards built on the headless hooks.
 */
export function useDeploymentConnections(provider: string): UseDeploymentConnectionsResult {
  const { store } = useAgentContext();
  const list = useStore(store, (state) => state.deploymentConnectionLists[provider]);
  useEffect(() => {
    void store.getState().loadDeploymentConnections(provider);
  }, [store, provider]);
  return {
    ...(list ?? { status: 'loading', connections: [], error: undefined }),
    reload: () => store.getState().loadDeploymentConnections(provider),
  };
}
