/** The deployment endpoints of the mock: connect with provider-side token checks, get, list, deploy. */
import type { DeploymentConnection } from '../core/index.js';
import type { MockCaller, MockContext } from './mock-context.js';
import { envelope, failure, readJsonBody, validationFailure, Validator } from './mock-responses.js';
import {
  connectionLifetimeMs,
  isoTime,
  randomHex,
  slugify,
  stableHash,
  type MockDeploymentConnection,
} from './mock-state.js';

/** The providers the mock knows, by path value. Deployed sites live on reserved test domains, never real ones. */
export const deploymentProviders: Readonly<Record<string, { name: string; host: string }>> = {
  vercel: { name: 'Vercel', host: 'vercel.mock.agent-embed.test' },
  netlify: { name: 'Netlify', host: 'netlify.mock.agent-embed.test' },
};

const messages = {
  providerNotFound: 'Deployment provider not found.',
  accountTaken: 'This deployment provider account is already connected to another external user for this agency.',
  connectionNotFound: 'Deployment provider connection not found for the provided external user.',
  projectNotFound: 'Project not found.',
} as const;

/**
 * The provider's answer to a token, deterministically: tokens shorter than 8 characters or starting with
 * `bad_` are rejected. The account is named by the part before the first ':' (or the whole token), so
 * `acme:one` and `acme:two` are two tokens of one account.
 */
export function providerAccountOf(
  provider: string,
  token: string,
): { id: string; name: string; email: string; slug: string } | undefined {
  if (token.length < 8 || token.startsWith('bad_')) return undefined;
  const key = token.includes(':') ? token.slice(0, token.indexOf(':')) : token;
  const hash = stableHash(`${provider}:${key}`).toString(36);
  const slug = slugify(token.includes(':') ? key : `account-${hash}`);
  return {
    id: `${provider}_acct_${hash}`,
    name: `${slug} (${deploymentProviders[provider]?.name ?? provider})`,
    email: `${slug}@${provider}.mock.agent-embed.test`,
    slug,
  };
}

function providerOf(provider: string): { name: string; host: string } | undefined {
  return Object.hasOwn(deploymentProviders, provider) ? deploymentProviders[provider] : undefined;
}

function teamConnections(context: MockContext, caller: MockCaller, provider: string): MockDeploymentConnection[] {
  return context.state.deploymentConnections.filter(
    (record) => record.teamId === caller.team.id && record.connection.provider === provider,
  );
}

/** POST /deployments/{provider}/connections */
export async function connectDeployment(
  request: Request,
  params: Record<string, string>,
  caller: MockCaller,
  context: MockContext,
): Promise<Response> {
  const providerKey = params.provider ?? '';
  const provider = providerOf(providerKey);
  if (provider === undefined) return failure('envelope', 404, messages.providerNotFound);
  const read = await readJsonBody(request, 'envelope');
  if (!read.ok) return read.response;
  const validator = new Validator(read.body);
  const externalUserId = validator.requiredString('external_user_id');
  const token = validator.requiredString('token', 4096);
  if (!validator.valid || externalUserId === undefined || token === undefined)
    return validationFailure('envelope', validator.errors);

  const account = providerAccountOf(providerKey, token);
  if (account === undefined) {
    return providerRejected(provider.name);
  }
  const connections = teamConnections(context, caller, providerKey);
  const taken = connections.find(
    (record) =>
      record.connection.provider_account_id === account.id && record.connection.external_user_id !== externalUserId,
  );
  if (taken !== undefined) return failure('envelope', 409, messages.accountTaken);

  const now = context.now();
  const existing = connections.find((record) => record.connection.external_user_id === externalUserId);
  const fields = {
    provider_account_id: account.id,
    provider_account_name: account.name,
    provider_account_email: account.email,
    // The spec's table types both as strings: the token was just checked with the provider (so used).
    expires_at: isoTime(now + connectionLifetimeMs),
    updated_at: isoTime(now),
    metadata: { slug: account.slug },
  };
  if (existing !== undefined) {
    existing.token = token;
    Object.assign(existing.connection, fields);
    return envelope(existing.connection, `${provider.name} connection updated successfully.`);
  }
  const connection: DeploymentConnection = {
    id: context.state.nextId++,
    provider: providerKey,
    provider_name: provider.name,
    external_user_id: externalUserId,
    ...fields,
    last_used_at: isoTime(now),
    connected_at: isoTime(now),
  };
  context.state.deploymentConnections.push({ teamId: caller.team.id, token, connection });
  return envelope(connection, `${provider.name} connected successfully.`, 201);
}

function providerRejected(providerName: string): Response {
  const message = `The token was rejected by ${providerName}. Check that it is valid and has not been revoked.`;
  return failure('envelope', 422, message, { token: [message] });
}

/** GET /deployments/{provider}/connections/{externalUserId} */
export function getDeploymentConnection(
  params: Record<string, string>,
  caller: MockCaller,
  context: MockContext,
): Response {
  const providerKey = params.provider ?? '';
  if (providerOf(providerKey) === undefined) return failure('envelope', 404, messages.providerNotFound);
  const record = teamConnections(context, caller, providerKey).find(
    (item) => item.connection.external_user_id === params.externalUserId,
  );
  if (record === undefined) return failure('envelope', 404, messages.connectionNotFound);
  return envelope(record.connection, 'Deployment provider connection retrieved successfully.');
}

/** GET /deployments/{provider}/connections */
export function listDeploymentConnections(
  params: Record<string, string>,
  caller: MockCaller,
  context: MockContext,
): Response {
  const providerKey = params.provider ?? '';
  if (providerOf(providerKey) === undefined) return failure('envelope', 404, messages.providerNotFound);
  return envelope(
    teamConnections(context, caller, providerKey).map((record) => record.connection),
    'Deployment provider connections retrieved successfully.',
  );
}

/** POST /deployments/{providerId}/project/{projectId}/deploy */
export async function deployProject(
  request: Request,
  params: Record<string, string>,
  caller: MockCaller,
  context: MockContext,
): Promise<Response> {
  const providerKey = params.providerId ?? '';
  const provider = providerOf(providerKey);
  if (provider === undefined) return failure('envelope', 404, messages.providerNotFound);
  const read = await readJsonBody(request, 'envelope');
  if (!read.ok) return read.response;
  const validator = new Validator(read.body);
  const externalUserId = validator.optionalString('external_user_id');
  if (!validator.valid) return validationFailure('envelope', validator.errors);

  const project = context.state.projects.get(params.projectId ?? '');
  // Another team's project is "not found" here: its existence is not revealed.
  if (project === undefined || project.teamId !== caller.team.id)
    return failure('envelope', 404, messages.projectNotFound);

  const connections = teamConnections(context, caller, providerKey);
  const linkedId = project.deploymentConnections.get(providerKey);
  let record = linkedId === undefined ? undefined : connections.find((item) => item.connection.id === linkedId);
  if (record === undefined && externalUserId !== undefined) {
    record = connections.find((item) => item.connection.external_user_id === externalUserId);
    if (record !== undefined) project.deploymentConnections.set(providerKey, record.connection.id);
  }
  if (record === undefined) return failure('envelope', 404, messages.connectionNotFound);

  const now = context.now();
  record.connection.last_used_at = isoTime(now);
  const site = slugify(`${project.name}-${project.id.slice(-6)}`);
  const deployment = {
    deployment_id: `dpl_${randomHex(10)}`,
    status: 'ready',
    url: `https://${site}.${provider.host}`,
    provider: providerKey,
    project_id: project.id,
    created_at: isoTime(now),
  };
  return envelope(deployment, `Project deployed to ${provider.name} successfully.`);
}
