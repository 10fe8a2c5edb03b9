import { afterEach, expect, it, vi } from 'vitest';
import { createAgentClient } from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';

afterEach(() => {
  vi.unstubAllGlobals();
});

it("in a page whose scheduler can yield, a request reaches the proxy, and the proxy's the mock, each in a task of its own, as over a network", async () => {
  const hops: (() => void)[] = [];
  vi.stubGlobal('scheduler', { yield: () => new Promise<void>((resolve) => hops.push(resolve)) });
  const transport = createMockTransport({ speed: 'instant', rateLimit: false });
  const plans = createAgentClient({ transport }).plans.list();
  const turns = async () => {
    for (let turn = 0; turn < 20; turn++) await Promise.resolve();
  };
  await turns();
  // The caller's task has ended and nothing has reached the mock: the request waits for its own task.
  expect(hops).toHaveLength(1);
  expect(transport.api.admin.requests).toHaveLength(0);
  hops[0]?.();
  await turns();
  // The proxy has sent it on: its request to the mock crosses a network too, in a task of its own.
  expect(hops).toHaveLength(2);
  expect(transport.api.admin.requests).toHaveLength(0);
  hops[1]?.();
  expect((await plans).length).toBeGreaterThan(0);
  expect(transport.api.admin.requests.map((request) => request.path)).toEqual([expect.stringContaining('plans')]);
});

it('without one (Node, jsdom), the request reaches the proxy at once', async () => {
  const transport = createMockTransport({ speed: 'instant', rateLimit: false });
  const plans = createAgentClient({ transport }).plans.list();
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
  expect(transport.api.admin.requests).toHaveLength(1);
  await plans;
});
