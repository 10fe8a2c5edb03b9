/**
 * The deployments slice of the store: connecting with a provider token and deploying a project (the end
 * user's connection and the listing are resources; the connection's status is derived here). The token is passed to the
 * client and nowhere else: it never enters the state, the log or an error kept in the state.
 */
import { AgentApiError } from '../wire/errors.js';
import type { Deployment, DeploymentConnection } from '../wire/resources.js';
import { resourceSpecs, type Resource, type ResourcesSlice } from './resources.js';
import { createSliceRunner, isPast, type IntegrationResult, type SliceContext } from './slice-context.js';

/**
 * Where an end user's connection to a provider stands: `missing` (the spec's "connection not found"),
 * `expired` (its `expires_at` has passed), `unknown_provider` (the spec's "provider not found").
 */
export type DeploymentConnectionStatus =
  'idle' | 'loading' | 'connected' | 'expired' | 'missing' | 'unknown_provider' | 'error';

/** Where the last token submission stands. */
export type DeploymentConnectStatus = 'idle' | 'submitting' | 'connected' | 'failed';

/** The last token submission of an end user to one provider. */
export interface DeploymentConnectState {
  provider: string;
  status: DeploymentConnectStatus;
  /** Why the token was refused: field errors (422), the provider's rejection, the 409 conflict. */
  error: AgentApiError | undefined;
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
  /** By `deploymentConnectionKey(provider, externalUserId)`; the connection itself is the `deploymentConnection` resource. */
  deploymentConnects: Record<string, DeploymentConnectState>;
  /** By `deploymentKey(provider, projectId)`. */
  deployments: Record<string, DeploymentState>;
  /** Stores a provider token for an end user; the token is sent and forgotten. */
  connectDeployment(
    provider: string,
    externalUserId: string,
    token: string,
  ): Promise<IntegrationResult<DeploymentConnection>>;
  /** Deploys a project; while one runs for that project and provider, returns its promise and sends nothing. */
  deploy(provider: string, projectId: string, externalUserId?: string): Promise<IntegrationResult<Deployment>>;
}

/** The key of an end user's token submission to a provider in `deploymentConnects`. */
export function deploymentConnectionKey(provider: string, externalUserId: string): string {
  return `${provider}:${externalUserId}`;
}

/** The key of a project's deployment to a provider in `deployments`. */
export function deploymentKey(provider: string, projectId: string): string {
  return `${provider}:${projectId}`;
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

/** Where the `deploymentConnection` resource says the end user's connection stood when it was last answered. */
export function deploymentConnectionStatus(
  resource: Resource<DeploymentConnection | null>,
): DeploymentConnectionStatus {
  const connection = resource.data;
  if (connection === null) return 'missing';
  if (connection !== undefined) return isPast(connection.expires_at, resource.updatedAt ?? 0) ? 'expired' : 'connected';
  if (resource.error?.code === 'provider_not_found') return 'unknown_provider';
  return resource.status === 'success' ? 'missing' : resource.status;
}

/** Creates the deployments slice. */
export function createDeploymentsSlice(context: SliceContext<DeploymentsSlice & ResourcesSlice>): DeploymentsSlice {
  const { client, get, set, now } = context;
  const run = createSliceRunner(context.signal);

  function patchConnect(provider: string, externalUserId: string, patch: Omit<DeploymentConnectState, 'provider'>) {
    const key = deploymentConnectionKey(provider, externalUserId);
    set({ deploymentConnects: { ...get().deploymentConnects, [key]: { provider, ...patch } } });
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

  return {
    deploymentConnects: {},
    deployments: {},

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
        start: () => patchConnect(provider, externalUserId, { status: 'submitting', error: undefined }),
        succeed: (connection) => {
          context.log('action', `Connected ${provider} for ${externalUserId}`);
          get().putResource(resourceSpecs.deploymentConnection(provider, externalUserId), connection);
          get().invalidate(`deployment-connections:${provider}`);
          patchConnect(provider, externalUserId, { status: 'connected', error: undefined });
        },
        fail: (error) => {
          context.log('error', `Connecting ${provider} failed (${error.message})`);
          patchConnect(provider, externalUserId, { status: 'failed', error });
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
          if (error.code === 'connection_not_found' && externalUserId !== undefined)
            get().putResource(resourceSpecs.deploymentConnection(provider, externalUserId), null);
        },
      });
    },
  };
}
