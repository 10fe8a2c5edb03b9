/**
 * One test per attack on the proxy, over real HTTP: the library's client (or a raw HTTP request, as an
 * attacker would send it) -> the proxy -> the mock Agent API. "Upstream untouched" is checked on the
 * mock's own request log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAgentApiError, type AgentApiError, type AgentClient } from 'agent-embed/core';
import {
  basePath,
  rawRequest,
  sessionCookie,
  startMockStack,
  type Person,
  type ProxyStack,
  type RawResponse,
} from './proxy-stack.js';
import type { MockAgentServer } from 'agent-embed/mock';

type Stack = ProxyStack & { mock: MockAgentServer };

async function refusal(promise: Promise<unknown>): Promise<AgentApiError> {
  try {
    await promise;
  } catch (thrown) {
    if (isAgentApiError(thrown)) return thrown;
    throw thrown;
  }
  throw new Error('Expected the call to be refused.');
}

const prompt = 'A landing page for a neighbourhood bakery';

async function connectCodehost(stack: Stack, client: AgentClient, person: Person): Promise<void> {
  const { redirect_url } = await client.codehost.startConnect({
    external_user_id: person,
    external_user_name: `${person} example`,
    external_user_email: `${person}@example.test`,
    return_url: 'https://app.test/back',
  });
  const state = new URL(redirect_url).searchParams.get('state') ?? '';
  // The end user's browser completes the install on the code host, which calls back the service.
  const callback = await fetch(`${new URL(stack.mock.url).origin}/__mock/codehost/callback?state=${state}`, {
    redirect: 'manual',
  });
  expect(callback.status).toBe(302);
}

function json(person: Person | undefined, body: unknown, headers: Record<string, string> = {}) {
  return {
    headers: {
      'content-type': 'application/json',
      ...(person === undefined ? {} : { cookie: sessionCookie(person) }),
      ...headers,
    },
    body: JSON.stringify(body),
  };
}

describe('the proxy under attack', () => {
  let stack: Stack;
  let alice: AgentClient;
  let bob: AgentClient;
  let aliceProject: string;
  let bobProject: string;
  const upstreamCount = () => stack.mock.api.admin.requests.length;

  beforeAll(async () => {
    // The budget has its own suite; here it would only get in the way of the attacks.
    stack = await startMockStack({ proxy: { rateLimit: false, returnUrlOrigins: ['https://app.test'] } });
    alice = stack.client('alice');
    bob = stack.client('bob');
    const [aliceRun, bobRun] = await Promise.all([
      alice.generate({ prompt }),
      bob.generate({ prompt: 'A portfolio for a ceramics studio' }),
    ]);
    expect(aliceRun.outcome).toBe('completed');
    expect(bobRun.outcome).toBe('completed');
    aliceProject = aliceRun.projectId ?? '';
    bobProject = bobRun.projectId ?? '';
    await alice.deployments.connect('vercel', { external_user_id: 'alice', token: 'alice-vercel:1' });
    await bob.deployments.connect('vercel', { external_user_id: 'bob', token: 'bob-vercel:1' });
    await connectCodehost(stack, alice, 'alice');
    await connectCodehost(stack, bob, 'bob');
  });

  afterAll(async () => {
    await stack.close();
  });

  it('never shows the token in any response body, header or stream, for every endpoint and error', async () => {
    const token = stack.mock.token;
    const sent: [string, string, { headers?: Record<string, string>; body?: string }][] = [
      // Every endpoint, answered.
      ['POST', '/agent/generate', json('alice', { prompt, mode: 'design' })],
      ['POST', `/agent/generate/${aliceProject}`, json('alice', { prompt: 'Make the header a warm brown' })],
      ['GET', `/agent/project/${aliceProject}`, json('alice', undefined)],
      ['POST', '/deployments/vercel/connections', json('alice', { token: 'alice-vercel:2' })],
      ['GET', '/deployments/vercel/connections/alice', json('alice', undefined)],
      ['GET', '/deployments/vercel/connections', json('alice', undefined)],
      ['POST', `/deployments/vercel/project/${aliceProject}/deploy`, json('alice', {})],
      ['POST', '/codehost/connect/start', json('alice', { return_url: 'https://app.test/back' })],
      ['GET', '/codehost/connections/alice', json('alice', undefined)],
      ['GET', '/codehost/connections', json('alice', undefined)],
      ['GET', '/codehost/connections/alice/repositories?page=1&per_page=5', json('alice', undefined)],
      [
        'POST',
        `/codehost/project/${aliceProject}/link`,
        json('alice', { repo_owner: 'alice-example', repo_name: 'bakery' }),
      ],
      ['POST', `/codehost/project/${aliceProject}/push`, json('alice', {})],
      ['GET', '/subscription-plans', json('alice', undefined)],
      // Every failure, from the proxy and from upstream.
      ['GET', `/agent/project/${aliceProject}`, json(undefined, undefined, { authorization: `Bearer ${token}` })],
      ['GET', '/codehost/connections/bob', json('alice', undefined)],
      ['GET', `/agent/project/${bobProject}`, json('alice', undefined)],
      ['GET', '/nothing/here', json('alice', undefined)],
      ['POST', '/agent/generate', json('alice', { prompt: 'x'.repeat(300_000) })],
      [
        'POST',
        '/agent/generate',
        { headers: { cookie: sessionCookie('alice'), 'content-type': 'text/plain' }, body: 'prompt' },
      ],
      ['POST', '/agent/generate', json('alice', { prompt: 'short' })],
      ['POST', '/deployments/vercel/connections', json('alice', { token: 'bad_token_value' })],
      ['POST', '/deployments/unknown/connections', json('alice', { token: 'alice-vercel:3' })],
      ['GET', '/deployments/netlify/connections/alice', json('alice', undefined)],
      ['GET', '/codehost/connections/alice/repositories?page=0', json('alice', undefined)],
    ];
    const responses: RawResponse[] = [];
    for (const [method, path, init] of sent) {
      const { body, ...rest } = init;
      responses.push(await rawRequest(stack.origin, method, `${basePath}${path}`, body === undefined ? rest : init));
    }
    // Upstream faults: a 429, a 500, an HTML 502, and a generation that fails mid-stream.
    for (const fault of [
      { kind: 'rate_limited', retryAfterSeconds: 7, route: 'any' },
      { kind: 'http_500', route: 'any' },
      { kind: 'non_json_502', route: 'any' },
    ] as const) {
      stack.mock.api.admin.injectFault(fault);
      // Not the plans: a kept plans answer would leave the fault to the next request.
      responses.push(
        await rawRequest(stack.origin, 'GET', `${basePath}/codehost/connections/alice`, json('alice', undefined)),
      );
    }
    stack.mock.api.admin.injectFault({ kind: 'error_event', afterEvents: 2 });
    responses.push(await rawRequest(stack.origin, 'POST', `${basePath}/agent/generate`, json('alice', { prompt })));
    // The proxy went through 2xx, 4xx and 5xx answers and event streams: the sweep above is not empty-handed.
    const statuses = new Set(responses.map((response) => response.status));
    for (const status of [200, 401, 403, 404, 413, 415, 422, 429, 502]) expect(statuses).toContain(status);
    expect(
      responses.filter((response) => String(response.headers['content-type']).startsWith('text/event-stream')).length,
    ).toBeGreaterThanOrEqual(3);
    for (const response of responses) {
      expect(JSON.stringify(response.headers)).not.toContain(token);
      expect(response.body).not.toContain(token);
      expect(response.headers['www-authenticate']).toBeUndefined();
    }
    expect(JSON.stringify(stack.logs)).not.toContain(token);

    // The upstream rejecting the token itself: its 401 reaches the browser without the token.
    const revoked = await startMockStack({ proxy: { returnUrlOrigins: ['https://app.test'] } });
    try {
      revoked.mock.api.admin.revokeToken(revoked.mock.token);
      const answer = await rawRequest(
        revoked.origin,
        'GET',
        `${basePath}/subscription-plans`,
        json('alice', undefined),
      );
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({ success: false, message: 'Unauthorized.', data: null, errors: null });
      expect(answer.body + JSON.stringify(answer.headers)).not.toContain(revoked.mock.token);
      expect(JSON.stringify(revoked.logs)).not.toContain(revoked.mock.token);
    } finally {
      await revoked.close();
    }
  });

  it('answers path traversal and encoded slashes in ids with 404 and never reaches the upstream', async () => {
    const before = upstreamCount();
    const paths = [
      `${basePath}/agent/project/..%2F..%2Fsubscription-plans`,
      `${basePath}/agent/project/..%2f__mock%2fadmin%2freset`,
      `${basePath}/agent/project/%2e%2e`,
      `${basePath}/agent/project/${aliceProject}%2F..%2F${bobProject}`,
      `${basePath}/agent/project/${aliceProject}%252F..`,
      `${basePath}/codehost/connections/alice%2F..%2Fbob/repositories`,
      `${basePath}/deployments/vercel%2Fconnections/alice`,
      `${basePath}/agent/project/../../../../__mock/admin/state`,
      `${basePath}/../../__mock/admin/state`,
      `${basePath}/agent/project/.`,
    ];
    for (const path of paths) {
      const response = await rawRequest(stack.origin, 'GET', path, { headers: { cookie: sessionCookie('alice') } });
      expect(response.status, path).toBe(404);
    }
    // The Node adapter itself refuses a backslash path before the proxy sees it.
    const backslash = await rawRequest(stack.origin, 'GET', `${basePath}/agent/project/..\\..\\subscription-plans`, {
      headers: { cookie: sessionCookie('alice') },
    });
    expect([400, 404]).toContain(backslash.status);
    expect(upstreamCount()).toBe(before);
    // A traversal that lands on another route gets that route's checks in full.
    const landed = await rawRequest(stack.origin, 'GET', `${basePath}/codehost/connections/alice/../bob/repositories`, {
      headers: { cookie: sessionCookie('alice') },
    });
    expect(landed.status).toBe(403);
    expect(upstreamCount()).toBe(before);
  });

  it('answers unknown paths and methods with 404 and never reaches the upstream', async () => {
    const before = upstreamCount();
    const attempts: [string, string][] = [
      ['GET', '/agent'],
      ['GET', '/agent/generate'],
      ['GET', `/agent/generate/${aliceProject}/extra`],
      ['GET', '/admin'],
      ['GET', '/__mock/admin/state'],
      ['POST', '/__mock/admin/reset'],
      ['GET', '/api/v1/subscription-plans'],
      ['PUT', `/agent/project/${aliceProject}`],
      ['PATCH', `/agent/project/${aliceProject}`],
      ['DELETE', `/agent/project/${aliceProject}`],
      ['DELETE', '/deployments/vercel/connections/alice'],
      ['OPTIONS', '/agent/generate'],
      ['HEAD', '/subscription-plans'],
      ['POST', '/subscription-plans'],
      ['TRACE', '/subscription-plans'],
    ];
    for (const [method, path] of attempts) {
      const response = await rawRequest(stack.origin, method, `${basePath}${path}`, {
        headers: { cookie: sessionCookie('alice') },
      });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect(upstreamCount()).toBe(before);
  });

  it("refuses another end user's external_user_id in a path with 403, and never lists their connections", async () => {
    const before = upstreamCount();
    const refusals = await Promise.all([
      refusal(bob.deployments.getConnection('vercel', 'alice')),
      refusal(bob.codehost.getConnection('alice')),
      refusal(bob.codehost.listRepositories('alice', { page: 1, per_page: 10 })),
    ]);
    for (const error of refusals) expect(error.status).toBe(403);
    expect(upstreamCount()).toBe(before);
    // The agency-wide listings hold both users upstream; each end user sees only their own.
    const [bobDeployments, bobCodehost] = await Promise.all([
      bob.deployments.listConnections('vercel'),
      bob.codehost.listConnections(),
    ]);
    expect(bobDeployments.map((connection) => connection.external_user_id)).toEqual(['bob']);
    expect(bobCodehost.map((connection) => connection.external_user_id)).toEqual(['bob']);
    expect(
      (await alice.deployments.listConnections('vercel')).map((connection) => connection.external_user_id),
    ).toEqual(['alice']);
  });

  it("refuses another end user's external_user_id in a body with 403 on every endpoint that carries one", async () => {
    const before = upstreamCount();
    const refusals = await Promise.all([
      refusal(bob.deployments.connect('vercel', { external_user_id: 'alice', token: 'alice-vercel:9' })),
      refusal(bob.deployments.deploy('vercel', bobProject, { external_user_id: 'alice' })),
      refusal(
        bob.codehost.startConnect({
          external_user_id: 'alice',
          external_user_name: 'Alice',
          external_user_email: 'alice@example.test',
          return_url: 'https://app.test/back',
        }),
      ),
      refusal(
        bob.codehost.link(bobProject, { external_user_id: 'alice', repo_owner: 'alice-example', repo_name: 'bakery' }),
      ),
      refusal(bob.codehost.push(bobProject, { external_user_id: 'alice' })),
      refusal(bob.generate({ prompt, external_user_id: 'alice' } as { prompt: string })),
    ]);
    for (const error of refusals) expect(error.status).toBe(403);
    expect(upstreamCount()).toBe(before);
  });

  it("answers 404 'Project not found.' for another end user's project on every project route", async () => {
    const before = upstreamCount();
    const refusals = await Promise.all([
      refusal(bob.followUp(aliceProject, { prompt: 'Replace everything with my own site' })),
      refusal(bob.getProject(aliceProject)),
      refusal(bob.deployments.deploy('vercel', aliceProject)),
      refusal(
        bob.codehost.link(aliceProject, { external_user_id: 'bob', repo_owner: 'bob-example', repo_name: 'stolen' }),
      ),
      refusal(bob.codehost.push(aliceProject, { external_user_id: 'bob', repo_name: 'stolen' })),
    ]);
    for (const error of refusals) {
      expect(error.status).toBe(404);
      expect(error.message).toBe('Project not found.');
    }
    expect(upstreamCount()).toBe(before);
    // The owner still reaches it.
    expect((await alice.getProject(aliceProject)).project_id).toBe(aliceProject);
  });

  it('answers 401 on every endpoint without a session, with a forged one, or with the API token itself', async () => {
    const before = upstreamCount();
    const routes: [string, string, unknown][] = [
      ['POST', '/agent/generate', { prompt }],
      ['POST', `/agent/generate/${aliceProject}`, { prompt }],
      ['GET', `/agent/project/${aliceProject}`, undefined],
      ['POST', '/deployments/vercel/connections', { external_user_id: 'alice', token: 'alice-vercel:4' }],
      ['GET', '/deployments/vercel/connections/alice', undefined],
      ['GET', '/deployments/vercel/connections', undefined],
      ['POST', `/deployments/vercel/project/${aliceProject}/deploy`, {}],
      ['POST', '/codehost/connect/start', { external_user_id: 'alice' }],
      ['GET', '/codehost/connections/alice', undefined],
      ['GET', '/codehost/connections', undefined],
      ['GET', '/codehost/connections/alice/repositories', undefined],
      ['POST', `/codehost/project/${aliceProject}/link`, {}],
      ['POST', `/codehost/project/${aliceProject}/push`, {}],
      ['GET', '/subscription-plans', undefined],
    ];
    const credentials: Record<string, string>[] = [
      {},
      { cookie: 'session=forged-session-id' },
      { cookie: 'session=' },
      { authorization: `Bearer ${stack.mock.token}` },
    ];
    for (const [method, path, body] of routes) {
      for (const headers of credentials) {
        const response = await rawRequest(
          stack.origin,
          method,
          `${basePath}${path}`,
          body === undefined
            ? { headers }
            : { headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) },
        );
        expect(response.status, `${method} ${path}`).toBe(401);
        const parsed = JSON.parse(response.body) as Record<string, unknown>;
        expect(parsed.message).toBe('Unauthorized.');
        expect(parsed).toEqual(
          path.startsWith('/agent/')
            ? { status: false, message: 'Unauthorized.' }
            : { success: false, message: 'Unauthorized.', data: null, errors: null },
        );
      }
    }
    expect(upstreamCount()).toBe(before);
    const error = await refusal(stack.client().getProject(aliceProject));
    expect(error.kind).toBe('unauthorized');
  });

  it('answers an oversized body with 413 in the spec shape, declared or streamed', async () => {
    const before = upstreamCount();
    const error = await refusal(alice.generate({ prompt: `${prompt} ${'and more '.repeat(40_000)}` }));
    expect(error.status).toBe(413);
    const streamed = await rawRequest(stack.origin, 'POST', `${basePath}/codehost/project/${aliceProject}/push`, {
      headers: { cookie: sessionCookie('alice'), 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: JSON.stringify({ repo_name: 'x'.repeat(400_000) }),
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toEqual({
      success: false,
      message: 'The request body is too large.',
      data: null,
      errors: null,
    });
    expect(upstreamCount()).toBe(before);
  });

  it('never lets an id inject a header', async () => {
    const before = upstreamCount();
    const injections = [
      `/agent/project/${aliceProject}%0D%0ASet-Cookie:%20pwned=1`,
      '/codehost/connections/alice%0d%0aLocation:%20https:%2F%2Fevil.test',
      '/deployments/vercel%0D%0AX-Injected:%201/connections/alice',
      `/agent/project/${aliceProject}%00`,
    ];
    for (const path of injections) {
      const response = await rawRequest(stack.origin, 'GET', `${basePath}${path}`, {
        headers: { cookie: sessionCookie('alice') },
      });
      expect(response.status).toBe(404);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.headers.location).toBeUndefined();
      expect(response.headers['x-injected']).toBeUndefined();
      expect(JSON.stringify(response.headers)).not.toContain('pwned');
    }
    // The library's own client refuses such an id before sending anything.
    expect(await refusal(alice.getProject('p\r\nSet-Cookie: pwned=1'))).toMatchObject({
      kind: 'validation',
      message: 'That is not a project id.',
    });
    expect(upstreamCount()).toBe(before);
  });

  it('refuses a cross-origin POST carrying the cookie session when CSRF defence is on', async () => {
    const appOrigin = 'https://app.agency.test';
    const guarded = await startMockStack({ proxy: { csrf: { allowedOrigins: [appOrigin] } } });
    try {
      const upstream = () => guarded.mock.api.admin.requests.length;
      const forged = await rawRequest(
        guarded.origin,
        'POST',
        `${basePath}/agent/generate`,
        json('alice', { prompt }, { origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' }),
      );
      expect(forged.status).toBe(403);
      expect(JSON.parse(forged.body)).toEqual({ status: false, message: 'Cross-origin request refused.' });
      const sameSite = await rawRequest(
        guarded.origin,
        'POST',
        `${basePath}/deployments/vercel/connections`,
        json(
          'alice',
          { token: 'alice-vercel:5' },
          { origin: 'https://other.agency.test', 'sec-fetch-site': 'same-site' },
        ),
      );
      expect(sameSite.status).toBe(403);
      expect(upstream()).toBe(0);
      const genuine = await rawRequest(
        guarded.origin,
        'POST',
        `${basePath}/agent/generate`,
        json('alice', { prompt }, { origin: appOrigin, 'sec-fetch-site': 'same-origin' }),
      );
      expect(genuine.status).toBe(200);
      expect(genuine.body).toContain('"stream_end"');
      expect(upstream()).toBe(1);
    } finally {
      await guarded.close();
    }
    // Without the option a cross-site form post still fails: only application/json is accepted.
    const form = await rawRequest(stack.origin, 'POST', `${basePath}/agent/generate`, {
      headers: {
        cookie: sessionCookie('alice'),
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.test',
      },
      body: `prompt=${encodeURIComponent(prompt)}`,
    });
    expect(form.status).toBe(415);
  });
});
