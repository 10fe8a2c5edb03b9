import { afterEach, expect, it, vi } from 'vitest';
import { createAgentClient } from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';

afterEach(() => {
  vi.unstubAllGlobals();
});

it('in a page whose scheduler can yield, each request and each answer between page, proxy and mock crosses in a task of its own, as over a network', async () => {
  const hops: (() => void)[] = [];
  vi.stubGlobal('scheduler', { yield: () => new Promise<void>((resolve) => hops.push(resolve)) });
  const transport = createMockTransport({ speed: 'instant', rateLimit: false });
  let answered = false;
  const plans = createAgentClient({ transport })
    .plans.list()
    .finally(() => (answered = true));
  const turns = async () => {
    for (let turn = 0; turn < 20; turn++) await Promise.resolve();
  };
  /** Checks that the `expected`th task is the one waiting, and runs it. */
  const nextHop = async (expected: number) => {
    await turns();
    expect(hops).toHaveLength(expected);
    hops[expected - 1]?.();
  };
  // The caller's task ends with nothing sent on: the request waits for its own task to reach the proxy.
  await nextHop(1);
  await turns();
  // The proxy's request to the mock crosses a network too.
  expect(transport.api.admin.requests).toHaveLength(0);
  await nextHop(2);
  await turns();
  expect(transport.api.admin.requests.map((request) => request.path)).toEqual([expect.stringContaining('plans')]);
  // The mock's answer comes back to the proxy in a task of its own, and the proxy's to the page in another.
  expect(answered).toBe(false);
  await nextHop(3);
  await turns();
  expect(answered).toBe(false);
  await nextHop(4);
  expect((await plans).length).toBeGreaterThan(0);
  expect(hops).toHaveLength(4);
});

it('a request cancelled while its answer is on its way rejects as aborted, and the answer is let go', async () => {
  const hops: (() => void)[] = [];
  vi.stubGlobal('scheduler', { yield: () => new Promise<void>((resolve) => hops.push(resolve)) });
  const transport = createMockTransport({ speed: 'instant', rateLimit: false });
  const controller = new AbortController();
  const answer = transport.fetch(`${transport.api.baseUrl}/subscription-plans`, { signal: controller.signal });
  const turns = async () => {
    for (let turn = 0; turn < 50; turn++) await Promise.resolve();
  };
  for (let hop = 0; hop < 3; hop++) {
    await turns();
    hops[hop]?.();
  }
  await turns();
  expect(hops).toHaveLength(4); // the proxy's answer waits to cross to the page
  controller.abort();
  hops[3]?.();
  await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
});

it('without one (Node, jsdom), the request reaches the proxy at once', async () => {
  const transport = createMockTransport({ speed: 'instant', rateLimit: false });
  const plans = createAgentClient({ transport }).plans.list();
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
  expect(transport.api.admin.requests).toHaveLength(1);
  await plans;
});
