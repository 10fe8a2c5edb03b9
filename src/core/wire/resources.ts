/**
 * Wire types of the Agent API resources, with the spec's snake_case field names.
 * The client is a tolerant reader: optional fields may be missing and extra fields are kept.
 */

// An answer's `*_at` fields (their format is not shown in the spec): an ISO 8601 date, with or without a time.
const isoDate = /^\d{4}-\d{2}-\d{2}(?:$|[T ])/;

/**
 * When an answer's timestamp (`connected_at`, `expires_at`, `updated_at`, a turn's `at`) says, in milliseconds since
 * the epoch; `undefined` for anything but a readable ISO 8601 date. `Date.parse` alone reads "0" as the year 2000
 * and "1" as 2001: a broken answer would then show an old date, or mark a connection expired.
 */
export function timestampOf(value: unknown): number | undefined {
  if (typeof value !== 'string' || !isoDate.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

/** Project statuses the mock uses; the real API may send others, so the type stays open. */
export type KnownProjectStatus = 'provisioning' | 'generating' | 'ready' | 'failed' | 'credits_exhausted';

/** Body of `GET /agent/project/{projectId}`. */
export interface Project {
  status: boolean;
  project_id: string;
  app_url: string;
  project_status: KnownProjectStatus | (string & {});
  name: string;
}

/** Generation mode: full-stack build or frontend-focused design. */
export type GenerationMode = 'build' | 'design';

/** Body of `POST /agent/generate`. */
export interface GenerateInput {
  prompt: string;
  mode?: GenerationMode;
}

/** Body of `POST /agent/generate/{projectId}`. */
export interface FollowUpInput {
  prompt: string;
}

/** A deployment provider account stored for one external user. */
export interface DeploymentConnection {
  id: number;
  provider: string;
  provider_name: string;
  external_user_id: string;
  provider_account_id: string;
  provider_account_name: string;
  provider_account_email: string;
  expires_at: string | null;
  last_used_at: string | null;
  connected_at: string;
  updated_at: string;
  metadata: { slug?: string; [key: string]: unknown };
}

/** Body of `POST /deployments/{provider}/connections`. */
export interface ConnectDeploymentInput {
  external_user_id: string;
  token: string;
}

/** Body of `POST /deployments/{providerId}/project/{projectId}/deploy`. */
export interface DeployInput {
  external_user_id?: string;
}

/** Data of a deploy response (the spec does not show it; this is the mock's shape). */
export interface Deployment {
  deployment_id: string;
  status: string;
  url: string | null;
  [key: string]: unknown;
}

/** A code-hosting connection of one external user. */
export interface CodehostConnection {
  id: number;
  external_user_id: string;
  external_user_name: string;
  external_user_email: string;
  codehost_user_id: string;
  codehost_login: string;
  provider: string;
  installation_id: string;
  target_type: string | null;
  user_authorized: boolean;
  expires_at: string | null;
  connected_at: string;
  updated_at: string;
  /** Detailed view only: installation status of the code-host app. */
  installation_status?: string;
}

/** Body of `POST /codehost/connect/start`. */
export interface StartCodehostConnectInput {
  external_user_id: string;
  external_user_name: string;
  external_user_email: string;
  return_url: string;
}

/** Data of `POST /codehost/connect/start`. */
export interface StartCodehostConnectResult {
  redirect_url: string;
  state: string;
}

/** One repository of a listing. `private` and `permissions` are string-typed in the reference. */
export interface Repository {
  id: string;
  name: string;
  full_name: string;
  private: string | boolean;
  default_branch: string;
  html_url: string;
  clone_url: string;
  permissions: string | Record<string, boolean>;
}

/** The API's repository page size bounds and the default the library asks for. */
export const repositoryPaging = { minPerPage: 1, maxPerPage: 100, defaultPerPage: 30 } as const;

/** Paging of a repository listing. */
export interface RepositoryListQuery {
  page?: number;
  per_page?: number;
}

/** Metadata of a repository listing; `total_count` may be null. */
export interface ListMeta {
  total_count: number | null;
  page: number;
  per_page: number;
}

/** Data of `GET /codehost/connections/{externalUserId}/repositories`. */
export interface RepositoryList {
  items: Repository[];
  meta: ListMeta;
}

/** Body of `POST /codehost/project/{projectId}/link`. */
export interface LinkRepositoryInput {
  external_user_id: string;
  repo_owner: string;
  repo_name: string;
}

/** Data of a link response. */
export interface LinkResult {
  project_id: string;
  codehost_login: string;
  repo_url: string;
  branch: string;
}

/** Body of `POST /codehost/project/{projectId}/push`; without repository details the linked one is used. */
export interface PushInput {
  external_user_id: string;
  repo_owner?: string;
  repo_name?: string;
  private?: boolean;
  branch?: string;
}

/** Data of a push response. */
export interface PushResult {
  repo_url: string;
  codehost_login: string;
  branch: string;
  repo_created: boolean;
}

/** A subscription plan; the spec shows only ordering and hidden payment ids, the rest is open. */
export interface SubscriptionPlan {
  id: number | string;
  name: string;
  sort_order?: number;
  [key: string]: unknown;
}

/** Envelope of the deployment and code-hosting endpoints. */
export interface Envelope<T> {
  success: boolean;
  message: string;
  data: T | null;
  errors: Record<string, string[]> | null;
}

/** Body of an agent endpoint failure. */
export interface AgentErrorBody {
  status: false;
  message: string;
  errors?: Record<string, string[]>;
}
