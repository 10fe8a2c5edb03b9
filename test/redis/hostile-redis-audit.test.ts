/**
 * Red-team audit of the Redis store (`createRedisProxyStore`) from a hostile end user's browser and a broken Redis.
 * What each test found is said above it ("Found by this audit"), fixed in src; the others document what held.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAgentProxy, type AgentProxyOptions, type ProxyLogEntry, type RedisProxyStore } from 'agent-embed/server';
import { startTestRedis, useTestRedis, type TestRedis } from './redis-server.js';

const redis = useTestRedis();
const token = `test-token-${randomUUID()}`;

type RedisClient = {
  sendCommand(args: string[]): Promise<unknown>;
  connect(): Promise<unknown>;
  quit(): Promise<unknown>;
  on(event: string, listener: (error: unknown) => void): unknown;
};
const inspectors: RedisClient[] = [];
async function inspector(url = redis.server.url): Promise<RedisClient> {
  const { createClient } = await import('redis');
  const client = createClient({ url }) as unknown as RedisClient;
  client.on('error', () => undefined);
  await client.connect();
  inspectors.push(client);
  return client;
}
afterAll(async () => {
  for (const client of inspectors.splice(0)) await client.quit().catch(() => undefined);
});

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
process.on('unhandledRejection', onUnhandled);
afterAll(() => void process.off('unhandledRejection', onUnhandled));
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

const sse = (events: object[]) =>
  new Response(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''), {
    headers: { 'content-type': 'text/event-stream' },
  });
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface Upstream {
  /** The project id the next generate names. */
  nextProject: () => string;
  /** Extra events between project_created and stream_end (per generate). */
  body?: (projectId: string) => object[];
}

/** A proxy on a Redis store, with a scripted upstream; `as(user)` sends as an end user (header `x-user`, URI-encoded). */
function proxyOn(store: RedisProxyStore, upstream: Upstream, options: Partial<AgentProxyOptions> = {}) {
  const logs: ProxyLogEntry[] = [];
  const calls: string[] = [];
  const handler = createAgentProxy({
    apiBaseUrl: 'https://agent.example.test/api/v1',
    apiToken: token,
    authorize: (request) => {
      const user = request.headers.get('x-user');
      return user === null ? null : { externalUserId: decodeURIComponent(user) };
    },
    store,
    rateLimit: false,
    onLog: (entry) => void logs.push(entry),
    fetch: async (input, init) => {
      const url = new URL(String(input));
      calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      if (url.pathname.endsWith('/agent/generate')) {
        const projectId = upstream.nextProject();
        return sse([
          { type: 'project_created', project_id: projectId, app_url: `https://${projectId}.example` },
          ...(upstream.body?.(projectId) ?? []),
          { type: 'stream_end', project_id: projectId, app_url: `https://${projectId}.example` },
        ]);
      }
      const followUp = /\/agent\/generate\/([^/]+)$/.exec(url.pathname);
      if (followUp !== null)
        return sse([{ type: 'stream_end', project_id: followUp[1], app_url: `https://${followUp[1]}.example` }]);
      const project = /\/agent\/project\/([^/]+)$/.exec(url.pathname);
      if (project !== null)
        return json({
          status: true,
          project_id: project[1],
          app_url: `https://${project[1]}.example`,
          project_status: 'ready',
          name: 'A project',
        });
      return json({ success: true, message: 'ok', data: null });
    },
    ...options,
  });
  const as = async (user: string, method: string, path: string, body?: object, headers: Record<string, string> = {}) =>
    handler(
      new Request(`https://app.example.test${path}`, {
        method,
        headers: {
          'x-user': encodeURIComponent(user),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  const generate = async (user: string, prompt = 'A landing page for a bakery') => {
    const response = await as(user, 'POST', '/agent/generate', { prompt });
    const text = await response.text();
    return { status: response.status, text };
  };
  return { handler, as, generate, logs, calls };
}

/** Every key under a prefix with its TTL in ms (-1: none). */
async function keysWithTtl(client: RedisClient, prefix: string) {
  const keys = (await client.sendCommand(['KEYS', `${prefix}*`])) as string[];
  const out: { key: string; ttl: number }[] = [];
  for (const key of keys)
    out.push({ key: key.slice(prefix.length), ttl: Number(await client.sendCommand(['PTTL', key])) });
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

const newPrefix = () => `audit-${randomUUID()}:`;

describe('bounded memory: what one end user can make Redis hold', () => {
  // Found by this audit: every generation of one user kept its own `events:{project}` stream (each up to 5,000 events
  // or 8 MiB) for the retention time, so 30 builds kept 30 logs. The Redis store now keeps at most
  // `maxEventLogsPerUser` (20, as the memory store) per user: the user's least recently begun go first.
  it('keeps at most 20 event logs for one end user who starts 30 builds (as the memory store)', async () => {
    const prefix = newPrefix();
    const store = redis.newStore({ keyPrefix: prefix });
    let n = 0;
    const { generate } = proxyOn(store, {
      nextProject: () => `p-many-${n++}`,
      body: () => [{ type: 'container_progress', message: 'x'.repeat(10_000), percentage: 10 }],
    });
    for (let index = 0; index < 30; index++) expect((await generate('mallory')).status).toBe(200);
    const client = await inspector();
    const keys = (await keysWithTtl(client, prefix)).map(({ key }) => key);
    const kept = (kind: string) =>
      keys
        .filter((key) => key.startsWith(`${kind}:`))
        .map((key) => Number(key.slice(`${kind}:p-many-`.length)))
        .sort((a, b) => a - b);
    const newest = Array.from({ length: 20 }, (_, index) => index + 10);
    expect(kept('events')).toEqual(newest);
    expect(kept('generation')).toEqual(newest);
  });

  it('gives every per-request, per-event and per-window key a TTL; only the documented forever keys have none', async () => {
    const prefix = newPrefix();
    const store = redis.newStore({ keyPrefix: prefix });
    let n = 0;
    const { generate, as } = proxyOn(
      store,
      { nextProject: () => `p-ttl-${n++}` },
      { quota: { generations: 100, per: 'day' } },
    );
    for (let index = 0; index < 3; index++) expect((await generate('mallory')).status).toBe(200);
    expect((await as('mallory', 'GET', '/agent/project/p-ttl-0')).status).toBe(200);
    expect(
      (await as('mallory', 'POST', '/agent/generate/p-ttl-1', { prompt: 'Make the header blue please' })).status,
    ).toBe(200);
    expect((await as('mallory', 'GET', '/usage')).status).toBe(200);
    const client = await inspector();
    // PTTL -1: no expiry (-2: expired between KEYS and PTTL).
    const forever = (await keysWithTtl(client, prefix))
      .filter(({ ttl }) => ttl === -1)
      .map(({ key }) => key.split(':')[0]);
    expect(new Set(forever)).toEqual(new Set(['owner', 'project', 'projects', 'turns']));
    // An ended build's log is kept eventRetentionMs (1 h), not runningRetentionMs (1 day).
    for (const { key, ttl } of await keysWithTtl(client, prefix))
      if (key.startsWith('events:') || key.startsWith('generation:')) expect(ttl, key).toBeLessThanOrEqual(3_600_000);
  });

  it('writes nothing to Redis for project ids a user invents (status, events, conversation, follow-up, deploy)', async () => {
    const prefix = newPrefix();
    const store = redis.newStore({ keyPrefix: prefix });
    const { as, calls } = proxyOn(store, { nextProject: () => 'unused' }, { quota: { generations: 5, per: 'day' } });
    const client = await inspector();
    const statuses = new Set<number>();
    for (let index = 0; index < 40; index++) {
      const id = `invented-${index}-${'z'.repeat(100)}`;
      for (const [method, path, body] of [
        ['GET', `/agent/project/${id}`],
        ['GET', `/projects/${id}/events`],
        ['GET', `/projects/${id}/conversation`],
        ['POST', `/agent/generate/${id}`, { prompt: 'Make the header blue please' }],
        ['POST', `/deployments/vercel/project/${id}/deploy`, {}],
      ] as [string, string, object?][]) {
        const response = await as('mallory', method, path, body);
        await response.arrayBuffer();
        statuses.add(response.status);
      }
    }
    expect([...statuses]).toEqual([404]);
    expect(calls).toEqual([]);
    const left = (await keysWithTtl(client, prefix)).filter(({ key }) => !key.startsWith('budget:'));
    expect(left).toEqual([]);
  });
});

describe('bounded memory: huge events', () => {
  it('keeps one generation within maxEventBytesPerGeneration however much the build sends', async () => {
    const prefix = newPrefix();
    const store = redis.newStore({ keyPrefix: prefix, maxEventBytesPerGeneration: 200_000 });
    const { generate } = proxyOn(store, {
      nextProject: () => 'p-huge',
      body: () =>
        Array.from({ length: 60 }, (_, index) => ({
          type: 'container_progress',
          message: `${index}`.padEnd(50_000, 'x'),
          percentage: 1,
        })),
    });
    expect((await generate('mallory')).status).toBe(200);
    const client = await inspector();
    const bytes = Number(await client.sendCommand(['HGET', `${prefix}generation:p-huge`, 'bytes']));
    expect(bytes).toBeLessThanOrEqual(200_000);
    expect(Number(await client.sendCommand(['MEMORY', 'USAGE', `${prefix}events:p-huge`]))).toBeLessThan(400_000);
  });
});

describe('key injection through user ids and key prefixes', () => {
  it('keeps quotas and project lists apart for user ids made of separators and glob characters', async () => {
    const prefix = newPrefix();
    const store = redis.newStore({ keyPrefix: prefix });
    let n = 0;
    const { generate, as } = proxyOn(
      store,
      { nextProject: () => `p-inj-${n++}` },
      { quota: { generations: 1, per: 'day' } },
    );
    const users = [
      'eve',
      'eve:day',
      `eve:day:${Date.UTC(2026, 0, 1)}`,
      'eve*',
      'e?e',
      '[eve]',
      '{eve}',
      'eve\nday',
      'eve day',
      'ëve🙂',
      'x'.repeat(4096),
    ];
    for (const user of users) expect((await generate(user)).status, user).toBe(200);
    for (const user of users) {
      expect((await generate(user)).status, user).toBe(429);
      const list = (await (await as(user, 'GET', '/projects')).json()) as { projects: { project_id: string }[] };
      expect(list.projects, user).toHaveLength(1);
      const usage = (await (await as(user, 'GET', '/usage')).json()) as { used: number };
      expect(usage.used, user).toBe(1);
    }
  });

  it('two agencies (two key prefixes) on one Redis do not see each other owners or quotas', async () => {
    const a = proxyOn(
      redis.newStore({ keyPrefix: 'agency:' }),
      { nextProject: () => 'p-shared' },
      { quota: { generations: 1, per: 'day' } },
    );
    // A prefix that extends the other's: 'agency:' + 'owner:p-shared' must not be read by 'agency:owner:'.
    const b = proxyOn(
      redis.newStore({ keyPrefix: 'agency:owner:' }),
      { nextProject: () => 'p-other' },
      { quota: { generations: 1, per: 'day' } },
    );
    expect((await a.generate('alice')).status).toBe(200);
    expect((await b.as('alice', 'GET', '/agent/project/p-shared')).status).toBe(404);
    expect((await b.generate('alice')).status).toBe(200);
    expect((await a.generate('alice')).status).toBe(429);
    expect((await a.as('alice', 'GET', '/agent/project/p-other')).status).toBe(404);
  });
});

describe('ownership across two instances on one Redis', () => {
  it('one owner when alice and bob race for the same project id on two instances; the other reaches nothing', async () => {
    const prefix = newPrefix();
    for (let round = 0; round < 10; round++) {
      const projectId = `p-race-${round}`;
      const one = proxyOn(redis.newStore({ keyPrefix: prefix }), { nextProject: () => projectId });
      const two = proxyOn(redis.newStore({ keyPrefix: prefix }), { nextProject: () => projectId });
      await Promise.all([one.generate('alice'), two.generate('bob')]);
      const client = await inspector();
      const owner = String(await client.sendCommand(['GET', `${prefix}owner:${projectId}`]));
      expect(['alice', 'bob']).toContain(owner);
      const loser = owner === 'alice' ? 'bob' : 'alice';
      for (const instance of [one, two]) {
        expect((await instance.as(loser, 'GET', `/agent/project/${projectId}`)).status).toBe(404);
        expect((await instance.as(loser, 'GET', `/projects/${projectId}/conversation`)).status).toBe(404);
        const events = await instance.as(loser, 'GET', `/projects/${projectId}/events`);
        await events.arrayBuffer();
        expect(events.status).toBe(404);
        expect(
          (await instance.as(loser, 'POST', `/agent/generate/${projectId}`, { prompt: 'Make the header blue please' }))
            .status,
        ).toBe(404);
        expect((await instance.as(loser, 'POST', `/deployments/vercel/project/${projectId}/deploy`, {})).status).toBe(
          404,
        );
        const list = (await (await instance.as(loser, 'GET', '/projects')).json()) as {
          projects: { project_id: string }[];
        };
        expect(list.projects.map((p) => p.project_id)).not.toContain(projectId);
        const conversation = (await (
          await instance.as(owner, 'GET', `/projects/${projectId}/conversation`)
        ).json()) as {
          turns: unknown[];
        };
        expect(conversation.turns).toHaveLength(1);
      }
    }
  });
});

describe('hostile prompts through the Lua scripts', () => {
  // Found by this audit: JSON.stringify writes a lone surrogate as "\ud800" and Redis's cjson.decode refuses that
  // escape inside endGenerationScript, so the end was never recorded (outcome null, the generation "running" for a
  // day). What the scripts decode is now written with lone surrogates as U+FFFD.
  it('records the end of a generation whose prompt holds a lone surrogate', async () => {
    const prefix = newPrefix();
    const store = redis.newStore({ keyPrefix: prefix });
    const { generate, as } = proxyOn(store, { nextProject: () => 'p-surrogate' });
    expect((await generate('mallory', 'A landing page \ud800 for a bakery')).status).toBe(200);
    const conversation = (await (await as('mallory', 'GET', '/projects/p-surrogate/conversation')).json()) as {
      turns: { outcome: { status: string } | null }[];
    };
    expect(conversation.turns[0]?.outcome?.status).toBe('completed');
    const client = await inspector();
    expect(await client.sendCommand(['HGET', `${prefix}generation:p-surrogate`, 'ended'])).toBe('1');
  });

  // Found by this audit (the same cause): a follower of that ended build replayed the stream_end, then held its stream
  // open (one of maxStreamsPerUser) until followIdleMs instead of ending.
  it('ends the events route of an ended build whose prompt held a lone surrogate', async () => {
    const store = redis.newStore({ keyPrefix: newPrefix() });
    const { generate, as } = proxyOn(store, { nextProject: () => 'p-surrogate-follow' });
    expect((await generate('mallory', 'A landing page \udfff for a bakery')).status).toBe(200);
    const response = await as('mallory', 'GET', '/projects/p-surrogate-follow/events');
    expect(response.status).toBe(200);
    const sentinel = new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 3_000));
    const outcome = await Promise.race([response.text().then(() => 'ended' as const), sentinel]);
    await response.body?.cancel().catch(() => undefined);
    expect(outcome).toBe('ended');
  });

  it('keeps prompts with JSON and Lua oddities intact through cjson (slashes, NUL, unicode, numbers-like text)', async () => {
    const prefix = newPrefix();
    const store = redis.newStore({ keyPrefix: prefix });
    const { generate, as } = proxyOn(store, { nextProject: () => 'p-odd' });
    const prompt = 'Build </script> \u0000 \u2028 ëü🙂 [] {} 12345678901234567890 "quoted" \\ back';
    expect((await generate('mallory', prompt)).status).toBe(200);
    const conversation = (await (await as('mallory', 'GET', '/projects/p-odd/conversation')).json()) as {
      turns: { prompt: string; outcome: { status: string } | null }[];
    };
    expect(conversation.turns[0]?.prompt).toBe(prompt);
    expect(conversation.turns[0]?.outcome?.status).toBe('completed');
  });
});

describe('quota on Redis at clock edges', () => {
  // Found by this audit: a counter expired at the instance's window end, which for an instance whose clock runs behind
  // Redis's was already past, so Redis deleted it at once and every generate passed (limit 1, 3 sent, 3 went
  // upstream); the same at any period's end. A count now outlives its period's end by `maxClockSkewMs` (1 hour).
  it('counts generations of an instance whose clock runs behind Redis', async () => {
    const store = redis.newStore({ keyPrefix: newPrefix() });
    let n = 0;
    const { generate, calls } = proxyOn(
      store,
      { nextProject: () => `p-skew-${n++}` },
      { quota: { generations: 1, per: 10 }, now: () => Date.now() - 15_000 },
    );
    const statuses = [];
    for (let index = 0; index < 3; index++) statuses.push((await generate('mallory')).status);
    expect(statuses).toEqual([200, 429, 429]);
    expect(calls.filter((call) => call.endsWith('/agent/generate'))).toHaveLength(1);
  });

  it('never passes the limit and counts exactly the started ones when 40 racing generates are half refused upstream', async () => {
    const prefix = newPrefix();
    let n = 0;
    const instances = [0, 1].map(() => {
      const store = redis.newStore({ keyPrefix: prefix });
      const proxy = proxyOn(
        store,
        { nextProject: () => `p-edge-${n++}` },
        {
          quota: { generations: 5, per: 'day' },
          fetch: async () => {
            calls.push('upstream');
            // Every other upstream call refuses (given back), the rest start a build.
            return calls.length % 2 === 0
              ? json({ status: false, message: 'Server Error' }, 500)
              : sse([{ type: 'project_created', project_id: `p-edge-${n++}`, app_url: null }, { type: 'stream_end' }]);
          },
        },
      );
      return proxy;
    });
    const calls: string[] = [];
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, index) => (instances[index % 2] as (typeof instances)[0]).generate('mallory')),
    );
    const started = statuses.filter(({ status }) => status === 200).length;
    expect(started).toBeLessThanOrEqual(5);
    const usage = (await (await (instances[0] as (typeof instances)[0]).as('mallory', 'GET', '/usage')).json()) as {
      used: number;
    };
    expect(usage.used).toBe(started);
  });
});

describe('garbage and wrong types in Redis', () => {
  const setup = async () => {
    const prefix = newPrefix();
    const store = redis.newStore({ keyPrefix: prefix });
    const proxy = proxyOn(store, { nextProject: () => 'p-g' }, { quota: { generations: 3, per: 'day' } });
    expect((await proxy.generate('alice')).status).toBe(200);
    const client = await inspector();
    return { prefix, client, ...proxy };
  };
  const noTokenIn = (text: string) => expect(text).not.toContain(token);

  // Found by this audit: a status cache entry that is not JSON (a broken or foreign writer) made the status route
  // answer 500 until it expired. It is now a miss: the status is asked again, and its answer replaces the entry.
  it('a non-JSON status cache entry is a miss, refreshed, not a 500', async () => {
    const { prefix, client, as } = await setup();
    await client.sendCommand(['SET', `${prefix}status:p-g`, '{not json', 'PX', '60000']);
    const response = await as('alice', 'GET', '/agent/project/p-g');
    const text = await response.text();
    noTokenIn(text);
    expect(response.status).toBe(200);
    expect(JSON.parse(text).project_id).toBe('p-g');
    expect(await client.sendCommand(['GET', `${prefix}status:p-g`])).not.toBe('{not json');
  });

  // Found by this audit: a turn that is not JSON in `turns:{project}` made the conversation route answer 500; what the
  // store did not write now makes it unavailable (503).
  it('a non-JSON turn answers the conversation with 503, not 500', async () => {
    const { prefix, client, as } = await setup();
    await client.sendCommand(['RPUSH', `${prefix}turns:p-g`, 'garbage{']);
    const response = await as('alice', 'GET', '/projects/p-g/conversation');
    noTokenIn(await response.text());
    expect(response.status).toBe(503);
  });

  it('wrong-type keys (WRONGTYPE) answer 503 and never give away the project', async () => {
    const { prefix, client, as, generate } = await setup();
    await client.sendCommand(['DEL', `${prefix}owner:p-g`]);
    await client.sendCommand(['HSET', `${prefix}owner:p-g`, 'x', 'y']);
    for (const user of ['alice', 'bob']) {
      const response = await as(user, 'GET', '/agent/project/p-g');
      noTokenIn(await response.text());
      expect(response.status).toBe(503);
    }
    await client.sendCommand(['DEL', `${prefix}owner:p-g`]);
    await client.sendCommand(['SET', `${prefix}owner:p-g`, 'alice']);
    await client.sendCommand(['DEL', `${prefix}turns:p-g`]);
    await client.sendCommand(['SET', `${prefix}turns:p-g`, 'a string']);
    const conversation = await as('alice', 'GET', '/projects/p-g/conversation');
    expect(conversation.status).toBe(503);
    // A follow-up whose begin script meets a wrong type: refused or relayed, never 500.
    const followUp = await as('alice', 'POST', '/agent/generate/p-g', { prompt: 'Make the header blue please' });
    noTokenIn(await followUp.text());
    expect(followUp.status).not.toBe(500);
    expect((await generate('bob')).status).not.toBe(500);
  });

  it('a garbage team pause (budget:pause) fails closed with 503 for every user, nothing upstream, no 500', async () => {
    const prefix = newPrefix();
    const proxy = proxyOn(
      redis.newStore({ keyPrefix: prefix }),
      { nextProject: () => 'p-pause' },
      {
        rateLimit: { limit: 10, windowMs: 60_000 },
      },
    );
    const client = await inspector();
    await client.sendCommand(['SET', `${prefix}budget:pause`, 'not-a-time']);
    for (const user of ['alice', 'bob']) {
      const response = await proxy.as(user, 'POST', '/agent/generate', { prompt: 'A landing page for a bakery' });
      noTokenIn(await response.text());
      expect(response.status).toBe(503);
    }
    expect(proxy.calls).toEqual([]);
  });

  it('Redis flushed mid-build (owners lost): neither the builder nor another user reaches the project, no 500', async () => {
    const prefix = newPrefix();
    const { createScriptedStream } = await import('../server/scripted-upstream.js');
    const upstream = createScriptedStream();
    const proxy = proxyOn(
      redis.newStore({ keyPrefix: prefix }),
      { nextProject: () => 'p-flush' },
      {
        fetch: async () => upstream.response(),
      },
    );
    const stream = await proxy.as('alice', 'POST', '/agent/generate', { prompt: 'A landing page for a bakery' });
    upstream.event({ type: 'project_created', project_id: 'p-flush', app_url: 'https://p-flush.example' });
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const client = await inspector();
    const keys = (await client.sendCommand(['KEYS', `${prefix}*`])) as string[];
    if (keys.length > 0) await client.sendCommand(['DEL', ...keys]);
    upstream.event({ type: 'container_progress', message: 'after the flush', percentage: 5 });
    upstream.event({ type: 'stream_end', project_id: 'p-flush', app_url: 'https://p-flush.example' });
    upstream.close();
    while (!(await reader.read()).done);
    for (const user of ['alice', 'bob']) {
      expect((await proxy.as(user, 'GET', '/agent/project/p-flush')).status).toBe(404);
      expect((await proxy.as(user, 'GET', '/projects/p-flush/conversation')).status).toBe(404);
    }
    expect(proxy.logs.filter((entry) => entry.status === 500)).toEqual([]);
  });

  it('a generation hash with a non-number generation keeps the events route bounded (no hang, no 500)', async () => {
    const { prefix, client, as } = await setup();
    await client.sendCommand(['HSET', `${prefix}generation:p-g`, 'generation', 'abc', 'ended', '1']);
    const sentinel = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 4_000));
    const answer = (async () => {
      const response = await as('alice', 'GET', '/projects/p-g/events');
      return { status: response.status, text: await response.text() };
    })();
    const outcome = await Promise.race([answer, sentinel]);
    expect(outcome).not.toBe('hung');
    if (outcome !== 'hung') {
      noTokenIn(outcome.text);
      expect(outcome.status).not.toBe(500);
    }
  });

  // Found by this audit: a quota counter that is not a number gave /usage a 200 with `used: null`, so a dashboard read
  // no usage; it is now a 503, as the generate route already failed closed.
  it('a quota counter that is not a number fails closed (no generation goes upstream) and usage is not NaN', async () => {
    const { prefix, client, as, calls } = await setup();
    const counters = (await client.sendCommand(['KEYS', `${prefix}quota:*`])) as string[];
    expect(counters).toHaveLength(1);
    await client.sendCommand(['SET', counters[0] as string, 'lots', 'KEEPTTL']);
    const before = calls.length;
    const response = await as('alice', 'POST', '/agent/generate', { prompt: 'A landing page for a bakery' });
    noTokenIn(await response.text());
    expect([429, 503]).toContain(response.status);
    expect(calls.length).toBe(before);
    const usage = await as('alice', 'GET', '/usage');
    const body = await usage.text();
    expect(usage.status === 503 || typeof (JSON.parse(body) as { used: unknown }).used === 'number').toBe(true);
  });
});

describe('Redis stopped mid-request', () => {
  let own: TestRedis | undefined;
  afterAll(async () => {
    await own?.close();
  });

  it('answers 503 without a crash, a token or a leak while Redis is down, and serves again after it is back', async () => {
    own = await startTestRedis();
    const server = own;
    const errors: unknown[] = [];
    const store = redis.newStore({
      url: server.url,
      keyPrefix: newPrefix(),
      onError: (error) => void errors.push(error),
      commandTimeoutMs: 1000,
    });
    await store.ready();
    let n = 0;
    const { as, generate, calls, logs } = proxyOn(
      store,
      { nextProject: () => `p-down-${n++}` },
      { quota: { generations: 10, per: 'day' } },
    );
    expect((await generate('alice')).status).toBe(200);
    // Kill Redis while a stream is being relayed: start a generate, kill, then read.
    const pending = as('alice', 'POST', '/agent/generate', { prompt: 'A landing page for a bakery' });
    await server.stop();
    const mid = await pending;
    noLeak(await mid.text());
    expect([200, 503]).toContain(mid.status);
    const upstreamBefore = calls.length;
    for (const [user, method, path, body] of [
      ['alice', 'GET', '/agent/project/p-down-0'],
      ['bob', 'GET', '/agent/project/p-down-0'],
      ['bob', 'GET', '/projects/p-down-0/events'],
      ['bob', 'GET', '/projects/p-down-0/conversation'],
      ['bob', 'POST', '/agent/generate/p-down-0', { prompt: 'Make the header blue please' }],
      ['alice', 'POST', '/agent/generate', { prompt: 'A landing page for a bakery' }],
      ['alice', 'GET', '/usage'],
      ['alice', 'GET', '/projects'],
    ] as [string, string, string, object?][]) {
      const response = await as(user, method, path, body);
      noLeak(await response.text());
      expect(response.status, `${user} ${method} ${path}`).toBe(503);
    }
    expect(calls.length).toBe(upstreamBefore);
    // Stalled (socket open, nothing answers): bounded by commandTimeoutMs, still 503.
    await server.start();
    for (let tries = 0; tries < 100 && (await as('alice', 'GET', '/usage')).status !== 200; tries++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    server.pause();
    const stalled = await as('bob', 'GET', '/agent/project/p-down-0');
    server.resume();
    expect(stalled.status).toBe(503);
    // Data was lost with the restart (no persistence): alice's old project is now nobody's, bob cannot reach it.
    expect((await as('bob', 'GET', '/agent/project/p-down-0')).status).toBe(404);
    expect((await generate('alice')).status).toBe(200);
    // A relay lease the store cannot write is logged as documented ("the relay itself goes on"); nothing else.
    expect(
      logs.filter((entry) => entry.event === 'internal_error' && !String(entry.reason).startsWith('relay lease')),
    ).toEqual([]);
    expect(unhandled).toEqual([]);
  });
});

describe('followers and pub/sub', () => {
  it('leaves no subscription behind after 100 followers of a running build open and leave', async () => {
    const prefix = newPrefix();
    const { createScriptedStream } = await import('../server/scripted-upstream.js');
    const upstream = createScriptedStream();
    const proxy = proxyOn(
      redis.newStore({ keyPrefix: prefix }),
      { nextProject: () => 'p-subs' },
      {
        fetch: async () => upstream.response(),
      },
    );
    const stream = await proxy.as('alice', 'POST', '/agent/generate', { prompt: 'A landing page for a bakery' });
    upstream.event({ type: 'project_created', project_id: 'p-subs', app_url: 'https://p-subs.example' });
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const client = await inspector();
    const channel = `${prefix}events:p-subs`;
    const subscribers = async () => Number(((await client.sendCommand(['PUBSUB', 'NUMSUB', channel])) as unknown[])[1]);
    let opened = 0;
    for (let index = 0; index < 100; index++) {
      const follower = await proxy.as('alice', 'GET', '/projects/p-subs/events');
      if (follower.status === 200) opened++;
      const followerReader = (follower.body as ReadableStream<Uint8Array>).getReader();
      await followerReader.read();
      if (index === 0) {
        let during = await subscribers();
        for (let tries = 0; tries < 40 && during === 0; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          during = await subscribers();
        }
        expect(during).toBeGreaterThanOrEqual(1);
      }
      await followerReader.cancel();
    }
    expect(opened).toBe(100);
    let left = await subscribers();
    for (let tries = 0; tries < 40 && left > 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = await subscribers();
    }
    expect(left).toBe(0);
    upstream.event({ type: 'stream_end', project_id: 'p-subs', app_url: 'https://p-subs.example' });
    upstream.close();
    await reader.cancel().catch(() => undefined);
  });
});

describe('Redis killed under a follower', () => {
  let own: TestRedis | undefined;
  afterAll(async () => {
    await own?.close();
  });

  it('ends a follower on the events route within a bounded time when Redis dies mid-build', async () => {
    own = await startTestRedis();
    const server = own;
    const prefix = newPrefix();
    const { createScriptedStream } = await import('../server/scripted-upstream.js');
    const upstream = createScriptedStream();
    const relaying = proxyOn(
      redis.newStore({ url: server.url, keyPrefix: prefix, onError: () => undefined, commandTimeoutMs: 1000 }),
      { nextProject: () => 'p-live' },
      {
        fetch: async () => upstream.response(),
      },
    );
    const following = proxyOn(
      redis.newStore({ url: server.url, keyPrefix: prefix, onError: () => undefined, commandTimeoutMs: 1000 }),
      { nextProject: () => 'unused' },
    );
    const stream = await relaying.as('alice', 'POST', '/agent/generate', { prompt: 'A landing page for a bakery' });
    upstream.event({ type: 'project_created', project_id: 'p-live', app_url: 'https://p-live.example' });
    upstream.event({ type: 'container_progress', message: 'one', percentage: 1 });
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    // Wait until the owner is recorded, then follow through the other instance.
    let follower: Response | undefined;
    for (let tries = 0; tries < 50; tries++) {
      follower = await following.as('alice', 'GET', '/projects/p-live/events');
      if (follower.status === 200) break;
      await follower.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(follower?.status).toBe(200);
    const followed = (follower as Response).text();
    await server.stop();
    upstream.event({ type: 'container_progress', message: 'two', percentage: 2 });
    const sentinel = new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 9_000));
    const outcome = await Promise.race([followed.then((text) => (text.includes(token) ? 'leak' : 'ended')), sentinel]);
    upstream.close();
    await reader.cancel().catch(() => undefined);
    expect(outcome).toBe('ended');
    expect(unhandled).toEqual([]);
  }, 20_000);
});

function noLeak(text: string) {
  expect(text).not.toContain(token);
}
