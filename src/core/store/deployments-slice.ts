/**
 * The deployments slice of the store: an end user's connection to a provider, the agency's list of
 * connections, connecting with a provider token, and deploying a project. The token is passed to the
 * client and nowhere else: it never enters the state, the log or an error kept in the state.
 */
import { AgentApiError, agentApiMessages } from '../wire/errors.js';
import type { Deployment, DeploymentConnection } from '../wire/resources.js';
import type { ResourcesSlice } from './resources.js';
import { createSliceRunner, isPast, type IntegrationResult, type SliceContext } from './slice-context.js';

/**
 * Where an end user's connection to a provider stands: `missing` (the spec's "connection not found"),
 * `expired` (its `expires_at` has passed), `unknown_provider` (the spec's "provider not found").
 */
export type DeploymentConnectionStatus =
  'idle' | 'loading' | 'connected' | 'expired' | 'missing' | 'unknown_provider' | 'error';

/** Where the last token submission stands. */
export type DeploymentConnectStatus = 'idle' | 'submitting' | 'connected' | 'failed';

/** An end user's connection to one provider. */
export interface DeploymentConnectionState {
  provider: string;
  externalUserId: string;
  status: DeploymentConnectionStatus;
  connection: DeploymentConnection | undefined;
  /** Why loading failed (or the spec's not-found message while `missing`). */
  error: AgentApiError | undefined;
  connectStatus: DeploymentConnectStatus;
  /** Why the last token was refused: field errors (422), the provider's rejection, the 409 conflict. */
  connectError: AgentApiError | undefined;
}

/** Where a deployment stands. */
export type DeploymentStatus = 'idle' | 'deploying' | 'deployed' | 'failed';

/** The latest deployment of a project to a provider. */
export interface DeploymentState {
  provider: string;
  projectId: string;
  status: DeploymentStatus;
  deployment: Deployment | undefined;
  error: AgentApiError | undefined;
  startedAt: number | undefined;
  endedAt: number | undefined;
}

/** State and actions of the deployments slice. */
export interface DeploymentsSlice {
  /** By `deploymentConnectionKey(provider, externalUserId)`. */
  deploymentConnections: Record<string, DeploymentConnectionState>;
  /** By `deploymentKey(provider, projectId)`. */
  deployments: Record<string, DeploymentState>;
  /** Loads an end user's connection (one request however many callers). */
  loadDeploymentConnection(provider: string, externalUserId: string): Promise<IntegrationResult<DeploymentConnection>>;
  /** Stores a provider token for an end user; the token is sent and forgotten. */
  connectDeployment(
    provider: string,
    externalUserId: string,
    token: string,
  ): Promise<IntegrationResult<DeploymentConnection>>;
  /** Deploys a project; while one runs for that project and provider, returns its promise and sends nothing. */
  deploy(provider: string, projectId: string, externalUserId?: string): Promise<IntegrationResult<Deployment>>;
}

/** The key of an end user's connection to a provider in `deploymentConnections`. */
export function deploymentConnectionKey(provider: string, externalUserId: string): string {
  return `${provider}:${externalUserId}`;
}

/** The key of a project's deployment to a provider in `deployments`. */
export function deploymentKey(provider: string, projectId: string): string {
  return `${provider}:${projectId}`;
}

function emptyConnection(provider: string, externalUserId: string): DeploymentConnectionState {
  return {
    provider,
    externalUserId,
    status: 'idle',
    connection: undefined,
    error: undefined,
    connectStatus: 'idle',
    connectError: undefined,
  };
}

/** A copy of the error with every occurrence of the secret masked, in case a server echoes the token. */
function withoutSecret(error: AgentApiError, secret: string): AgentApiError {
  if (secret === '') return error;
  const mask = (text: string) => text.split(secret).join('•••');
  const leaks =
    error.message.includes(secret) ||
    Object.values(error.fieldErrors ?? {}).some((messages) => messages.some((message) => message.includes(secret)));
  if (!leaks) return error;
  const options: ConstructorParameters<typeof AgentApiError>[2] = { code: error.code };
  if (error.status !== undefined) options.status = error.status;
  if (error.retryAfterMs !== undefined) options.retryAfterMs = error.retryAfterMs;
  if (error.fieldErrors !== undefined)
    options.fieldErrors = Object.fromEntries(
      Object.entries(error.fieldErrors).map(([field, messages]) => [field, messages.map(mask)]),
    );
  return new AgentApiError(error.kind, mask(error.message), options);
}

/** The connection status a failed request leaves behind, if it says something about the connection. */
function statusOfFailure(error: AgentApiError): DeploymentConnectionStatus | undefined {
  if (error.code === 'provider_not_found') return 'unknown_provider';
  if (error.code === 'connection_not_found') return 'missing';
  return undefined;
}

/** Creates the deployments slice. */
export function createDeploymentsSlice(context: SliceContext<DeploymentsSlice & ResourcesSlice>): DeploymentsSlice {
  const { client, get, set, now } = context;
  const run = createSliceRunner(context.signal);

  function connectionState(provider: string, externalUserId: string): DeploymentConnectionState {
    return (
      get().deploymentConnections[deploymentConnectionKey(provider, externalUserId)] ??
      emptyConnection(provider, externalUserId)
    );
  }

  function patchConnection(provider: string, externalUserId: string, patch: Partial<DeploymentConnectionState>): void {
    const key = deploymentConnectionKey(provider, externalUserId);
    set({
      deploymentConnections: {
        ...get().deploymentConnections,
        [key]: { ...connectionState(provider, externalUserId), ...patch },
      },
    });
  }

  function patchDeployment(provider: string, projectId: string, patch: Partial<DeploymentState>): void {
    const key = deploymentKey(provider, projectId);
    const previous = get().deployments[key] ?? {
      provider,
      projectId,
      status: 'idle',
      deployment: undefined,
      error: undefined,
      startedAt: undefined,
      endedAt: undefined,
    };
    set({ deployments: { ...get().deployments, [key]: { ...previous, ...patch } } });
  }

  function connected(connection: DeploymentConnection): Partial<DeploymentConnectionState> {
    return { status: isPast(connection.expires_at, now()) ? 'expired' : 'connected', connection, error: undefined };
  }

  return {
    deploymentConnections: {},
    deployments: {},

    loadDeploymentConnection(provider, externalUserId) {
      const record = `connection:${deploymentConnectionKey(provider, externalUserId)}`;
      return run({
        key: `load:${record}`,
        record,
        call: async (signal) => {
          // The listing answers 200 for "not connected"; the direct lookup's 404 is a red console error in every
          // browser. The detailed view (its expiry) is asked for only once the connection is known to exist.
          const listed = await client.deployments.listConnections(provider, { signal });
          if (!listed.some((connection) => connection.external_user_id === externalUserId))
            throw new AgentApiError('not_found', agentApiMessages.deploymentConnectionNotFound, { status: 404 });
          return client.deployments.getConnection(provider, externalUserId, { signal });
        },
        start: () => patchConnection(provider, externalUserId, { status: 'loading' }),
        succeed: (connection) => patchConnection(provider, externalUserId, connected(connection)),
        fail: (error) => {
          const status = statusOfFailure(error);
          // A 404 without the spec's words (a proxy's, say) still means there is nothing to show.
          const missing = status ?? (error.kind === 'not_found' ? 'missing' : 'error');
          patchConnection(provider, externalUserId, { status: missing, connection: undefined, error });
        },
      });
    },

    connectDeployment(provider, externalUserId, token) {
      const record = `connection:${deploymentConnectionKey(provider, externalUserId)}`;
      context.log('action', `Connect ${provider} for ${externalUserId}`);
      return run({
        key: `connect:${record}`,
        record,
        call: async (signal) => {
          try {
            return await client.deployments.connect(provider, { external_user_id: externalUserId, token }, { signal });
          } catch (thrown) {
            throw thrown instanceof AgentApiError ? withoutSecret(thrown, token) : thrown;
          }
        },
        start: () =>
          patchConnection(provider, externalUserId, { connectStatus: 'submitting', connectError: undefined }),
        succeed: (connection) => {
          context.log('action', `Connected ${provider} for ${externalUserId}`);
          get().invalidate(`deployment-connections:${provider}`);
          patchConnection(provider, externalUserId, {
            ...connected(connection),
            connectStatus: 'connected',
            connectError: undefined,
          });
        },
        fail: (error) => {
          context.log('error', `Connecting ${provider} failed (${error.message})`);
          const status = statusOfFailure(error);
          patchConnection(provider, externalUserId, {
            connectStatus: 'failed',
            connectError: error,
            ...(status === 'unknown_provider' ? { status, error } : {}),
          });
        },
      });
    },

    deploy(provider, projectId, externalUserId) {
      const record = `deploy:${deploymentKey(provider, projectId)}`;
      context.log('action', `Deploy ${projectId} to ${provider}`);
      return run({
        key: record,
        record,
        call: (signal) =>
          client.deployments.deploy(
            provider,
            projectId,
            externalUserId === undefined ? {} : { external_user_id: externalUserId },
            { signal },
          ),
        start: () =>
          patchDeployment(provider, projectId, {
            status: 'deploying',
            error: undefined,
            startedAt: now(),
            endedAt: undefined,
          }),
        succeed: (deployment) => {
          context.log('action', `Deployed ${projectId} to ${provider} (${String(deployment.status)})`);
          patchDeployment(provider, projectId, { status: 'deployed', deployment, endedAt: now() });
          // Deploying may have linked the project to the connection: the listing says so now.
          get().invalidate(`deployment-connections:${provider}`);
        },
        fail: (error) => {
          context.log('error', `Deploying ${projectId} to ${provider} failed (${error.message})`);
          patchDeployment(provider, projectId, { status: 'failed', error, endedAt: now() });
          // The deploy answer is fresher news about the connection than what was loaded before.
          const status = statusOfFailure(error);
          if (status !== undefined && externalUserId !== undefined)
            patchConnection(provider, externalUserId, { status, connection: undefined, error });
        },
      });
    },
  };
}
