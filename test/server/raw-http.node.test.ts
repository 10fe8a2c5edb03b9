/**
 * A hostile browser over real HTTP (the proxy behind @hono/node-server, as docs/proxy.md mounts it; regression
 * tests from a red-team review): raw request targets, Host header tricks and framing headers are refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryProxyStore } from 'agent-embed/server';
import { rawRequest, sessionCookie, startMockStack } from './proxy-stack.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

describe('a hostile browser over raw HTTP', () => {
  it('never reaches bob’s project or connections through raw targets or Host tricks, and never answers 500', async () => {
    const stack = await startMockStack({
      proxy: { store: createMemoryProxyStore({ owners: { 'p-bob': 'bob' } }), statusCacheMs: 0 },
    });
    cleanup.push(stack.close);
    const cookie = sessionCookie('alice');
    const targets: { path: string; headers?: Record<string, string> }[] = [
      { path: '/api/agent/agent/project/p-bob' },
      { path: '/api/agent/agent/project/p-alice/../p-bob' },
      { path: '/api/agent/agent/project/p-alice/%2e%2e/p-bob' },
      { path: '/api/agent/agent/project/p-alice%2f..%2fp-bob' },
      { path: '/api/agent//agent/project/p-bob' },
      { path: '/api/agent/agent/project/p-bob%23' },
      { path: '/api/agent/codehost/connections/bob' },
      { path: '/api/agent/codehost/connections/alice/../bob' },
      { path: '/api/agent/codehost/connections/alice%2F..%2Fbob' },
      { path: '/api/agent/codehost/connections/bob/repositories?page=1' },
      { path: '/api/agent/deployments/vercel/connections/bob' },
      { path: `http://evil.example/api/agent/agent/project/p-bob` },
      { path: '/x', headers: { host: '127.0.0.1/api/agent/agent/project/p-bob?' } },
      { path: '/api/agent/x', headers: { host: 'evil.example/api/agent/codehost/connections/bob#' } },
      { path: '/api/agent/projects/p-bob/events', headers: { 'last-event-id': '0' } },
      { path: '/api/agent/projects/p-bob/conversation' },
    ];
    for (const { path, headers } of targets) {
      const response = await rawRequest(stack.origin, 'GET', path, { headers: { cookie, ...headers } });
      expect([400, 403, 404], path).toContain(response.status);
      expect(response.body, path).not.toMatch(/bob@|"external_user_id":"bob"/);
    }
    // Nothing of it went upstream.
    expect(stack.upstream.filter((exchange) => /bob/.test(exchange.path))).toEqual([]);
  });

  it('refuses framing tricks on POST bodies without 500', async () => {
    const stack = await startMockStack({ proxy: { statusCacheMs: 0 } });
    cleanup.push(stack.close);
    const cookie = sessionCookie('alice');
    const body = JSON.stringify({ repo_owner: 'a', repo_name: 'b', external_user_id: 'bob' });
    const cases: Record<string, string>[] = [
      { 'content-type': 'application/json', 'content-length': String(body.length) },
      { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      { 'content-type': 'application/json;charset=utf-16', 'content-length': String(body.length) },
    ];
    for (const headers of cases) {
      const response = await rawRequest(stack.origin, 'POST', '/api/agent/codehost/project/p-x/link', {
        headers: { cookie, ...headers },
        body,
      });
      expect([400, 403, 404, 413, 415], JSON.stringify(headers)).toContain(response.status);
    }
  });
});
