/**
 * `npm run bench:budget`: how the proxy's team budget shares an upstream that allows 10 requests per rolling
 * 60 s. The proxy (default options, memory store) sits in front of the mock Agent API enforcing that limit on
 * every endpoint; both read one simulated clock, so two windows take milliseconds. Every simulated end user
 * always wants one more request: asked again at once when served, after `Retry-After` when refused. Printed
 * per scenario: upstream 429s, work conservation (upstream requests / the limit of the windows run), each
 * user's share and longest wait, and for a user who joins late the wait for their first request. Never
 * asserted.
 */
import { createAgentProxy, createMemoryProxyStore } from '../src/server/index.ts';
import { createMockAgentApi } from '../src/mock/index.ts';

const limit = 10;
const windowMs = 60_000;
const windows = Number(process.env.BENCH_WINDOWS ?? 2);
// BENCH_SCOPE=all|agent sets the budget's scope; by default the proxy's own default is measured.
const scope = process.env.BENCH_SCOPE as 'all' | 'agent' | undefined;

interface Scenario {
  name: string;
  /** When each user starts wanting requests, in ms from the start. */
  joins: Record<string, number>;
}

const scenarios: Scenario[] = [
  { name: 'one user', joins: { alice: 0 } },
  { name: 'two users', joins: { alice: 0, bob: 0 } },
  { name: 'three users', joins: { alice: 0, bob: 0, carol: 0 } },
  { name: 'late joiners', joins: { alice: 0, bob: windowMs / 4 + 500, carol: windowMs + 20_500 } },
];

interface UserFigures {
  served: number;
  longestWaitMs: number;
  firstWaitMs: number | undefined;
}

async function run(scenario: Scenario) {
  let clock = 1_800_000_000_000;
  const now = () => clock;
  const start = clock;
  const end = start + windows * windowMs;
  const mock = createMockAgentApi({ now, speed: 'instant', rateLimit: { limit, windowMs, scope: 'all' } });
  const upstream: number[] = [];
  const proxy = createAgentProxy({
    apiBaseUrl: mock.baseUrl,
    apiToken: mock.token,
    authorize: (request) => ({ externalUserId: request.headers.get('x-bench-user') ?? '' }),
    fetch: async (input, init) => {
      const response = await mock.fetch(new Request(input, init));
      upstream.push(response.status);
      return response;
    },
    store: createMemoryProxyStore({ now }),
    ...(scope === undefined ? {} : { rateLimit: { limit, windowMs, scope } }),
    now,
  });
  // The asks to come, in time order; equal times in the order they were scheduled.
  const queue: { at: number; seq: number; user: string }[] = [];
  let seq = 0;
  const schedule = (user: string, at: number) => {
    queue.push({ at, seq: seq++, user });
    queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
  };
  const figures: Record<string, UserFigures> = {};
  const wantingSince: Record<string, number> = {};
  for (const [user, join] of Object.entries(scenario.joins)) {
    figures[user] = { served: 0, longestWaitMs: 0, firstWaitMs: undefined };
    wantingSince[user] = start + join;
    schedule(user, start + join);
  }
  for (let next = queue.shift(); next !== undefined && next.at < end; next = queue.shift()) {
    clock = next.at;
    const user = next.user;
    const response = await proxy(
      new Request(`http://proxy.test/codehost/connections/${user}`, { headers: { 'x-bench-user': user } }),
    );
    await response.arrayBuffer();
    const mine = figures[user] as UserFigures;
    if (response.status === 429) {
      // Refused, by the proxy or (passed through) by the upstream: the user asks again when told.
      schedule(user, clock + Number(response.headers.get('retry-after') ?? 1) * 1000);
      continue;
    }
    mine.served++;
    const waited = clock - (wantingSince[user] as number);
    mine.longestWaitMs = Math.max(mine.longestWaitMs, waited);
    mine.firstWaitMs ??= waited;
    wantingSince[user] = clock;
    schedule(user, clock);
  }
  // Demand still waiting at the end counts as a wait too.
  for (const [user, mine] of Object.entries(figures))
    mine.longestWaitMs = Math.max(mine.longestWaitMs, end - (wantingSince[user] as number));
  mock.dispose();
  const sent = upstream.length;
  return {
    rejected: upstream.filter((status) => status === 429).length,
    conservation: upstream.filter((status) => status !== 429).length / (limit * windows),
    sent,
    figures,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `budget: upstream allows ${limit} requests per rolling ${windowMs / 1000} s on every endpoint; ${windows} windows; ` +
    'every user always wants one more request',
);
for (const scenario of scenarios) {
  const result = await run(scenario);
  const total = Object.values(result.figures).reduce((sum, user) => sum + user.served, 0);
  console.log(
    `${scenario.name.padEnd(13)} upstream 429s ${result.rejected}  work conservation ${(result.conservation * 100).toFixed(0)}% ` +
      `(${result.sent - result.rejected} of ${limit * windows})`,
  );
  for (const [user, mine] of Object.entries(result.figures)) {
    const join = scenario.joins[user] ?? 0;
    console.log(
      `  ${user.padEnd(6)} joins ${seconds(join).padStart(6)}  served ${String(mine.served).padStart(2)} ` +
        `(${total === 0 ? 0 : ((mine.served / total) * 100).toFixed(0)}%)  longest wait ${seconds(mine.longestWaitMs).padStart(6)}` +
        `  first request after ${mine.firstWaitMs === undefined ? 'never' : seconds(mine.firstWaitMs)}`,
    );
  }
}
