/**
 * Where agencies build: the proxy is created at module scope without secrets (next build) and checks its
 * options at the first request; a body that a body parser already read is refused, its likely cause told to the log
 * once and never to the browser.
 */
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createAgentProxy,
  createMemoryProxyStore,
  type AgentProxyOptions,
  type ProxyLogEntry,
} from 'agent-embed/server';
import { createScriptedUpstream, fakeToken, specAnswer, upstreamBase } from './scripted-upstream.js';

const origin = 'http://app.test';
const basePath = '/api/agent';
const genericFailure = { status: false, message: 'The proxy failed to handle the request.' };
const prompt = 'A landing page for a neighbourhood bakery';

function setup(options: Partial<AgentProxyOptions> = {}) {
  const upstream = createScriptedUpstream(specAnswer);
  const logs: ProxyLogEntry[] = [];
  const authorize = vi.fn(() => ({ externalUserId: 'alice' }));
  const proxy = createAgentProxy({
    apiBaseUrl: upstreamBase,
    apiToken: fakeToken,
    basePath,
    authorize,
    fetch: upstream.fetch,
    rateLimit: false,
    onLog: (entry) => logs.push(entry),
    ...options,
  });
  return { proxy, upstream, logs, authorize };
}

const post = (path: string, body?: string) =>
  new Request(`${origin}${basePath}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('options checked at the first request', () => {
  it('creates the proxy without a token or base URL (as next build does), then answers 500 and logs once', async () => {
    const { proxy, upstream, logs, authorize } = setup({ apiToken: '', apiBaseUrl: '' });
    expect(authorize).not.toHaveBeenCalled();
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await proxy(post('/agent/generate', JSON.stringify({ prompt })));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual(genericFailure);
    }
    expect(upstream.calls).toHaveLength(0);
    expect(authorize).not.toHaveBeenCalled();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level: 'error', event: 'invalid_options' });
    expect(logs[0]!.reason).toContain('apiToken is missing');
    expect(logs[0]!.reason).toContain('apiBaseUrl is missing');
  });

  it('says what is wrong on console.error once when there is no onLog, and never the token', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { proxy } = setup({ apiBaseUrl: `ftp://${fakeToken}.example.test/api/v1`, onLog: undefined as never });
    await proxy(new Request(`${origin}${basePath}/subscription-plans`));
    await proxy(new Request(`${origin}${basePath}/subscription-plans`));
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]![0])).toContain('apiBaseUrl must be an http or https URL.');
    expect(JSON.stringify(errors.mock.calls)).not.toContain(fakeToken);
  });

  it.each([
    [{ basePath: 'api/agent' }, 'basePath must start with "/".'],
    [{ rateLimit: { limit: 0, windowMs: 1000 } }, 'rateLimit needs limit >= 1'],
    [{ csrf: { allowedOrigins: ['app.test'] } }, 'csrf.allowedOrigins must hold http or https origins.'],
    [{ returnUrlOrigins: ['javascript:alert(1)'] }, 'returnUrlOrigins must hold http or https origins.'],
    [{ codehostInstallOrigins: ['github.com'] }, 'codehostInstallOrigins must hold http or https origins.'],
    [{ maxStreamsPerUser: -1 }, 'maxStreamsPerUser must be a whole number, 0 or more: -1'],
    [{ maxStreamsPerUser: 2.5 }, 'maxStreamsPerUser must be a whole number, 0 or more: 2.5'],
  ])('names a wrong option: %j', async (options, message) => {
    const { proxy, logs } = setup(options as Partial<AgentProxyOptions>);
    expect((await proxy(new Request(`${origin}${basePath}/subscription-plans`))).status).toBe(500);
    expect(logs.map((entry) => entry.reason).join(' ')).toContain(message);
  });

  it('answers 500 for options of the wrong type, as JavaScript callers may pass them', async () => {
    const { proxy, logs } = setup({ csrf: { allowedOrigins: 'https://app.test' as never } });
    expect((await proxy(new Request(`${origin}${basePath}/subscription-plans`))).status).toBe(500);
    expect(logs).toHaveLength(1);
    expect(logs[0]!.event).toBe('invalid_options');
  });

  it('serves normally when the options are usable', async () => {
    const { proxy, upstream } = setup();
    const response = await proxy(new Request(`${origin}${basePath}/subscription-plans`));
    expect(response.status).toBe(200);
    expect(upstream.calls).toHaveLength(1);
  });
});

describe('a body that is empty or already read', () => {
  const notJson = 'The request body must be a JSON object.';
  const hint = /already read\. A body parser \(such as express\.json\(\)\) mounted before the agent proxy/;
  const hints = (logs: ProxyLogEntry[]) =>
    logs.filter((entry) => entry.event === 'config_warning' && hint.test(entry.reason ?? ''));

  it('refuses a request whose body someone else read, without calling upstream', async () => {
    const { proxy, upstream, logs } = setup();
    const request = post('/agent/generate', JSON.stringify({ prompt }));
    await request.text();
    const response = await proxy(request);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe(notJson);
    expect(hints(logs)).toHaveLength(1);
    expect(upstream.calls).toHaveLength(0);
  });

  it('refuses an empty body on a route with required fields, and lets one through where none is required', async () => {
    const { proxy, upstream } = setup();
    const generate = await proxy(post('/agent/generate'));
    expect(generate.status).toBe(400);
    expect(((await generate.json()) as { message: string }).message).toBe(notJson);
    const connect = await proxy(post('/deployments/vercel/connections'));
    expect(connect.status).toBe(400);
    expect(((await connect.json()) as { success: boolean }).success).toBe(false);
    expect(upstream.calls).toHaveLength(0);
    // Deploying takes no required field: the proxy fills in the end user and forwards.
    const owned = setup({ store: createMemoryProxyStore({ owners: { 'p-1': 'alice' } }) });
    const deploy = await owned.proxy(post('/deployments/vercel/project/p-1/deploy'));
    expect(deploy.status).toBe(200);
    expect(owned.upstream.calls[0]!.body).toBe(JSON.stringify({ external_user_id: 'alice' }));
  });

  it('tells the log of an Express app with express.json() in front of the proxy what to change', async () => {
    const { proxy, upstream, logs } = setup();
    const app = express();
    app.use(express.json());
    app.all(`${basePath}/*path`, getRequestListener(proxy));
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}${basePath}/agent/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt }),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toBe(notJson);
      expect(hints(logs)).toHaveLength(1);
      expect(upstream.calls).toHaveLength(0);
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });
  it('tells the browser nothing of how the server is set up, and the log the likely cause once', async () => {
    const { proxy, upstream, logs } = setup({ store: createMemoryProxyStore({ owners: { 'p-1': 'alice' } }) });
    const routes = [
      '/agent/generate',
      '/agent/generate/p-1',
      '/codehost/project/p-1/link',
      '/deployments/vercel/connections',
    ];
    for (const path of routes) {
      const read = post(path, JSON.stringify({ prompt }));
      await read.text();
      for (const request of [post(path), post(path, ''), post(path, ' \n\t '), read]) {
        const response = await proxy(request);
        expect(response.status).toBe(400);
        const text = await response.text();
        expect(text).toContain(notJson);
        expect(text).not.toMatch(/parser|express|mount|proxy|server/i);
      }
    }
    expect(hints(logs)).toEqual([expect.objectContaining({ level: 'warn', event: 'config_warning' })]);
    expect(upstream.calls).toHaveLength(0);
  });
});
