/**
 * The deployments slice of the store: connecting with a provider token and deploying a project, two mutations
 * (the end user's connection and the listing are resources; the connection's status is derived here). The token is
 * passed to the client and nowhere else: it never enters the state, the log or an error kept in the state.
 */
import { AgentApiError } from '../wire/errors.js';
import type { Deployment, DeploymentConnection } from '../wire/resources.js';
import { resourceSpecs, type Resource, type ResourcesSlice } from './resources.js';
import { createMutationRunner, mutationKeys, type MutationsSlice } from './mutations.js';
import { isPast, type IntegrationResult, type SliceContext } from './slice-context.js';

/**
 * Where an end user's connection to a provider stands: `missing` (the spec's "connection not found"),
 * `expired` (its `expires_at` has passed), `unknown_provider` (the spec's "provider not found").
 */
export type DeploymentConnectionStatus =
  'idle' | 'loading' | 'connected' | 'expired' | 'missing' | 'unknown_provider' | 'error';

/** State and actions of the deployments slice. */
export interface DeploymentsSlice {
  /**
   * Stores a provider token for an end user, the `deploymentConnect` mutation; the token is sent and forgotten
   * (the connection itself is the `deploymentConnection` resource).
   */
  connectDeployment(
    provider: string,
    externalUserId: string,
    token: string,
  ): Promise<IntegrationResult<DeploymentConnection>>;
  /** Deploys a project, the `deploy` mutation; while one runs for that project and provider, returns its promise. */
  deploy(provider: string, projectId: string, externalUserId?: string): Promise<IntegrationResult<Deployment>>;
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
export function createDeploymentsSlice(
  context: SliceContext<DeploymentsSlice & ResourcesSlice & MutationsSlice>,
): DeploymentsSlice {
  const { client, get } = context;
  const mutate = createMutationRunner(context);
  return {
    connectDeployment: (provider, externalUserId, token) =>
      mutate({
        key: mutationKeys.deploymentConnect(provider, externalUserId),
        variables: { provider, externalUserId },
        call: async (signal) => {
          try {
            return await client.deployments.connect(provider, { external_user_id: externalUserId, token }, { signal });
          } catch (thrown) {
            throw thrown instanceof AgentApiError ? withoutSecret(thrown, token) : thrown;
          }
        },
        onSuccess: (connection) => {
          get().putResource(resourceSpecs.deploymentConnection(provider, externalUserId), connection);
          get().invalidate(`deployment-connections:${provider}`);
        },
      }),

    deploy: (provider, projectId, externalUserId) =>
      mutate({
        key: mutationKeys.deploy(provider, projectId),
        variables: { provider, projectId },
        call: (signal) =>
          client.deployments.deploy(
            provider,
            projectId,
            externalUserId === undefined ? {} : { external_user_id: externalUserId },
            { signal },
          ),
        // Deploying may have linked the project to the connection: the listing says so now.
        onSuccess: () => get().invalidate(`deployment-connections:${provider}`),
        onError: (error) => {
          // The deploy answer is fresher news about the connection than what was loaded before.
          if (error.code === 'connection_not_found' && externalUserId !== undefined)
            get().putResource(resourceSpecs.deploymentConnection(provider, externalUserId), null);
        },
      }),
  };
}
