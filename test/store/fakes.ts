/** Test doubles for the store: a scripted transport, manual timers and a manual frame scheduler. */
import {
  AgentApiError,
  createAgentClient,
  createAgentStore,
  type AgentEvent,
  type AgentStoreOptions,
  type AgentTransport,
  type Project,
  type StreamHandlers,
  type TransportRequest,
} from 'agent-embed/core';

/** One stream the scripted transport has opened, driven by the test. */
export interface ScriptedStream {
  request: TransportRequest;
  handlers: StreamHandlers;
  /** The request's signal was aborted. */
  readonly aborted: boolean;
  open(): void;
  emit(event: AgentEvent): void;
  /** The server closes the stream (after a terminal event, or early: the client calls that interrupted). */
  close(): void;
  /** Refused before the stream starts (422, 400, ...). */
  refuse(error: AgentApiError): void;
  /** Broken after it started (network drop). */
  fail(error: AgentApiError): void;
}

type ProjectAnswer = Project | AgentApiError | ((projectId: string) => Project | AgentApiError);

/** A transport whose streams and project answers are scripted by the test. */
export function createScriptedTransport() {
  const streams: ScriptedStream[] = [];
  const requests: { method: string; path: string; body?: unknown }[] = [];
  const projectAnswers: ProjectAnswer[] = [];
  let defaultProject: ProjectAnswer | undefined;
  const replays: ScriptedStream[] = [];
  const replayRequests: { method: string; path: string; query?: TransportRequest['query'] }[] = [];
  let scriptReplays = false;
  const transport: AgentTransport = {
    async json(request) {
      requests.push({ method: request.method, path: request.path, body: request.body });
      if (request.signal?.aborted) throw new AgentApiError('aborted', 'The request was cancelled.');
      const answer = projectAnswers.shift() ?? defaultProject;
      if (answer === undefined) throw new AgentApiError('not_found', 'Project not found.', { status: 404 });
      const projectId = decodeURIComponent(request.path.split('/').pop() ?? '');
      const value = typeof answer === 'function' ? answer(projectId) : answer;
      if (value instanceof AgentApiError) throw value;
      return value;
    },
    stream(request, handlers) {
      // GET streams are the proxy's events route: without a scripted replay, answered as by a transport
      // straight to the API (404), and kept apart from the status polls.
      if (request.method === 'GET') {
        replayRequests.push({ method: request.method, path: request.path, query: request.query });
        if (!scriptReplays) return Promise.reject(new AgentApiError('not_found', 'Not found.', { status: 404 }));
      } else requests.push({ method: request.method, path: request.path, body: request.body });
      const opened = request.method === 'GET' ? replays : streams;
      return new Promise<void>((resolve, reject) => {
        let settled = false;
        const settle = (action: () => void) => {
          if (settled) return;
          settled = true;
          action();
        };
        const stream: ScriptedStream = {
          request,
          handlers,
          get aborted() {
            return request.signal?.aborted ?? false;
          },
          open: () => handlers.onOpen?.(),
          emit: (event) => {
            if (!settled) handlers.onEvent(event);
          },
          close: () => settle(resolve),
          refuse: (error) => settle(() => reject(error)),
          fail: (error) => settle(() => reject(error)),
        };
        request.signal?.addEventListener(
          'abort',
          () => settle(() => reject(new AgentApiError('aborted', 'The request was cancelled.'))),
          { once: true },
        );
        opened.push(stream);
      });
    },
  };
  return {
    transport,
    streams,
    requests,
    /** Streams of the events route, once `scriptReplays(true)`; every request to it is in `replayRequests`. */
    replays,
    replayRequests,
    scriptReplays(value: boolean) {
      scriptReplays = value;
    },
    /** Answers of the next status polls, in order; then `setDefaultProject`'s answer. */
    queueProject(...answers: ProjectAnswer[]) {
      projectAnswers.push(...answers);
    },
    setDefaultProject(answer: ProjectAnswer | undefined) {
      defaultProject = answer;
    },
    posts: () => requests.filter((request) => request.method === 'POST'),
    gets: () => requests.filter((request) => request.method === 'GET'),
  };
}

/** setTimeout/clearTimeout driven by `advance`, with a clock. */
export function createManualTimers(start = 1_000_000) {
  let time = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void; ms: number }>();
  const delays: number[] = [];
  return {
    now: () => time,
    setTimeout: (callback: () => void, ms: number) => {
      const id = nextId++;
      timers.set(id, { at: time + ms, callback, ms });
      delays.push(ms);
      return id;
    },
    clearTimeout: (handle: unknown) => {
      timers.delete(handle as number);
    },
    /** Every delay ever scheduled, in order. */
    delays,
    pending: () => [...timers.values()].map((timer) => timer.ms),
    /** Moves the clock, running due timers in order and letting promises settle between them. */
    async advance(ms: number) {
      const end = time + ms;
      for (;;) {
        await settle();
        let due: [number, { at: number; callback: () => void }] | undefined;
        for (const entry of timers)
          if (entry[1].at <= end && (due === undefined || entry[1].at < due[1].at)) due = entry;
        if (due === undefined) break;
        timers.delete(due[0]);
        time = Math.max(time, due[1].at);
        due[1].callback();
      }
      time = end;
      await settle();
    },
  };
}

/** Lets pending promise callbacks run. */
export async function settle(): Promise<void> {
  for (let index = 0; index < 10; index++) await Promise.resolve();
}

/**
 * Waits for the store to have sent a click's POST: where frames run, the click's state publishes in a task of its own
 * and the POST goes in the task after it.
 */
export async function untilSent(scripted: { streams: readonly unknown[] }): Promise<void> {
  while (scripted.streams.length === 0) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** A frame scheduler the test runs by hand. */
export function createManualFrames() {
  let queued: (() => void)[] = [];
  return {
    scheduleFlush: (flush: () => void) => {
      queued.push(flush);
      return () => {
        queued = queued.filter((entry) => entry !== flush);
      };
    },
    get pending() {
      return queued.length;
    },
    /** Runs the frame callbacks queued so far. */
    runFrame() {
      const now = queued;
      queued = [];
      for (const flush of now) flush();
    },
  };
}

/** A minimal in-memory Web Storage. */
export function createMemoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
    values,
  };
}

/** A project status body. */
export function project(
  projectId: string,
  projectStatus: string,
  appUrl = `https://${projectId}.apps.example.test`,
): Project {
  return {
    status: true,
    project_id: projectId,
    app_url: appUrl,
    project_status: projectStatus,
    name: `Project ${projectId}`,
  };
}

/**
 * A store over a scripted transport, driven by manual timers and frames, with storage in memory; a visible page
 * and 1 s status polls unless `overrides` say otherwise.
 */
export function createScriptedStore(overrides: Partial<AgentStoreOptions> = {}) {
  const scripted = createScriptedTransport();
  const timers = createManualTimers();
  const frames = createManualFrames();
  const storage = createMemoryStorage();
  const store = createAgentStore({
    client: createAgentClient({ transport: scripted.transport }),
    storage,
    scheduleFlush: frames.scheduleFlush,
    setTimeout: timers.setTimeout,
    clearTimeout: timers.clearTimeout,
    now: timers.now,
    isHidden: () => false,
    onVisibilityChange: () => () => {},
    pollIntervalMs: 1000,
    ...overrides,
  });
  return { store, scripted, timers, frames, storage };
}
/** A scripted store whose notifications are counted and whose page visibility the test sets. */
export function setupStore(overrides: Partial<AgentStoreOptions> = {}) {
  let hidden = false;
  const visibilityListeners = new Set<() => void>();
  const { store, scripted, timers, frames, storage } = createScriptedStore({
    isHidden: () => hidden,
    onVisibilityChange: (listener) => {
      visibilityListeners.add(listener);
      return () => visibilityListeners.delete(listener);
    },
    maxPollIntervalMs: 8000,
    ...overrides,
  });
  let notifications = 0;
  store.subscribe(() => {
    notifications++;
  });
  return {
    store,
    scripted,
    timers,
    frames,
    storage,
    notifications: () => notifications,
    setHidden(value: boolean) {
      hidden = value;
      for (const listener of [...visibilityListeners]) listener();
    },
    visibilityListenerCount: () => visibilityListeners.size,
  };
}

/** A `project_created` event for `id`. */
export const created = (id: string): AgentEvent => ({
  type: 'project_created',
  project_id: id,
  app_url: `https://${id}.apps.example.test`,
});
/** A `stream_end` event for `id`. */
export const end = (id: string): AgentEvent => ({
  type: 'stream_end',
  project_id: id,
  app_url: `https://${id}.apps.example.test`,
});
