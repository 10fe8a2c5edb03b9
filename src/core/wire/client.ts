/** The typed Agent API client: one method per endpoint of the spec. */
import { AgentApiError, errorFromThrown, streamInterruptedError } from './errors.js';
import type { AgentEvent } from './events.js';
import { applyGenerationAction } from './generation-machine.js';
import {
  createGenerationDraft,
  endedOutcome,
  reduceGenerationEvent,
  type GenerationDraft,
  type GenerationOutcome,
} from './generation-reducer.js';
import { plansOf, projectsOf, repositoryPageOf, turnsOf, usageOf } from './proxy-answers.js';
import type { Usage } from './proxy-resources.js';
import {
  agentIdPattern,
  fillPath,
  routeContract,
  type AgentPathOverrides,
  type JsonRouteName,
  type ListRouteName,
  type RouteBody,
  type RouteData,
  type RouteName,
  type RouteParams,
} from './routes.js';
import {
  repositoryPaging,
  type ConnectDeploymentInput,
  type DeployInput,
  type FollowUpInput,
  type GenerateInput,
  type LinkRepositoryInput,
  type PushInput,
  type RepositoryListQuery,
  type StartCodehostConnectInput,
} from './resources.js';
import type { AgentTransport, TransportRequest } from './transport.js';

/** Options of a generation call. */
export interface StreamOptions {
  signal?: AbortSignal;
  /** Each event, with its SSE id when the server numbered it (the agency proxy does). */
  onEvent?: (event: AgentEvent, eventId?: number) => void;
  /**
   * The draft `onEvent` applies each event to with `reduceGenerationEvent` (the store passes its generation): the
   * result is read from it, and the events are not folded a second time. Without it the client folds its own.
   */
  folded?: GenerationDraft;
  /** A line of the stream that could not be understood; the stream goes on. */
  onProtocolError?: (error: AgentApiError) => void;
}

export type { GenerationOutcome } from './generation-reducer.js';

/** What `generate` and `followUp` resolve to once the stream has started (or was cancelled). */
export interface GenerationResult {
  outcome: GenerationOutcome;
  projectId?: string;
  appUrl?: string;
  error?: AgentApiError;
}

/** Options of `projects.events`. */
export interface ProjectEventsOptions extends StreamOptions {
  /** Replay the events after this id (the last one applied); 0 or absent replays the whole generation. */
  after?: number;
}

/** What `projects.events` resolves to: an outcome like `generate`'s, or `nothing_recorded` (204, or 404 without the route). */
export type ProjectEventsResult =
  | (GenerationResult & { replayed: true; lastEventId: number | undefined })
  | { outcome: 'nothing_recorded'; replayed: false; error?: AgentApiError };

/**
 * Every endpoint of the Agent API. Each method resolves with its route's `RouteData` (the contract's answer,
 * unwrapped), so the contract and this interface cannot drift apart.
 */
export interface AgentClient {
  /** Creates a project; resolves with the outcome once the stream has started, rejects if refused before. */
  generate(input: GenerateInput, options?: StreamOptions): Promise<GenerationResult>;
  /** Refines a project with a follow-up prompt. */
  followUp(projectId: string, input: FollowUpInput, options?: StreamOptions): Promise<GenerationResult>;
  getProject(projectId: string, options?: RequestOptions): Promise<RouteData<'getProject'>>;
  deployments: {
    connect(
      provider: string,
      input: ConnectDeploymentInput,
      options?: RequestOptions,
    ): Promise<RouteData<'connectDeployment'>>;
    getConnection(
      provider: string,
      externalUserId: string,
      options?: RequestOptions,
    ): Promise<RouteData<'getDeploymentConnection'>>;
    listConnections(provider: string, options?: RequestOptions): Promise<RouteData<'listDeploymentConnections'>>;
    deploy(
      providerId: string,
      projectId: string,
      input?: DeployInput,
      options?: RequestOptions,
    ): Promise<RouteData<'deploy'>>;
  };
  codehost: {
    startConnect(
      input: StartCodehostConnectInput,
      options?: RequestOptions,
    ): Promise<RouteData<'startCodehostConnect'>>;
    getConnection(externalUserId: string, options?: RequestOptions): Promise<RouteData<'getCodehostConnection'>>;
    listConnections(options?: RequestOptions): Promise<RouteData<'listCodehostConnections'>>;
    listRepositories(
      externalUserId: string,
      query?: RepositoryListQuery,
      options?: RequestOptions,
    ): Promise<RouteData<'listRepositories'>>;
    link(projectId: string, input: LinkRepositoryInput, options?: RequestOptions): Promise<RouteData<'linkRepository'>>;
    push(projectId: string, input: PushInput, options?: RequestOptions): Promise<RouteData<'pushRepository'>>;
  };
  plans: {
    list(options?: RequestOptions): Promise<RouteData<'listPlans'>>;
  };
  /** The agency proxy's own routes (`agent-embed/server`); a transport straight to the API has none (404). */
  projects: {
    /** The signed-in end user's projects, newest first. */
    list(options?: RequestOptions): Promise<RouteData<'listProjects'>>;
    /** The prompts sent about a project and their outcomes, oldest first. */
    conversation(projectId: string, options?: RequestOptions): Promise<RouteData<'getConversation'>>;
    /**
     * Replays the project's latest generation after `after`, then follows it live to its terminal event.
     * Never sends a generate or follow-up. Rejects with `AgentApiError` when refused for another reason.
     */
    events(projectId: string, options: ProjectEventsOptions): Promise<ProjectEventsResult>;
  };
  usage: {
    /** The signed-in end user's quota usage (`GET {basePath}/usage` of the agency proxy), read defensively. */
    get(options?: RequestOptions): Promise<Usage>;
  };
}

/** Options of a JSON call. */
export interface RequestOptions {
  signal?: AbortSignal;
}

/** Options of `createAgentClient`. */
export interface AgentClientOptions {
  transport: AgentTransport;
  /** Paths that differ from the spec's, by route name. */
  paths?: AgentPathOverrides;
}

// The routes whose data is a listing: "not shown" in the spec, so a bare array or one under a usual key is read.
const listRoutes: Record<ListRouteName, true> = {
  listDeploymentConnections: true,
  listCodehostConnections: true,
  listPlans: true,
  listProjects: true,
  getConversation: true,
};

/**
 * The data of a route's answer, trusted to be what the contract says: an envelope's `data`, a listing's array of
 * objects (`[]` when none is found), or `empty` when a success came without data (a 204 to deploy, link or push).
 */
function dataOf<Name extends JsonRouteName>(name: Name, body: unknown, empty?: RouteData<Name>): RouteData<Name> {
  const data = typeof body === 'object' && body !== null && !Array.isArray(body) && 'data' in body ? body.data : body;
  if (empty !== undefined && (data === null || data === undefined || data === '')) return empty;
  if (!(name in listRoutes)) return data as RouteData<Name>;
  const lists = Array.isArray(data)
    ? [data]
    : typeof data === 'object' && data !== null
      ? ['items', 'connections', 'plans', 'projects', 'turns'].map((key) => (data as Record<string, unknown>)[key])
      : [];
  // Only objects are items: a null or a number in a listing (another proxy's) would fail whoever reads the items.
  const items: unknown[] = lists.find(Array.isArray) ?? [];
  return items.filter((item) => typeof item === 'object' && item !== null && !Array.isArray(item)) as RouteData<Name>;
}

function resultOf(
  draft: GenerationDraft,
  outcome: GenerationOutcome,
  error: AgentApiError | undefined,
): GenerationResult {
  return {
    outcome,
    ...(draft.projectId === undefined ? {} : { projectId: draft.projectId }),
    ...(draft.appUrl === undefined ? {} : { appUrl: draft.appUrl }),
    ...(error === undefined ? {} : { error }),
  };
}

/** Creates the client over a transport. */
export function createAgentClient(options: AgentClientOptions): AgentClient {
  const { transport } = options;

  function path<Name extends RouteName>(name: Name, params: RouteParams<Name>): string {
    // A project id from an answer or a saved record goes into a path only if it can name one: `.` and `..` would
    // take the request to another route once the URL is resolved.
    const { projectId } = params as { projectId?: string };
    if (projectId !== undefined && !agentIdPattern.test(projectId))
      throw new AgentApiError('validation', 'That is not a project id.');
    return fillPath(options.paths?.[name] ?? routeContract[name].path, params);
  }

  /**
   * Sends one JSON request of the route contract (the row's method and path, a body of the row's type) and
   * resolves with the data of its answer; `empty` stands for the data of a success without any.
   */
  async function send<Name extends JsonRouteName>(
    name: Name,
    params: RouteParams<Name>,
    request: {
      body?: RouteBody<Name>;
      query?: Record<string, number | undefined>;
      options?: RequestOptions | undefined;
      empty?: RouteData<Name>;
    } = {},
  ): Promise<RouteData<Name>> {
    const body = await transport.json({
      method: routeContract[name].method,
      path: path(name, params),
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(request.query === undefined ? {} : { query: request.query }),
      ...(request.options?.signal === undefined ? {} : { signal: request.options.signal }),
    });
    return dataOf(name, body, request.empty);
  }

  async function runStream<Name extends 'generate' | 'followUp'>(
    name: Name,
    params: RouteParams<Name> & { projectId?: string },
    body: RouteBody<Name>,
    streamOptions: StreamOptions = {},
  ): Promise<GenerationResult> {
    const request: TransportRequest = { method: 'POST', path: path(name, params), body };
    const { result } = await foldStream(request, name, params.projectId, streamOptions);
    return result;
  }

  /** Streams a request, folding its events with the generation reducer into a result. */
  async function foldStream(
    request: TransportRequest,
    kind: 'generate' | 'followUp',
    projectId: string | undefined,
    streamOptions: StreamOptions,
  ): Promise<{ result: GenerationResult; lastEventId: number | undefined }> {
    const { signal } = streamOptions;
    let lastEventId: number | undefined;
    if (signal?.aborted)
      return { result: { outcome: 'aborted', error: errorFromThrown(signal.reason, signal) }, lastEventId };
    // The result is the fold of the same reducer the store applies: the caller's (events are interpreted once), or
    // the client's own, which keeps no file list or tool step.
    const own = streamOptions.folded === undefined;
    const draft = streamOptions.folded ?? createGenerationDraft({ kind, projectId, toolLimit: 0, keepFiles: false });
    if (own) applyGenerationAction(draft, { type: 'started' });
    let opened = false;
    let handlerError: unknown;
    const onEvent = (event: AgentEvent, eventId?: number) => {
      // An event says the request was taken, whether or not the transport said so (`onOpen` is a transport's to call):
      // a failure after it is an interrupted build, never a refusal whose "Try again" would start a second one.
      opened = true;
      if (own) reduceGenerationEvent(draft, event, 0);
      if (eventId !== undefined) lastEventId = eventId;
      try {
        streamOptions.onEvent?.(event, eventId);
      } catch (thrown) {
        handlerError = thrown;
        throw thrown;
      }
    };

    const settled = (result: GenerationResult) => ({ result, lastEventId });
    try {
      await transport.stream(
        { ...request, ...(signal === undefined ? {} : { signal }) },
        {
          onOpen: () => {
            opened = true;
          },
          onEvent,
          ...(streamOptions.onProtocolError === undefined ? {} : { onProtocolError: streamOptions.onProtocolError }),
        },
      );
    } catch (thrown) {
      const error = errorFromThrown(thrown, signal);
      if (handlerError !== undefined) return settled(resultOf(draft, 'failed', error));
      const ended = endedOutcome(draft);
      if (ended !== undefined) return settled(resultOf(draft, ended, draft.error));
      if (error.kind === 'aborted') return settled(resultOf(draft, 'aborted', error));
      if (!opened) throw error;
      return settled(resultOf(draft, 'interrupted', error));
    }
    const ended = endedOutcome(draft);
    if (ended === undefined) return settled(resultOf(draft, 'interrupted', streamInterruptedError('closed')));
    return settled(resultOf(draft, ended, draft.error));
  }

  async function replayEvents(projectId: string, eventsOptions: ProjectEventsOptions): Promise<ProjectEventsResult> {
    const after = eventsOptions.after ?? 0;
    const request: TransportRequest = {
      method: 'GET',
      path: path('projectEvents', { projectId }),
      ...(after > 0 ? { query: { after } } : {}),
    };
    try {
      const { result, lastEventId } = await foldStream(request, 'generate', projectId, eventsOptions);
      return { ...result, replayed: true, lastEventId };
    } catch (thrown) {
      const error = errorFromThrown(thrown, eventsOptions.signal);
      // 204: the proxy recorded nothing for the project; 404: not the user's project, or no proxy route at all.
      if (error.status === 204 || error.status === 404) return { outcome: 'nothing_recorded', replayed: false, error };
      throw error;
    }
  }

  return {
    generate: (input, streamOptions) => runStream('generate', {}, input, streamOptions),
    followUp: (projectId, input, streamOptions) => runStream('followUp', { projectId }, input, streamOptions),
    getProject: (projectId, options) => send('getProject', { projectId }, { options }),
    deployments: {
      connect: (provider, body, options) => send('connectDeployment', { provider }, { body, options }),
      getConnection: (provider, externalUserId, options) =>
        send('getDeploymentConnection', { provider, externalUserId }, { options }),
      listConnections: (provider, options) => send('listDeploymentConnections', { provider }, { options }),
      deploy: (providerId, projectId, body = {}, options) =>
        send(
          'deploy',
          { providerId, projectId },
          { body, options, empty: { deployment_id: '', status: 'queued', url: null } },
        ),
    },
    codehost: {
      startConnect: (body, options) => send('startCodehostConnect', {}, { body, options }),
      getConnection: (externalUserId, options) => send('getCodehostConnection', { externalUserId }, { options }),
      listConnections: (options) => send('listCodehostConnections', {}, { options }),
      listRepositories: async (externalUserId, query = {}, options) =>
        repositoryPageOf(
          await send(
            'listRepositories',
            { externalUserId },
            { query: { page: query.page, per_page: query.per_page }, options },
          ),
          { page: query.page ?? 1, perPage: query.per_page ?? repositoryPaging.maxPerPage },
        ),
      link: (projectId, body, options) =>
        send(
          'linkRepository',
          { projectId },
          { body, options, empty: { project_id: projectId, codehost_login: '', repo_url: '', branch: '' } },
        ),
      push: (projectId, body, options) =>
        send(
          'pushRepository',
          { projectId },
          {
            body,
            options,
            empty: { repo_url: '', codehost_login: '', branch: body.branch ?? '', repo_created: false },
          },
        ),
    },
    plans: {
      list: async (options) => plansOf(await send('listPlans', {}, { options })),
    },
    projects: {
      list: async (options) => projectsOf(await send('listProjects', {}, { options })),
      conversation: async (projectId, options) => turnsOf(await send('getConversation', { projectId }, { options })),
      events: replayEvents,
    },
    usage: {
      get: async (options) => usageOf(await send('getUsage', {}, { options })),
    },
  };
}
