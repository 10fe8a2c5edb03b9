/**
 * The proxy's own routes (proxyRoutes in core): the signed-in end user's projects, a project's conversation,
 * and the replay + live follow of a project's latest generation. Owner-only; anyone else gets the same 404
 * as for a project that does not exist.
 */
import {
  generationOfEventId,
  type ConversationBody,
  type ProjectListBody,
  type ProxyRouteName,
  type RouteMatch,
} from '../core/index.js';
import { errorResponse, jsonHeaders, proxyMessages, ProxyRefusal } from './proxy-responses.js';
import { ProxyStoreUnavailableError, storeUnavailableMessage, type ProxyStore } from './proxy-store.js';
import type { DrainState } from './drain.js';
import { encodeEvent, eventStreamHeaders, heartbeatBytes, type RelayTimers } from './event-stream-relay.js';
import { createFollowWake } from './follow-wake.js';
import type { Usage } from './quota.js';
import type { AgentProxyUser } from './route-policy.js';

const noQuota: Usage = { used: 0, limit: null, resets_at: null, period: null };

/** What the project routes need from the proxy. */
export interface ProjectRoutesOptions {
  store: ProxyStore;
  timers: RelayTimers;
  /** A `: ping` after this long without a byte (0: never). */
  heartbeatMs: number;
  /** How often a follower looks for new events when the store cannot wake it (default 250 ms). */
  pollMs?: number;
  /** A follower stops after this long without a new event (the recording instance may be gone); default 5 min. */
  followIdleMs?: number;
  /** Followers end with a resumable close when the proxy drains. */
  drainState?: DrainState;
  /** The signed-in user's quota usage (the `getUsage` route). */
  usage?(user: AgentProxyUser): Promise<Usage>;
}

/** A woken follower still re-reads this often, in case a wake-up was lost (Redis reconnecting). */
const rereadMs = 5_000;

/** The replay's starting point: `Last-Event-ID`, else `?after=N`, else 0. */
function replayAfter(request: Request): number {
  const raw = request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('after') ?? '0';
  const after = Number(raw);
  return Number.isSafeInteger(after) && after >= 0 ? after : 0;
}

/** Creates the handler of the proxy's own routes for an authorised user. */
export function createProjectRoutes(options: ProjectRoutesOptions) {
  const { store, timers } = options;
  const pollMs = options.pollMs ?? 250;
  const followIdleMs = options.followIdleMs ?? 300_000;
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

  async function follow(projectId: string, request: Request, after: number): Promise<Response> {
    const first = await store.readEvents(projectId, after);
    // 204 tells the browser (an EventSource too) to stop: nothing is recorded, its generation was replaced by
    // a newer one (it polls the status instead), or the generation has ended and it has seen every event.
    if (
      first === undefined ||
      (after > 0 && generationOfEventId(after) !== first.generation) ||
      (first.ended && first.events.length === 0)
    )
      return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
    const stop = new AbortController();
    request.signal.addEventListener('abort', () => stop.abort(), { once: true });
    const forget = options.drainState?.track(() => stop.abort());
    let batch: typeof first | undefined = first;
    let last = after;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const wake = createFollowWake(timers);
        const unwatch = await store.watchEvents?.(projectId, wake.notify).catch(() => undefined);
        let lastNew = Date.now();
        let lastByte = Date.now();
        try {
          while (!stop.signal.aborted) {
            if (batch === undefined || batch.generation !== first.generation) break;
            for (const event of batch.events) controller.enqueue(encodeEvent(event));
            if (batch.events.length > 0) {
              last = batch.events[batch.events.length - 1]?.id ?? last;
              lastNew = lastByte = Date.now();
            } else {
              // A store may answer in pages: the follow ends only on an empty read after the end.
              if (batch.ended || Date.now() - lastNew > followIdleMs) break;
              if (options.heartbeatMs > 0 && Date.now() - lastByte >= options.heartbeatMs) {
                controller.enqueue(heartbeatBytes);
                lastByte = Date.now();
              }
              if (unwatch === undefined) await sleep(pollMs, stop.signal);
              else {
                const toPing = options.heartbeatMs > 0 ? options.heartbeatMs - (Date.now() - lastByte) : rereadMs;
                await wake.wait(Math.max(1, Math.min(rereadMs, toPing)), stop.signal);
              }
            }
            batch = await store.readEvents(projectId, last);
          }
        } catch {
          // The store failed mid-follow: end the stream; the browser reads it as interrupted and recovers.
        }
        forget?.();
        unwatch?.();
        try {
          // A close without a terminal event: the browser resumes from its last id (on another instance too).
          controller.close();
        } catch {
          // The browser cancelled meanwhile.
        }
      },
      cancel() {
        stop.abort();
      },
    });
    return new Response(body, { status: 200, headers: eventStreamHeaders() });
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
          return await follow(await ownProject(), request, replayAfter(request));
        default:
          return match.name satisfies never;
      }
    } catch (thrown) {
      if (thrown instanceof ProxyRefusal) return errorResponse('agent', thrown.status, thrown.message);
      if (thrown instanceof ProxyStoreUnavailableError)
        return errorResponse('agent', 503, storeUnavailableMessage, { retryAfterSeconds: 5 });
      throw thrown;
    }
  };
}
