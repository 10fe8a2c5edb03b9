/**
 * Audit of per-end-user quotas and usage with the memory store: upstream refusals of every kind, the proxy's own
 * refusals, exact period boundaries (day, ISO week, month, seconds) with an injected clock, give-backs across a
 * boundary, per-user plans that change mid-period, limits of 0 and huge ones, the 429 body against /usage, and the
 * memory store's bound. "Found by this audit" marks what failed before its fix.
 */
import { describe, expect, it } from 'vitest';
import {
  createMemoryProxyStore,
  type AgentProxyOptions,
  type AgentProxyUser,
  type QuotaLimit,
} from 'agent-embed/server';
import {
  createManualTimers,
  createScriptedProxy,
  createScriptedStream,
  json,
  type UpstreamCall,
  sse,
} from './scripted-upstream.js';

const appOrigin = 'https://app.example.test';
const basePath = '/api/agent';
const users: Record<string, AgentProxyUser> = {
  alice: { externalUserId: 'alice' },
  bob: { externalUserId: 'bob' },
  carol: { externalUserId: 'carol' },
  dave: { externalUserId: 'dave' },
};
const authorize = (request: Request) => users[request.headers.get('x-user') ?? 'alice'] ?? null;

const accept = (call: UpstreamCall) => {
  const id = /\/agent\/generate\/([^/]+)/.exec(call.url.pathname)?.[1] ?? 'p-new';
  return sse({ type: 'stream_end', project_id: id, app_url: 'https://built.example/' });
};

function setup(respond: (call: UpstreamCall) => Response | Promise<Response>, options: Partial<AgentProxyOptions>) {
  return createScriptedProxy(respond, {
    basePath,
    authorize,
    appUrl: appOrigin,
    heartbeatMs: 0,
    store: createMemoryProxyStore({ owners: { 'p-alice': 'alice', 'p-bob': 'bob' } }),
    ...options,
  });
}
type Proxy = ReturnType<typeof setup>['proxy'];

const post = (path: string, body: unknown, user = 'alice', headers: Record<string, string> = {}) =>
  new Request(`${appOrigin}${basePath}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const generate = (user = 'alice') => post('/agent/generate', { prompt: 'A landing page for a bakery' }, user);
const followUp = (project = 'p-alice', user = 'alice') =>
  post(`/agent/generate/${project}`, { prompt: 'Make the header blue' }, user);
const usage = async (proxy: Proxy, user = 'alice') =>
  (await proxy(new Request(`${appOrigin}${basePath}/usage`, { headers: { 'x-user': user } }))).json() as Promise<
    Record<string, unknown>
  >;
/** Sends a request and reads its whole answer: its status. */
const statusOf = async (proxy: Proxy, request: Request) => {
  const response = await proxy(request);
  await response.text();
  return response.status;
};

describe('upstream refusals: given back only when nothing can have started', () => {
  it.each<[string, () => Response | never]>([
    ['400 insufficient credits', () => json({ status: false, message: 'Insufficient credits.' }, 400)],
    ['401', () => json({ message: 'Unauthenticated.' }, 401)],
    ['403', () => json({ message: 'Forbidden.' }, 403)],
    ['429 with Retry-After', () => json({ message: 'Too Many Attempts.' }, 429, { 'retry-after': '1' })],
    ['503', () => json({ message: 'down' }, 503)],
    ['a redirect', () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.test/' } })],
    ['a 200 in HTML', () => new Response('<html></html>', { headers: { 'content-type': 'text/html' } })],
    ['a 204', () => new Response(null, { status: 204 })],
  ])('gives a generate and a follow-up back on %s', async (_, refuse) => {
    let refusing = true;
    const { proxy, upstream } = setup((call) => (refusing ? refuse() : accept(call)), {
      quota: { generations: 1, per: 'day' },
      rateLimit: false,
    });
    expect(await statusOf(proxy, generate())).not.toBe(200);
    expect(await statusOf(proxy, followUp())).not.toBe(200);
    expect(await usage(proxy)).toMatchObject({ used: 0, limit: 1 });
    refusing = false;
    expect(await statusOf(proxy, followUp())).toBe(200);
    expect(await statusOf(proxy, generate())).toBe(429);
    expect(await usage(proxy)).toMatchObject({ used: 1 });
    expect(upstream.calls).toHaveLength(3);
  });

  it('keeps counted a follow-up whose headers never came (504), and a stream that opened then dropped at once', async () => {
    const timers = createManualTimers();
    let mode: 'hang' | 'drop' = 'hang';
    const { proxy } = setup(accept, {
      quota: { generations: 3, per: 'day' },
      timers,
      fetch: async (_input, init) => {
        if (mode === 'drop') {
          const stream = createScriptedStream();
          stream.fail(new Error('connection reset'));
          return stream.response();
        }
        return new Promise<Response>((_, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      },
    });
    const pending = proxy(followUp());
    for (let tries = 0; tries < 50 && timers.pending() === 0; tries++) await new Promise((r) => setImmediate(r));
    timers.fireAll();
    expect((await pending).status).toBe(504);
    expect(await usage(proxy)).toMatchObject({ used: 1 });
    mode = 'drop';
    const dropped = await proxy(generate());
    expect(dropped.status).toBe(200);
    await dropped.text().catch(() => '');
    // The upstream said yes (a 200 stream): it may have started, so it stays counted, as docs/proxy.md says.
    expect(await usage(proxy)).toMatchObject({ used: 2 });
  });
});

describe("the proxy's own refusals leave the quota untouched", () => {
  it('bad mode, bad prompt, odd bodies, unknown and foreign projects, the streams bound: none counts, at the edge', async () => {
    let hold: ReturnType<typeof createScriptedStream> | undefined;
    const { proxy, upstream } = setup(
      (call) => {
        if (hold === undefined) return accept(call);
        return hold.response();
      },
      { quota: { generations: 2, per: 'week' }, maxStreamsPerUser: 1, rateLimit: false },
    );
    const refusals = [
      post('/agent/generate', { prompt: 'A landing page for a bakery', mode: 'deploy' }),
      post('/agent/generate', { prompt: 'short' }),
      post('/agent/generate', { prompt: 42 }),
      post('/agent/generate', 'not json'),
      post('/agent/generate', { prompt: 'A landing page for a bakery' }, 'alice', { 'content-type': 'text/plain' }),
      followUp('p-bob'),
      followUp('p-nobody'),
      post('/agent/generate/p-alice', { prompt: '   tiny   ' }),
      post('/agent/generate', { prompt: 'A landing page for a bakery' }, 'nobody'),
    ];
    for (const request of refusals) expect(await statusOf(proxy, request)).toBeGreaterThanOrEqual(400);
    expect(await usage(proxy)).toMatchObject({ used: 0, limit: 2, period: 'week' });
    expect(upstream.calls).toHaveLength(0);
    // One open stream fills maxStreamsPerUser: the next is refused before the quota.
    hold = createScriptedStream();
    const open = await proxy(generate());
    expect(open.status).toBe(200);
    const overStreams = await proxy(followUp());
    expect(overStreams.status).toBe(429);
    expect(((await overStreams.json()) as { code?: string }).code).not.toBe('quota_exceeded');
    expect(await usage(proxy)).toMatchObject({ used: 1 });
    hold.event({ type: 'stream_end', project_id: 'p-new', app_url: null });
    hold.close();
    await open.text();
    hold = undefined;
    expect(await statusOf(proxy, followUp())).toBe(200);
    expect(await statusOf(proxy, generate())).toBe(429);
    expect(await usage(proxy)).toMatchObject({ used: 2 });
  });

  it('reading status, events and usage at a limit of 0 takes nothing and is never refused for the quota', async () => {
    const { proxy } = setup(
      () => json({ status: true, project_id: 'p-alice', app_url: null, project_status: 'ready', name: 'App' }, 200),
      { quota: { generations: 0, per: 'day' }, statusCacheMs: 0 },
    );
    const get = (path: string) => new Request(`${appOrigin}${basePath}${path}`, { headers: { 'x-user': 'alice' } });
    for (const path of ['/agent/project/p-alice', '/projects/p-alice/events', '/projects', '/usage']) {
      const response = await proxy(get(path));
      expect(response.status, path).not.toBe(429);
      await response.text();
    }
    expect(await usage(proxy)).toMatchObject({ used: 0, limit: 0 });
  });
});

describe('period boundaries (UTC) with an injected clock', () => {
  const cases: [string, QuotaLimit, string, string, string][] = [
    // [name, quota, last instant of a period, its resets_at, the next period's resets_at]
    [
      'day',
      { generations: 1, per: 'day' },
      '2026-12-31T23:59:59.999Z',
      '2027-01-01T00:00:00.000Z',
      '2027-01-02T00:00:00.000Z',
    ],
    // 2026-11-29 is a Sunday: the ISO week ends at Monday 00:00.
    [
      'week',
      { generations: 1, per: 'week' },
      '2026-11-29T23:59:59.999Z',
      '2026-11-30T00:00:00.000Z',
      '2026-12-07T00:00:00.000Z',
    ],
    [
      'week over a year',
      { generations: 1, per: 'week' },
      '2027-01-03T23:59:59.999Z',
      '2027-01-04T00:00:00.000Z',
      '2027-01-11T00:00:00.000Z',
    ],
    [
      'month Jan 31',
      { generations: 1, per: 'month' },
      '2027-01-31T23:59:59.999Z',
      '2027-02-01T00:00:00.000Z',
      '2027-03-01T00:00:00.000Z',
    ],
    [
      'month Feb (leap)',
      { generations: 1, per: 'month' },
      '2028-02-29T23:59:59.999Z',
      '2028-03-01T00:00:00.000Z',
      '2028-04-01T00:00:00.000Z',
    ],
    [
      '90 seconds',
      { generations: 1, per: 90 },
      '2026-11-25T12:01:29.999Z',
      '2026-11-25T12:01:30.000Z',
      '2026-11-25T12:03:00.000Z',
    ],
  ];
  it.each(cases)(
    '%s: counts at the last ms, resets exactly at resets_at, and 429 agrees with /usage',
    async (_, quota, last, resetsAt, nextResetsAt) => {
      let clock = Date.parse(last);
      const { proxy, upstream } = setup(accept, { quota, now: () => clock, rateLimit: false });
      const period = typeof quota.per === 'number' ? 'seconds' : quota.per;
      expect(await usage(proxy)).toEqual({ status: true, used: 0, limit: 1, resets_at: resetsAt, period });
      expect(await statusOf(proxy, generate())).toBe(200);
      const refused = await proxy(followUp());
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      const body = await refused.json();
      expect(body).toEqual({
        status: false,
        message: 'The build limit for this period has been reached.',
        code: 'quota_exceeded',
        used: 1,
        limit: 1,
        resets_at: resetsAt,
        period,
      });
      expect(await usage(proxy)).toEqual({ status: true, used: 1, limit: 1, resets_at: resetsAt, period });
      clock = Date.parse(resetsAt);
      expect(await usage(proxy)).toEqual({ status: true, used: 0, limit: 1, resets_at: nextResetsAt, period });
      expect(await statusOf(proxy, followUp())).toBe(200);
      const again = await proxy(generate());
      expect(again.status).toBe(429);
      expect(Number(again.headers.get('retry-after'))).toBe((Date.parse(nextResetsAt) - clock) / 1000);
      expect(upstream.calls).toHaveLength(2);
    },
  );

  it('gives a refused build back to the period it was counted in, even when the answer comes after midnight', async () => {
    let clock = Date.parse('2026-11-25T23:59:59.999Z');
    let refuse = true;
    const { proxy } = setup(
      async (call) => {
        clock = Date.parse('2026-11-26T00:00:00.500Z'); // the upstream answers in the next day
        return refuse ? json({ message: 'Server Error' }, 500) : accept(call);
      },
      { quota: { generations: 1, per: 'day' }, now: () => clock, rateLimit: false },
    );
    expect(await statusOf(proxy, generate())).toBe(500);
    expect(await usage(proxy)).toMatchObject({ used: 0, resets_at: '2026-11-27T00:00:00.000Z' });
    // An accepted build started at 23:59:59.999 is the old day's: the new day is whole.
    clock = Date.parse('2026-11-25T23:59:59.999Z');
    refuse = false;
    expect(await statusOf(proxy, generate())).toBe(200);
    expect(await usage(proxy)).toMatchObject({ used: 0, limit: 1 });
    expect(await statusOf(proxy, generate())).toBe(200);
    expect(await statusOf(proxy, generate())).toBe(429);
    clock = Date.parse('2026-11-25T23:59:59.999Z');
    expect(await usage(proxy)).toMatchObject({ used: 1, resets_at: '2026-11-26T00:00:00.000Z' });
  });
});

describe('limits: zero, huge, per user, changing plans', () => {
  it('a limit of 0 refuses every build with 429 before the upstream, and /usage says 0 of 0', async () => {
    const clock = Date.parse('2026-11-25T10:00:00.250Z');
    const { proxy, upstream } = setup(accept, { quota: { generations: 0, per: 'month' }, now: () => clock });
    for (const request of [generate(), followUp()]) {
      const refused = await proxy(request);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe(
        String(Math.ceil((Date.parse('2026-12-01T00:00:00Z') - clock) / 1000)),
      );
      expect(await refused.json()).toMatchObject({
        code: 'quota_exceeded',
        used: 0,
        limit: 0,
        resets_at: '2026-12-01T00:00:00.000Z',
      });
    }
    expect(await usage(proxy)).toEqual({
      status: true,
      used: 0,
      limit: 0,
      resets_at: '2026-12-01T00:00:00.000Z',
      period: 'month',
    });
    expect(upstream.calls).toHaveLength(0);
  });

  it('a huge number of generations is a limit like any other', async () => {
    const { proxy } = setup(accept, { quota: { generations: Number.MAX_SAFE_INTEGER, per: 'day' } });
    for (let index = 0; index < 3; index++) expect(await statusOf(proxy, generate())).toBe(200);
    expect(await usage(proxy)).toMatchObject({ used: 3, limit: Number.MAX_SAFE_INTEGER });
  });

  // Found by this audit: a "lifetime" quota as a huge number of seconds (accepted by the options check) put resets_at
  // past the largest Date: the second build got 500 instead of 429 quota_exceeded, and /usage answered 500.
  it('a huge seconds period (a lifetime quota) answers 429 and /usage, not 500', async () => {
    const { proxy, upstream } = setup(accept, { quota: { generations: 1, per: Number.MAX_SAFE_INTEGER } });
    expect(await statusOf(proxy, generate())).toBe(200);
    const refused = await proxy(generate());
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'quota_exceeded', used: 1, limit: 1, period: 'seconds' });
    const answer = await proxy(new Request(`${appOrigin}${basePath}/usage`, { headers: { 'x-user': 'alice' } }));
    expect(answer.status).toBe(200);
    expect(upstream.calls).toHaveLength(1);
  });

  it('refuses fractional and zero seconds periods once, as unusable options, with nothing upstream', async () => {
    for (const per of [0.5, 0, -60, 1.5]) {
      const { proxy, upstream } = setup(accept, { quota: { generations: 1, per } });
      expect(await statusOf(proxy, generate())).toBe(500);
      expect(upstream.calls).toHaveLength(0);
    }
  });

  it('follows a plan change mid-period: an upgrade adds what it adds, a downgrade refuses at once', async () => {
    let plan: QuotaLimit | undefined = { generations: 2, per: 'day' };
    const { proxy } = setup(accept, { quota: () => plan, rateLimit: false });
    expect(await statusOf(proxy, generate())).toBe(200);
    expect(await statusOf(proxy, generate())).toBe(200);
    expect(await statusOf(proxy, generate())).toBe(429);
    plan = { generations: 4, per: 'day' };
    expect(await usage(proxy)).toMatchObject({ used: 2, limit: 4 });
    expect(await statusOf(proxy, followUp())).toBe(200);
    plan = { generations: 1, per: 'day' };
    const refused = await proxy(generate());
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ used: 3, limit: 1 });
    expect(await usage(proxy)).toMatchObject({ used: 3, limit: 1 });
    plan = undefined; // unlimited for a while: nothing is counted
    expect(await statusOf(proxy, generate())).toBe(200);
    plan = { generations: 4, per: 'day' };
    expect(await usage(proxy)).toMatchObject({ used: 3, limit: 4 });
  });

  // A plan that changes its period kind counts afresh in the new kind's period (counts are kept per user and period,
  // not per build: docs/proxy.md says so); within one kind, the plan's new limit applies to the count at once.
  it('a switch of period kind counts afresh in the new period, as documented', async () => {
    const clock = Date.parse('2026-11-25T12:00:00Z');
    let plan: QuotaLimit = { generations: 3, per: 'week' };
    const { proxy } = setup(accept, { quota: () => plan, now: () => clock, rateLimit: false });
    for (let index = 0; index < 3; index++) expect(await statusOf(proxy, generate())).toBe(200);
    plan = { generations: 3, per: 'month' };
    expect(await usage(proxy)).toMatchObject({ used: 0, limit: 3, period: 'month' });
  });

  // Found by this audit: docs/proxy.md's example keyed the quota on `user.plan`, then called proxy.usage('user-42'): with
  // an id, the function sees only { externalUserId }, so a pro (unlimited) user was reported as limited to 20 a day.
  // The example now passes the session's user; an id is for a quota that depends on the id alone.
  it("proxy.usage(user) reports what the user's /usage reports, with a plan-keyed quota", async () => {
    const pro = { externalUserId: 'user-42', plan: 'pro' } as AgentProxyUser;
    const { proxy } = createScriptedProxy(accept, {
      basePath,
      appUrl: appOrigin,
      authorize: () => pro,
      quota: (user) => ((user as { plan?: string }).plan === 'pro' ? undefined : { generations: 20, per: 'day' }),
    });
    const fromBrowser = await (await proxy(new Request(`${appOrigin}${basePath}/usage`))).json();
    expect(fromBrowser).toMatchObject({ limit: null });
    expect(await proxy.usage(pro)).toMatchObject({ limit: null });
  });
});

describe('concurrency and the memory store', () => {
  it('N concurrent builds (generates and follow-ups) at a quota of N-1: exactly N-1 start, one 429, usage N-1', async () => {
    for (const n of [2, 3, 8]) {
      const { proxy, upstream } = setup(
        async (call) => {
          await new Promise((resolve) => setImmediate(resolve));
          return accept(call);
        },
        { quota: { generations: n - 1, per: 3600 }, rateLimit: false },
      );
      const statuses = await Promise.all(
        Array.from({ length: n }, (_, index) => statusOf(proxy, index % 2 === 0 ? generate() : followUp())),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(n - 1);
      expect(statuses.filter((status) => status === 429)).toHaveLength(1);
      expect(upstream.calls).toHaveLength(n - 1);
      expect(await usage(proxy)).toMatchObject({ used: n - 1, limit: n - 1 });
    }
  });

  it('a concurrent refusal gives its place back to a later request, never to more than the limit', async () => {
    let calls = 0;
    const { proxy } = setup(
      async (call) => {
        const index = ++calls;
        await new Promise((resolve) => setImmediate(resolve));
        return index === 1 ? json({ message: 'Server Error' }, 500) : accept(call);
      },
      { quota: { generations: 2, per: 'day' }, rateLimit: false },
    );
    const first = await Promise.all([
      statusOf(proxy, generate()),
      statusOf(proxy, followUp()),
      statusOf(proxy, generate()),
    ]);
    expect(first.sort()).toEqual([200, 429, 500]);
    expect(await usage(proxy)).toMatchObject({ used: 1 });
    expect(await statusOf(proxy, generate())).toBe(200);
    expect(await statusOf(proxy, generate())).toBe(429);
  });

  // Found by this audit: the memory store kept quota counts in an LRU of maxProjects entries and ignored the period's
  // end (takeQuota's expiresAt): other users' builds pushed out a user's live count, and the user got a fresh quota.
  it("never forgets a user's count in the current period because other users built", async () => {
    const clock = Date.parse('2026-11-25T12:00:00Z');
    const { proxy } = setup(accept, {
      quota: { generations: 1, per: 'day' },
      now: () => clock,
      rateLimit: false,
      store: createMemoryProxyStore({ maxProjects: 2, owners: { 'p-alice': 'alice' } }),
    });
    expect(await statusOf(proxy, generate('alice'))).toBe(200);
    for (const user of ['bob', 'carol', 'dave']) expect(await statusOf(proxy, generate(user))).toBe(200);
    expect(await usage(proxy, 'alice')).toMatchObject({ used: 1 });
    expect(await statusOf(proxy, generate('alice'))).toBe(429);
  });

  it('past maxQuotaCounts, counts of ended periods go first, never a live one', async () => {
    let clock = Date.parse('2026-11-25T10:00:00Z');
    // Bob's plan is daily, alice's and carol's hourly: bob's count is the oldest, yet live all day.
    const { proxy } = setup(accept, {
      quota: (user) => (user.externalUserId === 'bob' ? { generations: 1, per: 'day' } : { generations: 1, per: 3600 }),
      now: () => clock,
      rateLimit: false,
      store: createMemoryProxyStore({ maxProjects: 2, maxQuotaCounts: 2, now: () => clock }),
    });
    expect(await statusOf(proxy, generate('bob'))).toBe(200);
    clock += 30 * 60_000;
    expect(await statusOf(proxy, generate('alice'))).toBe(200);
    // 11:05: alice's hour has ended; carol's count takes its place, not bob's.
    clock += 35 * 60_000;
    expect(await statusOf(proxy, generate('carol'))).toBe(200);
    expect(await usage(proxy, 'bob')).toMatchObject({ used: 1 });
    expect(await statusOf(proxy, generate('bob'))).toBe(429);
  });
});
