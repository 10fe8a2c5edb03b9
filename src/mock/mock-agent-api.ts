/** The whole Agent API, simulated, as one Web-standard `fetch` handler (Node and browsers). */
import {
  agentApiMessages,
  agentRoutes,
  matchRoute,
  type AgentRouteName,
  type GenerationMode,
  type RouteMatch,
} from '../core/index.js';
import { createMockAdmin, handleAdminRequest, type MockAdminHost } from './mock-admin.js';
import {
  callbackPath,
  completeInstall,
  getCodehostConnection,
  installPage,
  installPath,
  linkRepository,
  listCodehostConnections,
  listRepositories,
  pushRepository,
  startCodehostConnect,
} from './mock-codehost.js';
import type { MockCaller, MockContext } from './mock-context.js';
import {
  connectDeployment,
  deployProject,
  getDeploymentConnection,
  listDeploymentConnections,
} from './mock-deployments.js';
import {
  createFaultQueue,
  httpFaultResponse,
  isStreamFault,
  type MockHttpFault,
  type MockStreamFault,
} from './mock-fault.js';
import { startGeneration } from './mock-generation.js';
import { scriptOf } from './mock-script.js';
import { requestLogLimit, resolveSettings, type MockAgentApi, type MockAgentApiOptions } from './mock-options.js';
import { appPageResponse, indexPageResponse } from './mock-pages.js';
import {
  envelope,
  failure,
  jsonResponse,
  readJsonBody,
  promptFieldErrors,
  shapeOf,
  validationFailure,
  type BodyShape,
} from './mock-responses.js';
import {
  createMockState,
  planRecords,
  publicPlan,
  randomHex,
  type MockProject,
  type MockRequestRecord,
  type MockState,
} from './mock-state.js';
import { projectName } from './mock-names.js';

/** Creates a mock Agent API with one default team and token. */
export function createMockAgentApi(options: MockAgentApiOptions = {}): MockAgentApi {
  const settings = resolveSettings(options);
  const now = options.now ?? (() => Date.now());
  const initialCredits = options.credits ?? 200;
  const { apiBasePath } = settings;
  const appPathPrefix = `${settings.appBasePath}/apps/`;
  const defaultTeamId = 'team_default';
  const defaultToken = settings.token;
  const requests: MockRequestRecord[] = [];
  const faults = createFaultQueue();

  function freshState(): MockState {
    const state = createMockState();
    state.teams.set(defaultTeamId, { id: defaultTeamId, credits: initialCredits, suspended: false });
    state.tokens.set(defaultToken, {
      value: defaultToken,
      teamId: defaultTeamId,
      name: 'Development token',
      createdAt: now(),
      expiresAt: null,
      revoked: false,
    });
    return state;
  }

  let lifetime = new AbortController();
  const context: MockContext & { state: MockState; lifetime: AbortSignal } = {
    state: freshState(),
    settings,
    faults,
    now,
    lifetime: lifetime.signal,
  };

  const host: MockAdminHost = {
    context: () => context,
    defaultTeamId,
    requests,
    reset() {
      lifetime.abort(new Error('The mock Agent API was reset.'));
      lifetime = new AbortController();
      context.lifetime = lifetime.signal;
      context.state = freshState();
      faults.clear();
      requests.length = 0;
    },
  };
  const admin = createMockAdmin(host);

  function authenticate(
    request: Request,
    shape: BodyShape,
  ): { ok: true; caller: MockCaller } | { ok: false; response: Response } {
    const header = request.headers.get('authorization') ?? '';
    const value = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    const token = value === undefined ? undefined : context.state.tokens.get(value);
    const team = token === undefined ? undefined : context.state.teams.get(token.teamId);
    if (token === undefined || token.revoked || team === undefined)
      return { ok: false, response: failure(shape, 401, agentApiMessages.unauthorized) };
    if (token.expiresAt !== null && now() >= token.expiresAt)
      return { ok: false, response: failure(shape, 401, agentApiMessages.tokenExpired) };
    if (team.suspended) return { ok: false, response: failure(shape, 403, agentApiMessages.suspended) };
    return { ok: true, caller: { team, token } };
  }

  /** Counts the request against the token's rolling window; returns a 429 when over. */
  function rateLimit(
    route: AgentRouteName,
    caller: MockCaller,
  ): { refused?: Response; headers: Record<string, string> } {
    const limit = settings.rateLimit;
    if (limit === false || (limit.scope === 'agent' && agentRoutes[route].family !== 'agent')) return { headers: {} };
    const at = now();
    const hits = (context.state.rateLimitHits.get(caller.token.value) ?? []).filter(
      (time) => time > at - limit.windowMs,
    );
    if (hits.length >= limit.limit) {
      context.state.rateLimitHits.set(caller.token.value, hits);
      const oldest = hits[0] ?? at;
      const retryAfter = Math.max(1, Math.ceil((oldest + limit.windowMs - at) / 1000));
      return {
        refused: failure('agent', 429, agentApiMessages.tooManyAttempts, undefined, {
          'retry-after': String(retryAfter),
          'x-ratelimit-limit': String(limit.limit),
          'x-ratelimit-remaining': '0',
        }),
        headers: {},
      };
    }
    hits.push(at);
    context.state.rateLimitHits.set(caller.token.value, hits);
    return {
      headers: { 'x-ratelimit-limit': String(limit.limit), 'x-ratelimit-remaining': String(limit.limit - hits.length) },
    };
  }

  function ownedProject(
    projectId: string,
    caller: MockCaller,
  ): { ok: true; project: MockProject } | { ok: false; response: Response } {
    const project = context.state.projects.get(projectId);
    if (project === undefined) return { ok: false, response: failure('agent', 404, agentApiMessages.projectNotFound) };
    if (project.teamId !== caller.team.id)
      return { ok: false, response: failure('agent', 403, agentApiMessages.projectForbidden) };
    return { ok: true, project };
  }

  function stream(
    project: MockProject,
    prompt: string,
    followUp: boolean,
    fault: MockStreamFault | undefined,
    request: Request,
  ): Response {
    const input = {
      prompt,
      mode: project.mode,
      followUp,
      projectId: project.id,
      existingFiles: [...project.files.keys()],
    };
    const steps = scriptOf(input, settings.scenario);
    const body = startGeneration({
      state: context.state,
      project,
      followUp,
      steps,
      speed: settings.speed,
      fault,
      heartbeatMs: settings.heartbeatMs,
      timers: settings.timers,
      slicing: settings.slicing,
      now,
      // Its own signal per run: waits listen there, not on the shared lifetime, which thousands of runs share.
      lifetime: AbortSignal.any([context.lifetime]),
      requestSignal: request.signal ?? null,
    });
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      },
    });
  }

  async function generate(request: Request, caller: MockCaller): Promise<Response> {
    const read = await readJsonBody(request, 'agent');
    if (!read.ok) return read.response;
    const errors = promptFieldErrors(read.body);
    const requestedMode = read.body.mode ?? 'build';
    const mode: GenerationMode | undefined =
      requestedMode === 'build' || requestedMode === 'design' ? requestedMode : undefined;
    if (mode === undefined) errors.mode = ['The selected mode is invalid.'];
    if (Object.keys(errors).length > 0 || mode === undefined) return validationFailure('agent', errors);
    if (caller.team.credits <= 0) return failure('agent', 400, agentApiMessages.insufficientCredits);
    const prompt = read.body.prompt as string;
    const id = `proj_${randomHex(8)}`;
    const at = now();
    const project: MockProject = {
      id,
      teamId: caller.team.id,
      name: projectName(prompt),
      status: 'provisioning',
      mode,
      appUrl: `${settings.appBaseUrl}/apps/${id}/`,
      files: new Map(),
      prompts: [prompt],
      createdAt: at,
      updatedAt: at,
      deploymentConnections: new Map(),
      linkedRepository: null,
    };
    context.state.projects.set(id, project);
    return stream(project, prompt, false, takeStreamFault('generate'), request);
  }

  async function followUp(request: Request, params: Record<string, string>, caller: MockCaller): Promise<Response> {
    const read = await readJsonBody(request, 'agent');
    if (!read.ok) return read.response;
    const errors = promptFieldErrors(read.body);
    if (Object.keys(errors).length > 0) return validationFailure('agent', errors);
    const owned = ownedProject(params.projectId ?? '', caller);
    if (!owned.ok) return owned.response;
    if (caller.team.credits <= 0) return failure('agent', 400, agentApiMessages.insufficientCredits);
    const prompt = read.body.prompt as string;
    owned.project.prompts.push(prompt);
    return stream(owned.project, prompt, true, takeStreamFault('followUp'), request);
  }

  function takeStreamFault(route: AgentRouteName): MockStreamFault | undefined {
    const fault = faults.take(route, 'stream');
    return fault !== undefined && isStreamFault(fault) ? fault : undefined;
  }

  function getProject(params: Record<string, string>, caller: MockCaller): Response {
    const owned = ownedProject(params.projectId ?? '', caller);
    if (!owned.ok) return owned.response;
    const { project } = owned;
    return jsonResponse(200, {
      status: true,
      project_id: project.id,
      app_url: project.appUrl,
      project_status: project.status,
      name: project.name,
    });
  }

  function listPlans(): Response {
    const plans = planRecords()
      .sort((a, b) => a.sort_order - b.sort_order)
      .map(publicPlan);
    return envelope(plans, 'Subscription plans retrieved successfully.');
  }

  function dispatch(match: RouteMatch, request: Request, caller: MockCaller): Response | Promise<Response> {
    const { params } = match;
    switch (match.name) {
      case 'generate':
        return generate(request, caller);
      case 'followUp':
        return followUp(request, params, caller);
      case 'getProject':
        return getProject(params, caller);
      case 'connectDeployment':
        return connectDeployment(request, params, caller, context);
      case 'getDeploymentConnection':
        return getDeploymentConnection(params, caller, context);
      case 'listDeploymentConnections':
        return listDeploymentConnections(params, caller, context);
      case 'deploy':
        return deployProject(request, params, caller, context);
      case 'startCodehostConnect':
        return startCodehostConnect(request, caller, context);
      case 'getCodehostConnection':
        return getCodehostConnection(params, caller, context);
      case 'listCodehostConnections':
        return listCodehostConnections(caller, context);
      case 'listRepositories':
        return listRepositories(request, params, caller, context);
      case 'linkRepository':
        return linkRepository(request, params, caller, context);
      case 'pushRepository':
        return pushRepository(request, params, caller, context);
      case 'listPlans':
        return listPlans();
      default:
        return match.name satisfies never;
    }
  }

  // Looser than the proxy's id rule: the mock must answer whatever a client sends, as the real API would.
  const paramPattern = /^[^/]{1,512}$/;

  async function handleApi(request: Request, relativePath: string): Promise<Response> {
    const match = matchRoute(request.method, relativePath, { paramPattern });
    if (match === undefined) {
      const allowed = (['GET', 'POST'] as const).filter(
        (method) => method !== request.method && matchRoute(method, relativePath, { paramPattern }),
      );
      if (allowed.length > 0) {
        return jsonResponse(
          405,
          {
            message: `The ${request.method} method is not supported for this route. Supported methods: ${allowed.join(', ')}.`,
          },
          { allow: allowed.join(', ') },
        );
      }
      return jsonResponse(404, { message: 'Not found.' });
    }
    const params: Record<string, string> = {};
    try {
      for (const [name, value] of Object.entries(match.params)) params[name] = decodeURIComponent(value);
    } catch {
      return jsonResponse(404, { message: 'Not found.' });
    }
    const httpFault = faults.take(match.name, 'http');
    if (httpFault !== undefined && !isStreamFault(httpFault))
      return httpFaultResponse(httpFault satisfies MockHttpFault);

    const shape = shapeOf(match.name);
    const auth = authenticate(request, shape);
    if (!auth.ok) return auth.response;
    const limited = rateLimit(match.name, auth.caller);
    if (limited.refused !== undefined) return limited.refused;
    const response = await dispatch({ ...match, params }, request, auth.caller);
    for (const [name, value] of Object.entries(limited.headers)) response.headers.set(name, value);
    return response;
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    requests.push({ method: request.method, path, at: now() });
    if (requests.length > requestLogLimit) requests.splice(0, requests.length - requestLogLimit);

    if (path === apiBasePath || path.startsWith(`${apiBasePath}/`))
      return handleApi(request, path.slice(apiBasePath.length) || '/');
    if (path === '/__mock/admin' || path.startsWith('/__mock/admin/'))
      return handleAdminRequest(request, path.slice('/__mock/admin'.length) || '/', admin);
    if (path === installPath && request.method === 'GET') return installPage(request, context);
    if (path === callbackPath && (request.method === 'GET' || request.method === 'POST'))
      return completeInstall(request, context);
    if (path.startsWith(appPathPrefix) && request.method === 'GET') {
      const projectId = path.slice(appPathPrefix.length).split('/')[0] ?? '';
      let decoded = projectId;
      try {
        decoded = decodeURIComponent(projectId);
      } catch {
        // An undecodable id names no project; the page says so.
      }
      return appPageResponse(context.state.projects.get(decoded));
    }
    if ((path === '/' || path === '/__mock' || path === '/__mock/') && request.method === 'GET')
      return indexPageResponse(settings.baseUrl);
    return jsonResponse(404, { message: 'Not found.' });
  }

  return {
    async fetch(request) {
      try {
        return await handle(request);
      } catch (thrown) {
        const message = thrown instanceof Error ? thrown.message : String(thrown);
        return jsonResponse(500, { message: 'Server Error', detail: message });
      }
    },
    token: defaultToken,
    baseUrl: settings.baseUrl,
    appBaseUrl: settings.appBaseUrl,
    admin,
    dispose() {
      lifetime.abort(new Error('The mock Agent API was disposed.'));
    },
  };
}
