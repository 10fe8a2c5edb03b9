/** The code-hosting endpoints of the mock, its install page and the callback that completes the flow. */
import type { CodehostConnection, Repository } from '../core/index.js';
import { mockOrigin, type MockCaller, type MockContext } from './mock-context.js';
import {
  envelope,
  escapeHtml,
  failure,
  htmlPage,
  htmlResponse,
  jsonResponse,
  readJsonBody,
  validationFailure,
  Validator,
  type FieldErrors,
} from './mock-responses.js';
import {
  connectionLifetimeMs,
  isoTime,
  randomHex,
  repositoryItem,
  seedRepositories,
  slugify,
  stableHash,
  type MockCodehostConnection,
  type MockState,
} from './mock-state.js';

const messages = {
  connectionNotFound: 'code-host connection not found for the provided external user',
  projectNotFound: 'Project not found.',
  repositoryNotFound: 'Repository not found among the repositories the code-host connection can access.',
  noLinkedRepository:
    'No repository is linked to this project. Provide repo_owner and repo_name to push to a repository.',
} as const;

/** How long an install flow may wait for its callback. */
const installStateLifetimeMs = 60 * 60 * 1000;

/** The path of the install page the start endpoint redirects to. */
export const installPath = '/__mock/codehost/install';
/** The path that completes the install flow. */
export const callbackPath = '/__mock/codehost/callback';

function findConnection(state: MockState, teamId: string, externalUserId: string): MockCodehostConnection | undefined {
  return state.codehostConnections.find(
    (record) => record.teamId === teamId && record.connection.external_user_id === externalUserId,
  );
}

function listView(record: MockCodehostConnection): CodehostConnection {
  const { installation_status: _status, ...connection } = record.connection;
  return connection;
}

/** The repositories a connection can access, seeded deterministically from its login on first use. */
export function repositoriesOf(context: MockContext, login: string): Repository[] {
  const key = login.toLowerCase();
  let repositories = context.state.repositories.get(key);
  if (repositories === undefined) {
    repositories = seedRepositories(login, context.settings.scenario.repositoryCount ?? 47);
    context.state.repositories.set(key, repositories);
  }
  return repositories;
}

function findRepository(repositories: Repository[], owner: string, name: string): Repository | undefined {
  const fullName = `${owner}/${name}`.toLowerCase();
  return repositories.find((repository) => repository.full_name.toLowerCase() === fullName);
}

/** POST /codehost/connect/start */
export async function startCodehostConnect(
  request: Request,
  caller: MockCaller,
  context: MockContext,
): Promise<Response> {
  const read = await readJsonBody(request, 'envelope');
  if (!read.ok) return read.response;
  const validator = new Validator(read.body);
  const externalUserId = validator.requiredString('external_user_id');
  const externalUserName = validator.requiredString('external_user_name');
  const externalUserEmail = validator.requiredEmail('external_user_email');
  const returnUrl = validator.requiredHttpUrl('return_url');
  if (
    !validator.valid ||
    externalUserId === undefined ||
    externalUserName === undefined ||
    externalUserEmail === undefined ||
    returnUrl === undefined
  ) {
    return validationFailure('envelope', validator.errors);
  }
  const state = randomHex(16);
  context.state.pendingInstalls.set(state, {
    teamId: caller.team.id,
    externalUserId,
    externalUserName,
    externalUserEmail,
    returnUrl,
    createdAt: context.now(),
  });
  const redirectUrl = `${mockOrigin(context.settings)}${installPath}?state=${encodeURIComponent(state)}`;
  return envelope({ redirect_url: redirectUrl, state }, 'Code-host connection flow started.');
}

/** GET /codehost/connections/{externalUserId}: the detailed view, with the installation status. */
export function getCodehostConnection(
  params: Record<string, string>,
  caller: MockCaller,
  context: MockContext,
): Response {
  const record = findConnection(context.state, caller.team.id, params.externalUserId ?? '');
  if (record === undefined) return failure('envelope', 404, messages.connectionNotFound);
  return envelope({ ...record.connection }, 'Code-host connection retrieved successfully.');
}

/** GET /codehost/connections */
export function listCodehostConnections(caller: MockCaller, context: MockContext): Response {
  const connections = context.state.codehostConnections
    .filter((record) => record.teamId === caller.team.id)
    .map(listView);
  return envelope(connections, 'Code-host connections retrieved successfully.');
}

function integerQuery(
  url: URL,
  field: string,
  label: string,
  min: number,
  max: number | undefined,
  fallback: number,
  errors: FieldErrors,
): number {
  const raw = url.searchParams.get(field);
  if (raw === null || raw.trim() === '') return fallback;
  if (!/^[+-]?\d+$/.test(raw.trim())) {
    errors[field] = [`The ${label} field must be an integer.`];
    return fallback;
  }
  const value = Number(raw.trim());
  if (value < min) errors[field] = [`The ${label} field must be at least ${min}.`];
  else if (max !== undefined && value > max) errors[field] = [`The ${label} field must not be greater than ${max}.`];
  return value;
}

/** GET /codehost/connections/{externalUserId}/repositories?page&per_page */
export function listRepositories(
  request: Request,
  params: Record<string, string>,
  caller: MockCaller,
  context: MockContext,
): Response {
  const url = new URL(request.url);
  const errors: FieldErrors = {};
  const page = integerQuery(url, 'page', 'page', 1, undefined, 1, errors);
  const perPage = integerQuery(url, 'per_page', 'per page', 1, 100, 30, errors);
  if (Object.keys(errors).length > 0) return validationFailure('envelope', errors);
  const record = findConnection(context.state, caller.team.id, params.externalUserId ?? '');
  if (record === undefined) return failure('envelope', 404, messages.connectionNotFound);
  const repositories = repositoriesOf(context, record.connection.codehost_login);
  const start = (page - 1) * perPage;
  const items = start < repositories.length ? repositories.slice(start, start + perPage) : [];
  const totalCount = context.settings.scenario.repositoryTotalCountUnknown ? null : repositories.length;
  return envelope(
    { items, meta: { total_count: totalCount, page, per_page: perPage } },
    'Repositories retrieved successfully.',
  );
}

/** POST /codehost/project/{projectId}/link */
export async function linkRepository(
  request: Request,
  params: Record<string, string>,
  caller: MockCaller,
  context: MockContext,
): Promise<Response> {
  const read = await readJsonBody(request, 'envelope');
  if (!read.ok) return read.response;
  const validator = new Validator(read.body);
  const externalUserId = validator.requiredString('external_user_id');
  const owner = validator.requiredString('repo_owner');
  const name = validator.requiredString('repo_name');
  if (!validator.valid || externalUserId === undefined || owner === undefined || name === undefined)
    return validationFailure('envelope', validator.errors);

  const project = context.state.projects.get(params.projectId ?? '');
  if (project === undefined || project.teamId !== caller.team.id)
    return failure('envelope', 404, messages.projectNotFound);
  const record = findConnection(context.state, caller.team.id, externalUserId);
  if (record === undefined) return failure('envelope', 404, messages.connectionNotFound);
  const repository = findRepository(repositoriesOf(context, record.connection.codehost_login), owner, name);
  if (repository === undefined) return failure('envelope', 404, messages.repositoryNotFound);

  const [repositoryOwner = owner, repositoryName = name] = repository.full_name.split('/');
  project.linkedRepository = {
    externalUserId,
    owner: repositoryOwner,
    name: repositoryName,
    branch: repository.default_branch,
  };
  project.updatedAt = context.now();
  return envelope(
    {
      project_id: project.id,
      codehost_login: record.connection.codehost_login,
      repo_url: repository.html_url,
      branch: repository.default_branch,
    },
    'Repository linked successfully.',
  );
}

/** POST /codehost/project/{projectId}/push */
export async function pushRepository(
  request: Request,
  params: Record<string, string>,
  caller: MockCaller,
  context: MockContext,
): Promise<Response> {
  const read = await readJsonBody(request, 'envelope');
  if (!read.ok) return read.response;
  const validator = new Validator(read.body);
  const externalUserId = validator.requiredString('external_user_id');
  const owner = validator.optionalString('repo_owner');
  const name = validator.optionalString('repo_name');
  const isPrivate = validator.optionalBoolean('private');
  const branch = validator.optionalString('branch');
  if (owner !== undefined && name === undefined && read.body.repo_name == null)
    validator.fail('repo_name', 'The repo name field is required when repo owner is present.');
  if (name !== undefined && owner === undefined && read.body.repo_owner == null)
    validator.fail('repo_owner', 'The repo owner field is required when repo name is present.');
  if (!validator.valid || externalUserId === undefined) return validationFailure('envelope', validator.errors);

  const project = context.state.projects.get(params.projectId ?? '');
  if (project === undefined || project.teamId !== caller.team.id)
    return failure('envelope', 404, messages.projectNotFound);
  const record = findConnection(context.state, caller.team.id, externalUserId);
  if (record === undefined) return failure('envelope', 404, messages.connectionNotFound);
  const repositories = repositoriesOf(context, record.connection.codehost_login);

  let repository: Repository | undefined;
  let created = false;
  if (owner !== undefined && name !== undefined) {
    repository = findRepository(repositories, owner, name);
    if (repository === undefined) {
      repository = repositoryItem(
        owner,
        /^[A-Za-z0-9._-]{1,100}$/.test(name) ? name : slugify(name),
        isPrivate ?? true,
      );
      repositories.unshift(repository);
      created = true;
    }
    if (project.linkedRepository === null) {
      const [repositoryOwner = owner, repositoryName = name] = repository.full_name.split('/');
      project.linkedRepository = {
        externalUserId,
        owner: repositoryOwner,
        name: repositoryName,
        branch: repository.default_branch,
      };
    }
  } else {
    const linked = project.linkedRepository;
    repository = linked === null ? undefined : findRepository(repositories, linked.owner, linked.name);
    if (repository === undefined)
      return jsonResponse(422, {
        message: messages.noLinkedRepository,
        errors: { repo_name: [messages.noLinkedRepository] },
      });
  }
  project.updatedAt = context.now();
  return envelope(
    {
      repo_url: repository.html_url,
      codehost_login: record.connection.codehost_login,
      branch: branch ?? repository.default_branch,
      repo_created: created,
    },
    created ? 'Repository created and project code pushed successfully.' : 'Project code pushed successfully.',
  );
}

function takePending(context: MockContext, state: string | null, consume: boolean) {
  if (state === null || state === '') return undefined;
  const pending = context.state.pendingInstalls.get(state);
  if (pending === undefined) return undefined;
  if (context.now() - pending.createdAt > installStateLifetimeMs) {
    context.state.pendingInstalls.delete(state);
    return undefined;
  }
  if (consume) context.state.pendingInstalls.delete(state);
  return pending;
}

function invalidStatePage(): Response {
  return htmlResponse(
    400,
    htmlPage(
      'Installation link not valid',
      '<h1>This installation link is not valid</h1>\n<p>It was already used, has expired or never existed. Start connecting the code host again from the app.</p>',
    ),
  );
}

/** GET /__mock/codehost/install?state=…: the page where the end user "installs" the code-host app. */
export function installPage(request: Request, context: MockContext): Response {
  const state = new URL(request.url).searchParams.get('state');
  const pending = takePending(context, state, false);
  if (pending === undefined || state === null) return invalidStatePage();
  const login = slugify(pending.externalUserName);
  return htmlResponse(
    200,
    htmlPage(
      'Install the code-host app',
      `<h1>Install the Agent code-host app</h1>
<p>Signed in to the mock code host as <strong>${escapeHtml(login)}</strong> (${escapeHtml(pending.externalUserName)}, ${escapeHtml(pending.externalUserEmail)}).</p>
<p>The app will get access to all repositories of <strong>${escapeHtml(login)}</strong> and may create new ones.</p>
<form method="post" action="${callbackPath}">
<input type="hidden" name="state" value="${escapeHtml(state)}">
<button type="submit">Install</button>
</form>
<p><a href="${escapeHtml(pending.returnUrl)}">Cancel and go back</a></p>`,
    ),
  );
}

/** GET or POST /__mock/codehost/callback?state=…: stores the connection and redirects to return_url. */
export async function completeInstall(request: Request, context: MockContext): Promise<Response> {
  let state = new URL(request.url).searchParams.get('state');
  if (state === null && request.method === 'POST') {
    const form = new URLSearchParams(await request.text());
    state = form.get('state');
  }
  const pending = takePending(context, state, true);
  if (pending === undefined) return invalidStatePage();
  const now = context.now();
  const login = slugify(pending.externalUserName);
  const fields = {
    external_user_name: pending.externalUserName,
    external_user_email: pending.externalUserEmail,
    codehost_user_id: String(10_000_000 + (stableHash(login) % 89_999_999)),
    codehost_login: login,
    installation_id: String(
      40_000_000 + (stableHash(`${pending.teamId}:${pending.externalUserId}:${login}`) % 59_999_999),
    ),
    target_type: 'User',
    user_authorized: true,
    expires_at: isoTime(now + connectionLifetimeMs),
    updated_at: isoTime(now),
    installation_status: 'active',
  };
  const existing = findConnection(context.state, pending.teamId, pending.externalUserId);
  if (existing !== undefined) {
    Object.assign(existing.connection, fields);
  } else {
    context.state.codehostConnections.push({
      teamId: pending.teamId,
      connection: {
        id: context.state.nextId++,
        external_user_id: pending.externalUserId,
        provider: 'github',
        connected_at: isoTime(now),
        ...fields,
      },
    });
  }
  return new Response(null, { status: 302, headers: { location: pending.returnUrl, 'cache-control': 'no-store' } });
}
