import { afterEach, describe, expect, it } from 'vitest';
import { sessionCookie, startMockStack, type Person } from './proxy-stack.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

describe('the budget learns what the upstream limits', () => {
  it('an upstream that limits every endpoint never locks a second user out', async () => {
    // A short window keeps the test quick; the proxy is told to count only the agent endpoints.
    const windowMs = 2_000;
    const stack = await startMockStack({
      mock: { rateLimit: { limit: 10, windowMs, scope: 'all' } },
      proxy: { rateLimit: { limit: 10, windowMs, scope: 'agent' } },
    });
    cleanup.push(stack.close);
    const send = (person: Person, method: string, path: string, body?: unknown) =>
      fetch(`${stack.proxyUrl}${path}`, {
        method,
        headers: { cookie: sessionCookie(person), 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const started = Date.now();
    let bobServedAt: number | undefined;
    const alice = (async () => {
      // alice reads her code-host connection over and over until bob has been served (or the test gives up).
      while (bobServedAt === undefined && Date.now() - started < 5 * windowMs) {
        await (await send('alice', 'GET', '/codehost/connections/alice')).arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    // bob starts once alice has used up the upstream's window and drawn its 429.
    await expect.poll(() => stack.upstream.some((exchange) => exchange.status === 429)).toBe(true);
    while (bobServedAt === undefined && Date.now() - started < 5 * windowMs) {
      const response = await send('bob', 'POST', '/agent/generate', { prompt: 'A landing page for a bakery' });
      await response.arrayBuffer();
      if (response.status === 200) bobServedAt = Date.now();
      else await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
    }
    await alice;
    expect(bobServedAt).toBeDefined();
    // One upstream 429 taught the proxy to count the code-host endpoints; it never drew another.
    expect(stack.upstream.filter((exchange) => exchange.status === 429)).toHaveLength(1);
    expect(stack.logs.filter((entry) => entry.event === 'budget_widened')).toEqual([
      expect.objectContaining({ route: 'getCodehostConnection', level: 'warn' }),
    ]);
  });
});
