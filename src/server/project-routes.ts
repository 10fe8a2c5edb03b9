/**
 * The proxy's own routes (proxyRoutes in core): the signed-in end user's projects, a project's conversation,
 * and the replay + live follow of a project's latest generation. Owner-only; anyone else gets the same 404
 * as for a project that does not exist.
 */
import {
  firstEventIdOfGeneration,
  generationOfEventId,
  type ConversationBody,
  type ProjectListBody,
  type ProxyRouteName,
  type RouteMatch,
  type StreamSlicing,
} from '../core/index.js';
import { errorResponse, jsonHeaders, proxyMessages, ProxyRefusal } from './proxy-responses.js';
import {
  ProxyStoreUnavailableError,
  storeUnavailableMessage,
  type GenerationEvents,
  type ProxyStore,
  type RecordedEvent,
} from './proxy-store.js';
import type { DrainState } from './drain.js';
import {
  defaultMaxBufferedBytes,
  defaultSlowReaderMs,
  eventStreamHeaders,
  relayEvents,
  slowReaderReason,
  type RelayTimers,
} from './event-stream-relay.js';
import { createFollowWake } from './follow-wake.js';
import type { ProxyLogEntry } from './proxy-types.js';
import type { Usage } from './quota.js';
import type { AgentProxyUser } from './route-policy.js';

const noQuota: Usage = { used: 0, limit: null, resets_at: null, period: null };

/** What the project routes need from the proxy. */
export interface ProjectRoutesOptions {
  store: ProxyStore;
  timers: RelayTimers;
  /** The proxy's clock (`now`): how long a follower has gone without a new event. */
  now: () => number;
  /** A `: ping` ends each period of this long in which no event went out, as on a relayed stream (0: never). */
  heartbeatMs: number;
  /**
   * Most event bytes queued for one browser (default 1 MiB): a follower reads the store, a page of at most this
   * much at a time, only while its browser has room.
   */
  maxBufferedBytes?: number;
  /** How long a follower's full buffer waits for its browser before a resumable close (default 10 s; 0: never). */
  slowReaderMs?: number;
  /** How the relay shares the thread it runs on (a page's main thread); undefined: it never pauses. */
  slicing?: StreamSlicing | undefined;
  /** Where a follower dropped for reading too slowly is logged (`slow_reader`). */
  log?(entry: ProxyLogEntry): void;
  /** How often a follower looks for new events when the store cannot wake it (default 250 ms). */
  pollMs?: number;
  /** A follower stops after this long without a new event (the recording instance may be gone); default 5 min. */
  followIdleMs?: number;
  /** Followers end with a resumable close when the proxy drains. */
  drainState?: DrainState;
  /** The signed-in user's quota usage (the `getUsage` route). */
  usage?(user: AgentProxyUser): Promise<Usage>;
  /** Whether a generation of the project is on its way through a proxy (its upstream has heard of it). */
  isRelayed?(projectId: string): Promise<boolean>;
}

/** A woken follower still re-reads this often, in case a wake-up was lost (Redis reconnecting). */
const rereadMs = 5_000;

/** The replay's starting point: `Last-Event-ID`, else `?after=N`, else 0 (a blank one is no value). */
function replayAfter(request: Request): number {
  const raw =
    request.headers.get('last-event-id')?.trim() || new URL(request.url).searchParams.get('after')?.trim() || '0';
  const after = Number(raw);
  return Number.isSafeInteger(after) && after >= 0 ? after : 0;
}

/** Creates the handler of the proxy's own routes for an authorised user. */
export function createProjectRoutes(options: ProjectRoutesOptions) {
  const { store, timers, now } = options;
  const pollMs = options.pollMs ?? 250;
  const followIdleMs = options.followIdleMs ?? 300_000;
  const maxBufferedBytes = options.maxBufferedBytes ?? defaultMaxBufferedBytes;
  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const done = () => {
        timers.clearTimeout(handle);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const handle = timers.setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });

  /**
   * The generation's events after `after`, from the page already read on, one at a time as the relay asks for them
   * (it asks only while its browser has room): then the next page, and once the log is read, the next event
   * recorded, woken by the store (or polling it), until the generation ends or goes quiet for `followIdleMs`.
   */
  function recordedEvents(projectId: string, first: GenerationEvents, after: number, stop: AbortSignal) {
    const wake = createFollowWake(timers);
    let unwatch: (() => void) | undefined;
    let page = first;
    let index = 0;
    let last = after;
    let lastNew = now();
    const next = async (): Promise<RecordedEvent | undefined> => {
      for (;;) {
        if (stop.aborted) return undefined;
        const event = page.events[index];
        if (event !== undefined) {
          index += 1;
          last = event.id;
          return event;
        }
        // A store may answer in pages: the follow ends only on an empty read after the end.
        if (page.events.length === 0) {
          if (page.ended || now() - lastNew > followIdleMs) return undefined;
          if (unwatch === undefined) await sleep(pollMs, stop);
          else await wake.wait(rereadMs, stop);
          if (stop.aborted) return undefined;
        }
        const read = await store.readEvents(projectId, last, maxBufferedBytes);
        if (read === undefined || read.generation !== first.generation) return undefined;
        page = read;
        index = 0;
        if (read.events.length > 0) lastNew = now();
      }
    };
    return new ReadableStream<RecordedEvent>(
      {
        async start() {
          unwatch = await store.watchEvents?.(projectId, wake.notify).catch(() => undefined);
        },
        async pull(controller) {
          let event: RecordedEvent | undefined;
          try {
            event = await next();
          } catch {
            // The store failed mid-follow: end the stream; the browser reads it as interrupted and recovers.
          }
          if (event !== undefined) return controller.enqueue(event);
          unwatch?.();
          controller.close();
        },
      },
      // Nothing is read ahead of the relay: what the follower holds is its browser's buffer and one page.
      { highWaterMark: 0 },
    );
  }

  async function follow(projectId: string, request: Request, after: number, userId: string): Promise<Response> {
    // One of the user's open streams, reserved before the store is read; given back if no stream starts.
    const release = options.drainState?.reserve(userId);
    let handedOver = false;
    try {
      const first = await store.readEvents(projectId, after, maxBufferedBytes);
      // 204 tells the browser (an EventSource too) to stop: nothing is recorded, its generation was replaced by
      // a newer one (it polls the status instead), the generation has ended and it has seen every event, or a newer
      // one is starting. An
      // `after` that is the last id of the generation before the latest asks for the latest from its start
      // (`afterGenerationOf`: a change whose answer was lost, or cut before its first event).
      const replaced = after > 0 && generationOfEventId(after) !== first?.generation;
      if (
        first === undefined ||
        (replaced && after !== firstEventIdOfGeneration(first.generation) - 1) ||
        (first.ended && first.events.length === 0) ||
        // No id asks for the latest generation, whichever it is: while a follow-up is held and the latest recorded one
        // has ended, the latest is that change, not recorded yet, and the ended build is not it.
        (after === 0 && first.ended && (await options.isRelayed?.(projectId)) === true)
      )
        return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
      const stop = new AbortController();
      request.signal.addEventListener('abort', () => stop.abort(), { once: true });
      // A browser that left while the store was read: a listener added now would never run.
      if (request.signal.aborted) stop.abort();
      const forget = options.drainState?.track(() => stop.abort());
      // The generate relay's own backpressure, heartbeat and slow-reader drop. Every close is one without a terminal
      // event: the browser resumes from its last id (on another instance too).
      const relayed = relayEvents(recordedEvents(projectId, first, after, stop.signal), {
        heartbeatMs: options.heartbeatMs,
        timers,
        // The browser went away or the proxy drains: closed at once, with the events already queued.
        signal: stop.signal,
        maxBufferedBytes,
        slowReaderMs: options.slowReaderMs ?? defaultSlowReaderMs,
        slicing: options.slicing,
        onSlowReader: () =>
          options.log?.({
            level: 'warn',
            event: 'slow_reader',
            method: 'GET',
            route: 'projectEvents',
            externalUserId: userId,
            projectId,
            reason: slowReaderReason,
          }),
        // Unlike a generation's upstream, the store is read only for the browser: once it is gone, the follow stops.
        onBrowserGone: () => stop.abort(),
      });
      handedOver = true;
      void relayed.done.then(() => {
        forget?.();
        release?.();
      });
      return new Response(relayed.body, { status: 200, headers: eventStreamHeaders() });
    } finally {
      if (!handedOver) release?.();
    }
  }

  /** Answers one proxy route for the signed-in user (owner checks fail closed on a store failure). */
  return async function serve(
    match: RouteMatch<ProxyRouteName>,
    request: Request,
    user: AgentProxyUser,
  ): Promise<Response> {
    const userId = user.externalUserId;
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: jsonHeaders() });
    /** The route's project, if the signed-in user owns it; the same 404 as for no project at all otherwise. */
    const ownProject = async (): Promise<string> => {
      const projectId = match.params.projectId;
      if (projectId === undefined || (await store.getProjectOwner(projectId)) !== userId)
        throw new ProxyRefusal(404, proxyMessages.projectNotFound, 'project of another user or unknown');
      return projectId;
    };
    try {
      switch (match.name) {
        case 'getUsage':
          return json({ status: true, ...(options.usage === undefined ? noQuota : await options.usage(user)) });
        case 'listProjects': {
          const body: ProjectListBody = { status: true, projects: await store.listProjects(userId) };
          return json(body);
        }
        case 'getConversation': {
          const projectId = await ownProject();
          const body: ConversationBody = {
            status: true,
            project_id: projectId,
            turns: await store.getConversation(projectId),
          };
          return json(body);
        }
        case 'projectEvents':
          return await follow(await ownProject(), request, replayAfter(request), userId);
        default:
          return match.name satisfies never;
      }
    } catch (thrown) {
      if (thrown instanceof ProxyRefusal) return errorResponse('agent', thrown.status, thrown.message, thrown.extra);
      if (thrown instanceof ProxyStoreUnavailableError)
        return errorResponse('agent', 503, storeUnavailableMessage, { retryAfterSeconds: 5 });
      throw thrown;
    }
  };
}
