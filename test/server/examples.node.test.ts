/**
 * The examples in examples/ actually work: Express, Hono, plain Node http, the Web-standard fetch module
 * (Bun, Deno, Workers) and the Next.js route module, each serving the proxy in front of the mock Agent API
 * over real HTTP on 127.0.0.1.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMockAgentServer, type MockAgentServer } from 'agent-embed/mock';
import { createAgentProxy, type AgentProxyHandler } from 'agent-embed/server';
import { createAdaptorServer } from '@hono/node-server';
import { createExpressApp } from '../../examples/express/server.js';
import { createHonoApp } from '../../examples/hono/server.js';
import { createAgencyServer } from '../../examples/node-http/server.js';
import { agentBasePath, proxyOptionsFromEnv } from '../../examples/proxy-config.js';
import { readSession, signSession } from '../../examples/session.js';
import webStandardServer from '../../examples/web-standard/server.js';

const secret = `session-secret-${Math.random().toString(36).slice(2)}`;
const appOrigin = 'https://app.agency.test';
const alice = { externalUserId: 'alice', name: 'Alice', email: 'alice@example.test' };
const prompt = 'A landing page for a neighbourhood bakery';

let mock: MockAgentServer;
let proxy: AgentProxyHandler;

beforeAll(async () => {
  mock = await startMockAgentServer({ port: 0, speed: 'instant', rateLimit: false });
  proxy = createAgentProxy({
    apiBaseUrl: mock.url,
    apiToken: mock.token,
    basePath: agentBasePath,
    authorize: (request) => readSession(request, secret),
    rateLimit: false,
  });
});

afterAll(async () => {
  await mock.close();
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** What every adapter must get right: the session, the body passed through, the stream relayed. */
async function exercise(origin: string): Promise<void> {
  const cookie = `session=${signSession(alice, secret)}`;
  const plans = await fetch(`${origin}${agentBasePath}/subscription-plans`, { headers: { cookie } });
  expect(plans.status).toBe(200);
  const forged = await fetch(`${origin}${agentBasePath}/subscription-plans`, {
    headers: { cookie: `session=${signSession(alice, 'another-secret')}` },
  });
  expect(forged.status).toBe(401);
  const stream = await fetch(`${origin}${agentBasePath}/agent/generate`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt }),
  });
  expect(stream.headers.get('content-type')).toBe('text/event-stream');
  const text = await stream.text();
  expect(text).toContain('"project_created"');
  expect(text).toContain('"stream_end"');
  const projectId = /"project_id":"([^"]+)"/.exec(text)?.[1] ?? '';
  const status = await fetch(`${origin}${agentBasePath}/agent/project/${projectId}`, { headers: { cookie } });
  expect(((await status.json()) as { project_status: string }).project_status).toBe('ready');
}

describe('examples', () => {
  it('Express 5 mounts the proxy with getRequestListener, before its body parser', async () => {
    const server = createExpressApp(proxy).listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await exercise(origin);
      expect(await (await fetch(`${origin}/health`)).json()).toEqual({ ok: true });
    } finally {
      await close(server);
    }
  });

  it('plain Node http hands the proxy its path and keeps the rest', async () => {
    const server = createAgencyServer(proxy);
    const origin = await listen(server);
    try {
      await exercise(origin);
      expect((await fetch(`${origin}/elsewhere`)).status).toBe(404);
    } finally {
      await close(server);
    }
  });

  it('Hono 4 hands the proxy c.req.raw, its body unread', async () => {
    const server = createAdaptorServer({ fetch: createHonoApp(proxy).fetch }) as Server;
    const origin = await listen(server);
    try {
      await exercise(origin);
      expect(await (await fetch(`${origin}/health`)).json()).toEqual({ ok: true });
    } finally {
      await close(server);
    }
  });

  it('the Web-standard module (Bun, Deno, Workers) creates the proxy from the env it is given', async () => {
    const env = {
      AGENT_API_BASE_URL: mock.url,
      AGENT_API_TOKEN: mock.token,
      SESSION_SECRET: secret,
      APP_ORIGIN: appOrigin,
    };
    const server = createAdaptorServer({
      fetch: (request: Request) => webStandardServer.fetch(request, env),
    }) as Server;
    const origin = await listen(server);
    // The example logs refusals (the forged session of `exercise`).
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await exercise(origin);
      expect((await fetch(`${origin}/elsewhere`)).status).toBe(404);
      expect(JSON.stringify(warn.mock.calls)).not.toContain(mock.token);
    } finally {
      warn.mockRestore();
      await close(server);
    }
  });

  it('the Next.js route module loads with no secrets (as next build does) and answers 500 until they are set', async () => {
    const saved = { ...process.env };
    for (const name of ['AGENT_API_BASE_URL', 'AGENT_API_TOKEN', 'SESSION_SECRET', 'APP_ORIGIN'])
      delete process.env[name];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.resetModules();
    try {
      const route = await import('../../examples/nextjs/app/api/agent/[...path]/route.js');
      const response = await route.GET(new Request(`${appOrigin}${agentBasePath}/subscription-plans`));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ status: false, message: 'The proxy failed to handle the request.' });
      const logged = warn.mock.calls.map((call) => String(call[0])).join('\n');
      expect(logged).toContain('invalid_options');
      expect(logged).toContain('apiToken is missing');
    } finally {
      warn.mockRestore();
      process.env = saved;
      vi.resetModules();
    }
  });

  it('the Next.js route module exports the proxy as GET and POST, configured from the environment', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      AGENT_API_BASE_URL: mock.url,
      AGENT_API_TOKEN: mock.token,
      SESSION_SECRET: secret,
      APP_ORIGIN: appOrigin,
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(proxyOptionsFromEnv().apiBaseUrl).toBe(mock.url);
      const route = await import('../../examples/nextjs/app/api/agent/[...path]/route.js');
      expect(route.runtime).toBe('nodejs');
      expect(route.dynamic).toBe('force-dynamic');
      const cookie = `session=${signSession(alice, secret)}`;
      const plans = await route.GET(
        new Request(`${appOrigin}${agentBasePath}/subscription-plans`, { headers: { cookie } }),
      );
      expect(plans.status).toBe(200);
      const generate = (origin: string) =>
        route.POST(
          new Request(`${appOrigin}${agentBasePath}/agent/generate`, {
            method: 'POST',
            headers: {
              cookie,
              origin,
              'sec-fetch-site': origin === appOrigin ? 'same-origin' : 'cross-site',
              'content-type': 'application/json',
            },
            body: JSON.stringify({ prompt }),
          }),
        );
      const allowed = await generate(appOrigin);
      expect(await allowed.text()).toContain('"stream_end"');
      expect((await generate('https://evil.test')).status).toBe(403);
      // The example logs refusals; none of its lines holds the token.
      expect(warn).toHaveBeenCalled();
      expect(JSON.stringify(warn.mock.calls)).not.toContain(mock.token);
    } finally {
      warn.mockRestore();
      process.env = saved;
    }
  });

  it('the example session refuses forged, malformed and missing cookies', () => {
    const request = (cookie: string | undefined) =>
      new Request('https://app.test/', cookie === undefined ? {} : { headers: { cookie } });
    const valid = signSession(alice, secret);
    expect(readSession(request(`theme=dark; session=${valid}`), secret)).toEqual(alice);
    expect(readSession(request(undefined), secret)).toBeNull();
    expect(readSession(request('session=abc'), secret)).toBeNull();
    expect(readSession(request(`session=${valid.split('.')[0]}.${'A'.repeat(43)}`), secret)).toBeNull();
    const tampered = Buffer.from(JSON.stringify({ externalUserId: 'bob' })).toString('base64url');
    expect(readSession(request(`session=${tampered}.${valid.split('.')[1]}`), secret)).toBeNull();
  });
});
