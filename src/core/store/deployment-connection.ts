/**
 * What the `deploymentConnection` resource says about an end user's connection to a provider. Connecting with a
 * provider token and deploying are mutations (`mutations.ts`); the token never enters the state or the log.
 */
import type { DeploymentConnection } from '../wire/resources.js';
import type { Resource } from './resources.js';
import { isPast } from './slice-context.js';

/**
 * Where an end user's connection to a provider stands: `missing` (the spec's "connection not found"),
 * `expired` (its `expires_at` has passed), `unknown_provider` (the spec's "provider not found").
 */
export type DeploymentConnectionStatus =
  'idle' | 'loading' | 'connected' | 'expired' | 'missing' | 'unknown_provider' | 'error';

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
