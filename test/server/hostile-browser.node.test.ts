/**
 * A hostile browser signed in as alice, against a scripted upstream (regression tests from a red-team review):
 * encoded, traversing and prototype-named ids, other users in paths and bodies, forged identity and return URLs,
 * odd bodies and content types, odd resume ids, racing generates against a quota, cross-site POSTs.
 */
import { describe, expect, it } from 'vitest';
import { generationOfEventId } from 'agent-embed/core';
import type { AgentProxyOptions } from 'agent-embed/server';
import {
  appOrigin,
  browserRequest,
  createTwoUserProxy,
  json,
  proxyBasePath as basePath,
  specAnswer,
  type UpstreamCall,
  sse,
} from './scripted-upstream.js';

function setup(
  answer: (call: UpstreamCall) => Response | Promise<Response> = specAnswer,
  options: Partial<AgentProxyOptions> = {},
) {
  return createTwoUserProxy(answer, options, { 'p-alice': 'alice', 'p-bob': 'bob', __proto__x: 'bob' } as Record<
    string,
    string
  >);
}

const call = browserRequest;

describe('routing: odd paths, encodings, methods', () => {
  it("never reaches bob's project through encodings, dot segments, double slashes or case", async () => {
    const { proxy, upstream } = setup();
    const paths = [
      '/agent/project/p-bob',
      '/agent/project/p%2Dbob',
      '/agent/project/%70-bob',
      '/agent/project/p-alice/../p-bob',
      '/agent/project/p-alice/%2e%2e/p-bob',
      '/agent/project/p-alice%2F..%2Fp-bob',
      '/agent//project/p-bob',
      '//agent/project/p-bob',
      '/agent/project/p-bob/',
      '/agent/project/p-bob?project=p-alice',
      '/Agent/Project/p-bob',
      '/agent/project/p\u2010bob',
      '/agent/project/p-bob%00',
      '/agent/project/p-bob;x',
      '/projects/p-bob/conversation',
      '/projects/p-alice/../p-bob/conversation',
      '/projects/p-bob/events',
      '/projects/p-bob/events?after=0',
    ];
    for (const path of paths) {
      const response = await proxy(call('GET', path));
      expect([404], path).toContain(response.status);
      expect(await response.text(), path).not.toContain('bob@');
    }
    expect(upstream.calls).toHaveLength(0);
  });

  it('answers 404 to HEAD, OPTIONS, PUT, DELETE, PATCH and lower-case methods on real routes', async () => {
    const { proxy, upstream } = setup();
    for (const method of ['HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH']) {
      const response = await proxy(
        new Request(`${appOrigin}${basePath}/agent/project/p-alice`, { method, headers: { 'x-user': 'alice' } }),
      );
      expect(response.status, method).toBe(404);
    }
    expect(upstream.calls).toHaveLength(0);
  });

  it('treats prototype names as ordinary unknown ids (no owner, 404, nothing upstream)', async () => {
    const { proxy, upstream } = setup();
    for (const id of ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf']) {
      for (const path of [`/agent/project/${id}`, `/projects/${id}/conversation`, `/projects/${id}/events`]) {
        const response = await proxy(call('GET', path));
        expect(response.status, path).toBe(404);
      }
      for (const path of [
        `/agent/generate/${id}`,
        `/codehost/project/${id}/push`,
        `/codehost/project/${id}/link`,
        `/deployments/vercel/project/${id}/deploy`,
      ]) {
        const response = await proxy(
          call('POST', path, { prompt: 'Make it blue please', repo_owner: 'a', repo_name: 'b' }),
        );
        expect(response.status, path).toBe(404);
      }
    }
    expect(upstream.calls).toHaveLength(0);
  });

  it('refuses another user in a path even when it differs only by case, encoding or a prototype name', async () => {
    const { proxy, upstream } = setup();
    for (const user of ['bob', 'ALICE', 'Alice', 'alice%20', '__proto__', 'constructor', 'alice-', 'alic']) {
      const response = await proxy(call('GET', `/codehost/connections/${user}`));
      expect([403, 404], user).toContain(response.status);
      const repos = await proxy(call('GET', `/codehost/connections/${user}/repositories?page=1`));
      expect([403, 404], user).toContain(repos.status);
      const deployment = await proxy(call('GET', `/deployments/vercel/connections/${user}`));
      expect([403, 404], user).toContain(deployment.status);
    }
    expect(upstream.calls).toHaveLength(0);
  });
});

describe('bodies: smuggling, duplicates, prototype keys', () => {
  it('builds the upstream body from the allow-list, whatever duplicates and prototype keys the browser sends', async () => {
    const { proxy, upstream } = setup((call) =>
      call.url.pathname.endsWith('/connect/start')
        ? json({
            success: true,
            message: 'ok',
            data: { redirect_url: 'https://github.com/apps/x/installations/new', state: 's' },
            errors: null,
          })
        : specAnswer(call),
    );
    const bodies = [
      '{"external_user_id":"bob","external_user_id":"alice","repo_owner":"a","repo_name":"b"}',
      '{"__proto__":{"external_user_id":"bob","admin":true},"repo_owner":"a","repo_name":"b"}',
      '{"constructor":{"prototype":{"external_user_id":"bob"}},"repo_owner":"a","repo_name":"b"}',
      '{"repo_owner":"a","repo_name":"b","external_user_email":"bob@example.test","external_user_name":"Bob","token":"x","return_url":"https://evil.example"}',
      '{"repo_owner":{"toString":"bob"},"repo_name":["b"],"private":"true","branch":1}',
    ];
    for (const text of bodies) {
      const response = await proxy(call('POST', '/codehost/project/p-alice/link', text));
      expect(response.status, text).toBeLessThan(500);
    }
    for (const sent of upstream.calls) {
      const body = JSON.parse(sent.body ?? '{}') as Record<string, unknown>;
      expect(
        Object.keys(body)
          .sort()
          .every((key) => ['external_user_id', 'repo_name', 'repo_owner'].includes(key)),
      ).toBe(true);
      expect(body.external_user_id).toBe('alice');
      expect(sent.body).not.toContain('bob');
      expect(sent.body).not.toContain('__proto__');
      expect(sent.body).not.toContain('evil');
    }
    // Prototype keys left Object.prototype alone.
    expect(({} as Record<string, unknown>).external_user_id).toBeUndefined();
    expect(({} as Record<string, unknown>).admin).toBeUndefined();

    // The connect route: a duplicate external_user_email / name / return_url never passes; the session's does.
    const started = await proxy(
      call(
        'POST',
        '/codehost/connect/start',
        '{"return_url":"/ok","return_url":"javascript:alert(1)","external_user_email":"bob@example.test","external_user_email":"alice@example.test"}',
      ),
    );
    expect(started.status).toBe(422);
    const ok = await proxy(
      call(
        'POST',
        '/codehost/connect/start',
        '{"return_url":"javascript:alert(1)","return_url":"/projects/1","external_user_email":"bob@example.test"}',
      ),
    );
    expect(ok.status).toBe(200);
    const last = upstream.calls.at(-1);
    expect(JSON.parse(last?.body ?? '{}')).toEqual({
      external_user_id: 'alice',
      external_user_name: 'Alice',
      external_user_email: 'alice@example.test',
      return_url: `${appOrigin}/projects/1`,
    });
  });

  it('refuses a generate mode the spec does not name, before the quota and the upstream; sends build and design on', async () => {
    const { proxy, upstream } = setup(() => sse({ type: 'stream_end', project_id: 'p-new' }), {
      quota: { generations: 1, per: 'day' },
    });
    for (const mode of ['DESIGN-premium', 'Design', 'build ', '', null, 1, true, ['design'], { build: true }]) {
      const response = await proxy(call('POST', '/agent/generate', { prompt: 'A bakery site', mode }));
      expect(response.status, JSON.stringify(mode)).toBe(422);
      expect(await response.json()).toMatchObject({
        message: 'The mode must be build or design.',
        errors: { mode: ['The mode must be build or design.'] },
      });
    }
    expect(upstream.calls).toHaveLength(0);
    // None of them spent the quota of one build a day.
    const design = await proxy(call('POST', '/agent/generate', { prompt: 'A bakery site', mode: 'design' }));
    expect(design.status).toBe(200);
    await design.text();
    expect(JSON.parse(upstream.calls[0]?.body ?? '{}')).toMatchObject({ mode: 'design' });
  });

  it('refuses content-type, length and JSON tricks without 500 and without reaching the upstream', async () => {
    const { proxy, upstream } = setup();
    const cases: { body: string; headers?: Record<string, string>; status: number[] }[] = [
      {
        body: 'prompt=Make+it+blue+please',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        status: [415],
      },
      { body: '{"prompt":"Make it blue please"}', headers: { 'content-type': 'text/plain' }, status: [415] },
      { body: '{"prompt":"Make it blue please"}', headers: { 'content-type': '' }, status: [415] },
      { body: '["prompt"]', status: [400] },
      { body: 'null', status: [400] },
      { body: '"x"', status: [400] },
      { body: '{"prompt":"Make it blue please"', status: [400] },
      { body: '', status: [400] },
      { body: '   ', status: [400] },
      { body: `{"a":${'['.repeat(65)}${']'.repeat(65)}}`, status: [400] },
      { body: `{"prompt":"${'x'.repeat(300 * 1024)}"}`, status: [413] },
    ];
    for (const { body, headers, status } of cases) {
      const response = await proxy(call('POST', '/agent/generate/p-alice', body, headers));
      expect(status, body.slice(0, 40)).toContain(response.status);
    }
    expect(upstream.calls).toHaveLength(0);
  });

  it('refuses a declared content-length larger than the limit without reading, and a lying short one by the real size', async () => {
    const { proxy, upstream } = setup();
    const declaredHuge = await proxy(
      new Request(`${appOrigin}${basePath}/agent/generate/p-alice`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-user': 'alice', 'content-length': '99999999999' },
        body: '{"prompt":"Make it blue please"}',
      }),
    );
    expect(declaredHuge.status).toBe(413);
    // A chunked body with no length, 2 MiB long.
    const big = new TextEncoder().encode(`{"prompt":"${'y'.repeat(2 * 1024 * 1024)}"}`);
    const chunked = await proxy(
      new Request(`${appOrigin}${basePath}/agent/generate/p-alice`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-user': 'alice' },
        body: new ReadableStream({
          start(controller) {
            for (let offset = 0; offset < big.length; offset += 65536)
              controller.enqueue(big.slice(offset, offset + 65536));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit),
    );
    expect(chunked.status).toBe(413);
    expect(upstream.calls).toHaveLength(0);
  });
});

describe('return URLs', () => {
  it('refuses every foreign or non-http return_url with 422 and never sends one upstream', async () => {
    const { proxy, upstream } = setup(() =>
      json({
        success: true,
        message: 'ok',
        data: { redirect_url: 'https://github.com/apps/x/installations/new', state: 's' },
        errors: null,
      }),
    );
    const hostile = [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      'file:///etc/passwd',
      '//evil.example',
      '///evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'https://evil.example',
      'https://app.example.test.evil.example',
      'https://app.example.test@evil.example',
      'https://user:pass@app.example.test/x',
      'http://app.example.test',
      'https://app.example.test:444',
      ' https://app.example.test',
      'https://app.example.test\t',
      'https:/evil.example',
      'https://evil.example%2F@app.example.test',
      '/x\r\nLocation: https://evil.example',
      'https://\u0430pp.example.test',
      'https://app.example.test\u3002evil.example',
      'ftp://app.example.test',
      // Normalised to a path starting with `//`: the app origin's, but a redirect to that path leaves it.
      '/..//evil.example',
      '/.//evil.example',
      '/%2e%2e//evil.example',
      '/x/..//evil.example',
      'https://app.example.test//evil.example',
      'https://app.example.test/..//evil.example',
      '',
      42,
      ['/x'],
      { href: '/x' },
    ];
    for (const value of hostile) {
      const response = await proxy(call('POST', '/codehost/connect/start', { return_url: value }));
      expect(response.status, JSON.stringify(value)).toBe(422);
    }
    expect(upstream.calls).toHaveLength(0);
  });

  it('accepts the app origin in any spelling and sends it normalised', async () => {
    const { proxy, upstream } = setup(() =>
      json({
        success: true,
        message: 'ok',
        data: { redirect_url: 'https://github.com/apps/x/installations/new', state: 's' },
        errors: null,
      }),
    );
    for (const value of ['HTTPS://APP.EXAMPLE.TEST:443/x', '/x/../y', '/%2F%2Fevil.example']) {
      const response = await proxy(call('POST', '/codehost/connect/start', { return_url: value }));
      expect(response.status, value).toBe(200);
    }
    for (const sent of upstream.calls) {
      expect(new URL(String(JSON.parse(sent.body ?? '{}').return_url)).origin).toBe(appOrigin);
    }
  });
});

describe('events route: resume ids', () => {
  it('never serves another generation or another user, nor 500, for odd Last-Event-ID / ?after values', async () => {
    const { proxy } = setup((call) =>
      call.url.pathname.endsWith('/generate/p-alice')
        ? sse(
            { type: 'tool_progress', tool: 'write' },
            { type: 'stream_end', project_id: 'p-alice', app_url: 'https://a.example' },
          )
        : call.url.pathname.endsWith('/generate/p-bob')
          ? sse(
              { type: 'tool_progress', tool: 'bob-secret' },
              { type: 'stream_end', project_id: 'p-bob', app_url: 'https://b.example' },
            )
          : specAnswer(call),
    );
    // Two generations of p-alice: the first replaced by the second.
    await (await proxy(call('POST', '/agent/generate/p-alice', { prompt: 'Make it blue please' }))).text();
    await (await proxy(call('POST', '/agent/generate/p-alice', { prompt: 'Make it green please' }))).text();
    await (await proxy(call('POST', '/agent/generate/p-bob', { prompt: 'Make it blue please' }, {}, 'bob'))).text();
    const ids = [
      '-1',
      '-1000000001',
      '1e3',
      '0x1',
      'NaN',
      'Infinity',
      '99999999999999999999',
      '9007199254740993',
      '1000000001',
      '2000000001',
      // The last ids a generation could have: each asks for the generation after it from its start (the second), or
      // for one p-alice does not have yet.
      '1000000000',
      '2000000000',
      '999999999',
      ' 1 ',
      '1.5',
      '',
      'abc',
      '0,5',
    ];
    let servedEvents = 0;
    for (const id of ids) {
      for (const request of [
        call('GET', '/projects/p-alice/events', undefined, { 'last-event-id': id }),
        call('GET', `/projects/p-alice/events?after=${encodeURIComponent(id)}`),
        call('GET', `/projects/p-alice/events?after=${encodeURIComponent(id)}&after=0`),
      ]) {
        const response = await proxy(request);
        expect([200, 204], id).toContain(response.status);
        const text = await response.text();
        expect(text, id).not.toContain('bob-secret');
        // Only p-alice's latest generation is ever served, whatever the id asks for: never the one it replaced.
        const served = [...text.matchAll(/^id: (\d+)$/gm)].map((match) => generationOfEventId(Number(match[1])));
        expect(new Set(served), id).toEqual(new Set(served.length === 0 ? [] : [2]));
        servedEvents += served.length;
      }
      const bobs = await proxy(call('GET', '/projects/p-bob/events', undefined, { 'last-event-id': id }));
      expect(bobs.status).toBe(404);
    }
    // The ids read as 0 (from the start), and the first generation's last id, did replay it: the check saw events.
    expect(servedEvents).toBeGreaterThan(0);
  });

  it('reads a blank Last-Event-ID as none: `?after` still says where the replay starts', async () => {
    const { proxy } = setup(() =>
      sse(
        { type: 'tool_progress', tool: 'write' },
        { type: 'stream_end', project_id: 'p-alice', app_url: 'https://a.example' },
      ),
    );
    await (await proxy(call('POST', '/agent/generate/p-alice', { prompt: 'Make it blue please' }))).text();
    for (const blank of ['', '   ']) {
      const response = await proxy(
        call('GET', '/projects/p-alice/events?after=1', undefined, { 'last-event-id': blank }),
      );
      expect([...(await response.text()).matchAll(/^id: (\d+)$/gm)].map((match) => match[1])).toEqual(['2']);
    }
  });
});

describe('quota races', () => {
  it('never lets concurrent generates and follow-ups of one user pass the quota, nor lets refusals inflate it', async () => {
    let calls = 0;
    const { proxy, upstream } = setup(
      async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        // Every third upstream answer refuses before the stream starts (given back).
        if (calls % 3 === 0) return json({ status: false, message: 'Not enough credits.' }, 400);
        return sse({ type: 'stream_end', project_id: 'p-alice', app_url: 'https://a.example' });
      },
      { quota: { generations: 4, per: 'day' } },
    );
    const requests = Array.from({ length: 40 }, (_, index) =>
      proxy(
        index % 2 === 0
          ? call('POST', '/agent/generate', { prompt: 'A landing page for a bakery' })
          : call('POST', '/agent/generate/p-alice', { prompt: 'Make it blue please' }),
      ),
    );
    const responses = await Promise.all(requests);
    const accepted = responses.filter(
      (response) => response.status === 200 && response.headers.get('content-type') === 'text/event-stream',
    );
    for (const response of responses) await response.text();
    expect(accepted.length).toBeLessThanOrEqual(4);
    const usage = (await (await proxy(call('GET', '/usage'))).json()) as { used: number };
    expect(usage.used).toBe(accepted.length);
    expect(upstream.calls.length).toBeLessThanOrEqual(40);
  });
});

describe('CSRF', () => {
  it('refuses cross-site POSTs with spoofable-looking Origin values', async () => {
    const { proxy, upstream } = setup(specAnswer, { csrf: { allowedOrigins: [appOrigin] } });
    for (const headers of [
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
      { origin: `${appOrigin}.evil.example`, 'sec-fetch-site': 'cross-site' },
      { origin: `${appOrigin}/`, 'sec-fetch-site': 'cross-site' },
      { origin: 'HTTPS://APP.EXAMPLE.TEST', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
    ]) {
      const response = await proxy(
        call('POST', '/codehost/project/p-alice/link', { repo_owner: 'a', repo_name: 'b' }, headers),
      );
      expect(response.status, JSON.stringify(headers)).toBe(403);
    }
    expect(upstream.calls).toHaveLength(0);
  });
});
