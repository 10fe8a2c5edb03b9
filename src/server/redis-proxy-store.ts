/**
 * The Redis `ProxyStore`: durable across restarts and shared by every proxy instance. Key layout (after
 * `keyPrefix`, default 'agent-embed:'), documented in docs/proxy.md:
 *   owner:{project}            project owner, SET NX, never expires
 *   budget:log / budget:served / budget:waiting / budget:waiting-until / budget:pause   the budget script's state
 *   quota:{user}:{window}      generations counted in a quota period (expires at its end plus maxClockSkewMs)
 *   status:{project}           cached status answer (PX statusCacheMs); status-lock:{project} single-flight claim
 *   relay:{project}            zset of the relays of a build still open (holder -> lease expiry on Redis's clock)
 *   generation:{project}       latest generation number and whether it ended; events:{project} its stream
 *   logs:{user}                zset of the user's event logs by when they began (at most maxEventLogsPerUser)
 *   project:{project}          summary hash; projects:{user} zset of the user's projects by creation time
 *   turns:{project}            the conversation, one JSON turn per prompt
 */
import type { ConversationTurn, ProjectSummary } from '../core/index.js';
import { budgetShape, type BudgetDecision } from './fair-budget.js';
import {
  maxListedProjects,
  ProxyStoreUnavailableError,
  type GenerationEvents,
  type ProxyStore,
  type RecordedEvent,
} from './proxy-store.js';
import {
  appendEventsScript,
  beginGenerationScript,
  budgetScript,
  dropEventLogScript,
  endGenerationScript,
  holdRelayScript,
  isRelayedScript,
  noteProjectScript,
  pauseScript,
  readEventsScript,
  returnQuotaScript,
  takeQuotaScript,
} from './redis-scripts.js';
import { luaJson, parsedOrNaN, stored } from './redis-values.js';

/** The part of a node-redis client (v5 or v6) the store uses. */
export interface RedisClientLike {
  readonly isReady: boolean;
  sendCommand(args: string[]): Promise<unknown>;
  /** With it, the first requests wait for a given client's connection to open. */
  on?(event: 'ready', listener: () => void): unknown;
  /** With it, followers of another instance's build are woken by Redis pub/sub instead of polling. */
  duplicate?(): unknown;
}

/** Options of `createRedisProxyStore`: a Redis URL (the store opens and owns the client) or a connected client. */
export type RedisProxyStoreOptions = ({ url: string } | { client: RedisClientLike }) & {
  /** Prefix of every key (default 'agent-embed:'); one prefix per agency team. */
  keyPrefix?: string;
  /** Most events kept per generation (the oldest go first; default 5,000). */
  maxEventsPerGeneration?: number;
  /** Most bytes of event data kept per generation (the oldest go first; default 8 MiB). */
  maxEventBytesPerGeneration?: number;
  /** How long a generation's events are kept after its end, in ms (default 1 hour). */
  eventRetentionMs?: number;
  /**
   * Most event logs kept per end user (default 20, as the memory store): past it, the user's least recently begun log
   * is dropped, so one user's builds never fill Redis with logs for replays.
   */
  maxEventLogsPerUser?: number;
  /**
   * The longest clock skew between a proxy instance and Redis that quotas keep up with (default 1 hour): a quota
   * count outlives its period's end by it, so an instance whose clock is behind still finds the period's count.
   */
  maxClockSkewMs?: number;
  /** Most turns kept per conversation (the oldest go first; default 200, as the memory store). */
  maxTurnsPerProject?: number;
  /** The longest a generation is kept running without an end, in ms (its instance may have died; default 1 day). */
  runningRetentionMs?: number;
  /** How long a request waits for the first connection to open before it answers 503 (default 5000 ms). */
  connectTimeoutMs?: number;
  /**
   * How long one command may take before the request answers 503 (default 5000 ms): a Redis that stops answering (a
   * stalled server, a network partition that keeps the socket open) must not hold requests and streams forever.
   */
  commandTimeoutMs?: number;
  /** Connection errors of a client the store opened (reconnection is automatic), or a missing `redis` package. */
  onError?(error: unknown): void;
};

/** The Redis store, with `ready()` (the first connection) and `close()` (for a client it opened). */
export interface RedisProxyStore extends ProxyStore {
  ready(): Promise<void>;
  close(): Promise<void>;
}

interface OwnedClient extends RedisClientLike {
  connect(): Promise<unknown>;
  on(event: 'error' | 'ready', listener: (error: unknown) => void): unknown;
  close?(): Promise<void>;
  quit?(): Promise<unknown>;
  destroy?(): void;
}

/** The duplicate connection that listens for recorded events. */
interface Subscriber extends OwnedClient {
  subscribe(channel: string, listener: () => void): Promise<unknown>;
  unsubscribe(channel: string, listener: () => void): Promise<unknown>;
}

/** Closes a client the store opened: gracefully when connected, at once while it is still trying. */
async function closeClient(client: OwnedClient): Promise<void> {
  if (!client.isReady) client.destroy?.();
  else if (client.close) await client.close();
  else await client.quit?.();
}

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return settled;
}

const redisModule = 'redis';

/** Creates the Redis store; the `redis` package is loaded only here, and only for `{ url }`. */
export function createRedisProxyStore(options: RedisProxyStoreOptions): RedisProxyStore {
  const prefix = options.keyPrefix ?? 'agent-embed:';
  const maxEvents = options.maxEventsPerGeneration ?? 5_000;
  const maxEventBytes = options.maxEventBytesPerGeneration ?? 8 * 1024 * 1024;
  const retentionMs = options.eventRetentionMs ?? 3_600_000;
  const maxTurns = Math.max(1, Math.floor(options.maxTurnsPerProject ?? 200));
  const maxLogsPerUser = Math.max(1, Math.floor(options.maxEventLogsPerUser ?? 20));
  const maxClockSkewMs = Math.max(0, options.maxClockSkewMs ?? 3_600_000);
  const runningMs = options.runningRetentionMs ?? 86_400_000;
  let client: RedisClientLike | undefined = 'client' in options ? options.client : undefined;
  let owned: OwnedClient | undefined;
  let closed = false;
  const opening: Promise<void> =
    'url' in options
      ? (async () => {
          // An optional peer: bundlers (Next.js, Vite) must not try to resolve it when the app has no Redis.
          const { createClient } = (await import(/* webpackIgnore: true */ /* @vite-ignore */ redisModule)) as {
            createClient(options: object): OwnedClient;
          };
          if (closed) return;
          // Without the offline queue a command fails at once while Redis is down, so the proxy answers 503
          // instead of holding requests; reconnection goes on in the background.
          owned = createClient({ url: options.url, disableOfflineQueue: true });
          owned.on('error', (error) => options.onError?.(error));
          client = owned;
          await owned.connect();
        })()
      : Promise.resolve();
  // A missing `redis` package: reported, and every call answers 503.
  let openFailed = false;
  opening.catch((error: unknown) => {
    openFailed = true;
    if (!closed) options.onError?.(error);
  });
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const commandTimeoutMs = options.commandTimeoutMs ?? 5_000;
  const given = client;
  const firstReady: Promise<void> =
    given === undefined || given.isReady || given.on === undefined
      ? opening
      : new Promise((resolve) => given.on?.('ready', () => resolve()));
  let wasReady = false;
  void firstReady.then(
    () => (wasReady = true),
    () => undefined,
  );
  /** Before the first connection has opened, a call waits for it (at most `connectTimeoutMs`). */
  const connected = async (): Promise<RedisClientLike> => {
    if (!wasReady && !openFailed && client?.isReady !== true) await settlesWithin(firstReady, connectTimeoutMs);
    if (client === undefined || !client.isReady) throw new ProxyStoreUnavailableError();
    return client;
  };

  const key = (...parts: string[]) => prefix + parts.join(':');
  const call = async (args: string[]): Promise<unknown> => {
    const ready = await connected();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        ready.sendCommand(args),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${commandTimeoutMs} ms`)), commandTimeoutMs);
        }),
      ]);
    } catch (error) {
      throw new ProxyStoreUnavailableError(error);
    } finally {
      clearTimeout(timer);
    }
  };
  const shas = new Map<string, string>();
  const run = async (script: string, keys: string[], args: (string | number)[]): Promise<unknown> => {
    const argv = [String(keys.length), ...keys, ...args.map(String)];
    const sha = shas.get(script);
    if (sha !== undefined) {
      try {
        return await call(['EVALSHA', sha, ...argv]);
      } catch (error) {
        if (!String((error as { cause?: unknown }).cause).includes('NOSCRIPT')) throw error;
      }
    }
    shas.set(script, String(await call(['SCRIPT', 'LOAD', script])));
    return call(['EVALSHA', shas.get(script) as string, ...argv]);
  };
  const iso = (at: number) => new Date(at).toISOString();

  // One duplicate connection per store carries every follower's subscription, opened at the first follower.
  let subscriber: Promise<Subscriber | undefined> | undefined;
  const subscribed = () =>
    (subscriber ??= (async () => {
      const source = (await connected()) as RedisClientLike;
      const duplicate = source.duplicate?.() as Subscriber | undefined;
      if (duplicate === undefined) return undefined;
      duplicate.on('error', (error) => options.onError?.(error));
      // Redis may go down meanwhile: a follower then polls rather than wait for the duplicate.
      const opened = await settlesWithin(duplicate.connect(), connectTimeoutMs);
      if (opened && duplicate.isReady) return duplicate;
      await closeClient(duplicate);
      return undefined;
    })().catch(() => (subscriber = undefined)));

  async function appendEvents(projectId: string, generation: number, events: readonly RecordedEvent[]) {
    if (events.length === 0) return;
    const args: (string | number)[] = [generation, maxEvents, runningMs, maxEventBytes];
    for (const event of events) args.push(event.id, event.data);
    await run(appendEventsScript, [key('generation', projectId), key('events', projectId)], args);
  }

  return {
    ready: () => firstReady,
    async close() {
      closed = true;
      const closing = owned;
      const listening = subscriber;
      // Idempotent: a second close finds nothing to close.
      owned = undefined;
      client = undefined;
      subscriber = undefined;
      const subscribedClient = await listening;
      if (subscribedClient !== undefined) await closeClient(subscribedClient);
      if (closing !== undefined) await closeClient(closing);
    },
    async assertAvailable() {
      await connected();
    },
    async watchEvents(projectId, onChange) {
      const listening = await subscribed();
      if (listening === undefined) return undefined;
      // The scripts that record events publish on the events key's name.
      const channel = key('events', projectId);
      const listener = () => onChange();
      try {
        await listening.subscribe(channel, listener);
      } catch {
        return undefined;
      }
      return () => void listening.unsubscribe(channel, listener).catch(() => undefined);
    },
    async getProjectOwner(projectId) {
      const owner = await call(['GET', key('owner', projectId)]);
      return typeof owner === 'string' ? owner : undefined;
    },
    async setProjectOwner(projectId, externalUserId) {
      await call(['SET', key('owner', projectId), externalUserId, 'NX']);
    },
    async acquireBudget(userId, _now, limits): Promise<BudgetDecision> {
      const shape = budgetShape(limits);
      const reply = (await run(
        budgetScript,
        ['log', 'served', 'waiting', 'waiting-until', 'pause'].map((name) => key('budget', name)),
        [userId, shape.limit, shape.holdMs, shape.burst, shape.spreadMs, shape.graceMs, limits.maxPauseMs ?? -1],
      )) as [number, string?, number?];
      if (reply[0] === 1) return { ok: true };
      return { ok: false, reason: reply[1] as 'team' | 'fair_share' | 'paused', retryAfterMs: Number(reply[2]) };
    },
    async pauseBudget(until) {
      await run(pauseScript, [key('budget', 'pause')], [Math.ceil(until)]);
    },
    async getCachedStatus(projectId, now) {
      const raw = await call(['GET', key('status', projectId)]);
      if (typeof raw !== 'string') return undefined;
      // A cache entry that does not read is a miss: the status is asked again, and the new answer replaces it.
      const entry = parsedOrNaN(raw) as
        { status: number; body: string; contentType: string; expiresAt: number } | null | undefined;
      return typeof entry?.expiresAt === 'number' && entry.expiresAt > now ? entry : undefined;
    },
    async setCachedStatus(projectId, entry) {
      const ttl = Math.max(1, Math.ceil(entry.expiresAt - Date.now()));
      await call(['SET', key('status', projectId), JSON.stringify(entry), 'PX', String(ttl)]);
      // The refresh is done: the next expiry must find the claim free, not wait out its TTL.
      await call(['DEL', key('status-lock', projectId)]);
    },
    async claimStatusRefresh(projectId, ttlMs) {
      return (await call(['SET', key('status-lock', projectId), '1', 'NX', 'PX', String(ttlMs)])) === 'OK';
    },
    async holdRelay(projectId, holder, ttlMs) {
      await run(holdRelayScript, [key('relay', projectId)], [holder, Math.max(1, Math.ceil(ttlMs))]);
    },
    async releaseRelay(projectId, holder) {
      await call(['ZREM', key('relay', projectId), holder]);
    },
    async isRelayed(projectId) {
      return Number(await run(isRelayedScript, [key('relay', projectId)], [])) === 1;
    },
    async beginGeneration(projectId, userId, turn) {
      const at = Date.parse(turn.at);
      const [generation, ...evicted] = (await run(
        beginGenerationScript,
        [
          key('turns', projectId),
          key('events', projectId),
          key('generation', projectId),
          key('project', projectId),
          key('projects', userId),
          key('logs', userId),
        ],
        [luaJson(turn), projectId, userId, at, runningMs, iso(at), maxTurns, maxLogsPerUser],
      )) as [number, ...string[]];
      for (const project of evicted)
        await run(dropEventLogScript, [key('generation', project), key('events', project)], []);
      return Number(generation);
    },
    appendEvent: (projectId, generation, event) => appendEvents(projectId, generation, [event]),
    appendEvents,
    async endGeneration(projectId, generation, outcome) {
      await run(
        endGenerationScript,
        [key('generation', projectId), key('events', projectId), key('turns', projectId), key('project', projectId)],
        [generation, luaJson(outcome), retentionMs],
      );
    },
    async readEvents(projectId, after, maxBytes): Promise<GenerationEvents | undefined> {
      const keys = [key('generation', projectId), key('events', projectId)];
      const page = maxBytes !== undefined && Number.isFinite(maxBytes) ? [Math.max(0, Math.floor(maxBytes))] : [];
      const reply = (await run(readEventsScript, keys, [after, ...page])) as string[] | [];
      if (reply.length === 0) return undefined;
      const events: RecordedEvent[] = [];
      for (let index = 2; index + 1 < reply.length; index += 2)
        events.push({ id: Number(reply[index]), data: String(reply[index + 1]) });
      return { generation: Number(reply[0]), ended: reply[1] === '1', events };
    },
    async noteProject(projectId, userId, patch, at) {
      const fields = Object.entries(patch).flatMap(([field, value]) => [field, value ?? '']);
      await run(
        noteProjectScript,
        [key('project', projectId), key('projects', userId)],
        [projectId, userId, at, iso(at), ...fields],
      );
    },
    async listProjects(userId) {
      const last = String(maxListedProjects - 1);
      const ids = (await call(['ZRANGE', key('projects', userId), '0', last, 'REV'])) as string[];
      const rows = await Promise.all(
        ids.map(async (projectId) => {
          const fields = ['owner', 'name', 'app_url', 'project_status', 'created_at', 'updated_at'];
          const values = (await call(['HMGET', key('project', projectId), ...fields])) as (string | null)[];
          const [owner, name, appUrl, status, createdAt, updatedAt] = values;
          if (owner !== userId || createdAt == null) return undefined;
          const summary: ProjectSummary = {
            project_id: projectId,
            name: name || null,
            app_url: appUrl || null,
            project_status: status || null,
            created_at: createdAt,
            updated_at: updatedAt ?? createdAt,
          };
          return summary;
        }),
      );
      return rows.filter((row): row is ProjectSummary => row !== undefined);
    },
    async getConversation(projectId) {
      const turns = (await call(['LRANGE', key('turns', projectId), '0', '-1'])) as string[];
      return turns.map((turn) => stored(key('turns', projectId), parsedOrNaN(turn)) as ConversationTurn);
    },
    async takeQuota(userId, window, limit, expiresAt) {
      const [ok, used] = (await run(
        takeQuotaScript,
        [key('quota', userId, window)],
        [limit, expiresAt, maxClockSkewMs],
      )) as number[];
      return { ok: ok === 1, used: Number(used) };
    },
    async returnQuota(userId, window) {
      await run(returnQuotaScript, [key('quota', userId, window)], []);
    },
    async readQuota(userId, window) {
      return stored(key('quota', userId, window), Number((await call(['GET', key('quota', userId, window)])) ?? 0));
    },
  };
}
