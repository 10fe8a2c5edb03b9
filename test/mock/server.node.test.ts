import { request as httpRequest } from 'node:http';
import { createMockAdminClient, startMockAgentServer, type MockAgentServer } from 'agent-embed/mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualTimers, parseSse, readToEnd, settle, types } from './mock-helpers.js';

const servers: MockAgentServer[] = [];
async function start(options: Parameters<typeof startMockAgentServer>[0] = {}): Promise<MockAgentServer> {
  const server = await startMockAgentServer({ speed: 'instant', ...options });
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function post(server: MockAgentServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify(body),
  });
}

describe('startMockAgentServer', () => {
  it('listens on 127.0.0.1 with a free port and answers over real HTTP', async () => {
    const server = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(server.token).toMatch(/^mock_dev_[0-9a-f]{40}$/);
    expect(server.adminUrl).toBe(server.url.replace('/api/v1', '/__mock/admin'));
    const plans = await fetch(`${server.url}/subscription-plans`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(plans.status).toBe(200);
    expect(plans.headers.get('content-length')).not.toBeNull();
    expect((await plans.json()).data).toHaveLength(4);

    const stream = await post(server, '/agent/generate', { prompt: 'Build a todo app with dark mode' });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.headers.get('cache-control')).toContain('no-cache');
    expect(stream.headers.get('content-length')).toBeNull();
    const events = parseSse(await stream.text()).events;
    expect(types(events).at(-1)).toBe('stream_end');
    // app_url points at this server, and the page is there.
    const page = await fetch(events[0]!.app_url as string);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Todo App');
  });

  it('writes each event as it happens, not in one buffer at the end', async () => {
    const clock = createManualTimers();
    const server = await start({ speed: 'realistic', timers: clock.timers, now: clock.now });
    const response = await post(server, '/agent/generate', { prompt: 'Build a todo app with dark mode' });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(types(parseSse(first).events)).toEqual(['project_created']);
    let pending = reader.read();
    let arrived = false;
    void pending.then(() => (arrived = true));
    await settle(10);
    expect(arrived).toBe(false);
    await clock.advance(350);
    const second = await pending;
    expect(types(parseSse(new TextDecoder().decode(second.value)).events)).toEqual(['container_progress']);
    pending = reader.read();
    await clock.runAll();
    await pending;
    await reader.cancel();
  });

  it('cuts the connection on drop_after, after the n events were delivered', async () => {
    const server = await start();
    server.api.admin.injectFault({ kind: 'drop_after', events: 4 });
    const response = await post(server, '/agent/generate', { prompt: 'Build a todo app with dark mode' });
    const { text, failure } = await readToEnd(response);
    expect(failure).toBeInstanceOf(Error);
    expect(parseSse(text).events).toHaveLength(4);
  });

  it('answers HEAD and oversize bodies sensibly, and its admin is reachable over HTTP', async () => {
    const server = await start();
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        `${server.url}/agent/generate`,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end('x'.repeat(1024 * 1024 + 10));
    });
    expect(status).toBe(413);
    const state = await fetch(`${server.adminUrl}/state`);
    expect((await state.json()).defaultTeamId).toBe('team_default');
  });

  it('closes with streams still open', async () => {
    const server = await startMockAgentServer({ speed: 'realistic' });
    const response = await post(server, '/agent/generate', { prompt: 'Build a todo app with dark mode' });
    const reading = response.text().then(
      () => 'ended',
      () => 'cut',
    );
    await server.close();
    expect(await reading).toBe('cut');
    await expect(fetch(`${server.url}/subscription-plans`)).rejects.toThrow();
  });
});

describe('createMockAdminClient against the mock server', () => {
  it('drives the server’s mock over real HTTP with the global fetch, and reads it back', async () => {
    const server = await start({ credits: 50 });
    const admin = createMockAdminClient({ url: server.url });
    expect(admin.url).toBe(server.adminUrl);
    expect(await admin.credits()).toBe(50);
    const team = await admin.createTeam({ credits: 4 });
    await admin.setCredits(9, team);
    expect(await admin.credits(team)).toBe(9);
    const token = await admin.createToken({ teamId: team, name: 'ci' });
    expect(await admin.tokens(team)).toMatchObject([
      { name: 'ci', maskedValue: `${'*'.repeat(12)}${token.slice(-4)}` },
    ]);
    await admin.injectFault({ kind: 'http_500' });
    expect((await post(server, '/agent/generate', { prompt: 'Build a todo app please' })).status).toBe(500);
    expect(await admin.pendingFaults()).toEqual([]);
    expect((await admin.state()).requestCount).toBe((await admin.requests()).length - 1);
    await admin.reset();
    expect(await admin.credits()).toBe(50);
    await expect(admin.credits('team_gone')).rejects.toMatchObject({ name: 'MockAdminError', status: 404 });
  });

  it('rejects an answer that is not the admin’s with its status', async () => {
    const admin = createMockAdminClient({
      url: 'http://mock.test/api/v1',
      fetch: async () => new Response('<html>Bad gateway</html>', { status: 502 }),
    });
    await expect(admin.reset()).rejects.toThrow("The mock's admin answered 502 to POST reset.");
  });
});
