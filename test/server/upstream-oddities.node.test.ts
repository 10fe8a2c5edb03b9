/**
 * Upstream oddities the proxy handles (regression tests from a red-team review): a redirect to another host is
 * never followed with the token, odd statuses are 502s, a JSON route answered with an endless stream is a 504,
 * and a stream's BOM, CRLF, event:, id:, retry: and comment lines never reach the browser.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream, sessionCookie, startProxy, startScriptedUpstream } from './proxy-stack.js';
import { createBodyReader, createStreamingProxy, fakeToken } from './scripted-upstream.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function stack(options: Parameters<typeof startProxy>[2] = {}) {
  const upstream = await startScriptedUpstream();
  const proxy = await startProxy(upstream.url, upstream.token, { heartbeatMs: 0, ...options });
  cleanup.push(upstream.close, proxy.close);
  return { upstream, proxy };
}
const get = (proxy: { proxyUrl: string }, path: string) =>
  fetch(`${proxy.proxyUrl}${path}`, { headers: { cookie: sessionCookie('alice') } });

describe('real sockets', () => {
  it('does not follow a 307 to another host (no token leaves), answers 502', async () => {
    let evilHits = 0;
    const evil = createServer((_, response) => {
      evilHits++;
      response.end('{}');
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise((resolve) => evil.close(() => resolve())));
    const { upstream, proxy } = await stack();
    const answered = get(proxy, '/subscription-plans');
    const exchange = await upstream.next();
    exchange.response.writeHead(307, {
      location: `http://127.0.0.1:${(evil.address() as AddressInfo).port}/steal`,
      'set-cookie': 'a=b',
    });
    exchange.response.end();
    const response = await answered;
    expect(response.status).toBe(502);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(evilHits).toBe(0);
  });

  it('answers 502 (not 500) to status 999 and to a 103 then an HTML 200', async () => {
    const { upstream, proxy } = await stack();
    const first = get(proxy, '/agent/project/p-none');
    // Not owned: 404 without going upstream. Use plans instead.
    expect((await first).status).toBe(404);
    const odd = get(proxy, '/subscription-plans');
    const exchange = await upstream.next();
    exchange.response.writeHead(999, { 'content-type': 'application/json' });
    exchange.response.end('{"success":true,"data":[]}');
    expect((await odd).status).toBe(502);
  });

  it('answers 504 to a JSON route whose answer is an event stream that never ends', async () => {
    const { upstream, proxy } = await stack({ upstreamBodyIdleMs: 200, upstreamBodyTimeoutMs: 600 });
    const answered = get(proxy, '/subscription-plans');
    const exchange = await upstream.next();
    const events = openEventStream(exchange);
    const drip = setInterval(() => events.write(': ping\n\n'), 50);
    const response = await answered;
    clearInterval(drip);
    expect(response.status).toBe(504);
  });
});

describe('scripted stream', () => {
  const appOrigin = 'https://app.example.test';
  const basePath = '/api/agent';
  const post = (path: string, body: unknown) =>
    new Request(`${appOrigin}${basePath}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('re-emits data only (BOM, CRLF, event:, id:, retry:, comments dropped), redacts the token in an HTML error', async () => {
    const { proxy, logs, stream, store } = createStreamingProxy();
    const response = await proxy(post('/agent/generate', { prompt: 'A recipe box with tags please' }));
    const body = createBodyReader(response.body).rest();
    stream.write(new Uint8Array([0xef, 0xbb, 0xbf]));
    stream.write(
      `: hi ${fakeToken}\r\nevent: evil\r\nid: 999\r\nretry: 1\r\ndata: {"type":"project_created","project_id":"../p","app_url":"javascript:alert(1)"}\r\n\r\n`,
    );
    stream.write(`data: {"type":"project_created","project_id":"p-ok"}\r\r`);
    stream.write(new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0xfe, 0x0a, 0x0a])); // invalid UTF-8 data
    stream.write(`data: {"type":"error","message":"<img src=x onerror=alert(1)> \\u0074${fakeToken.slice(1)}"}\n\n`);
    stream.write(`data: {"type":"stream_end","project_id":"p-other"}\n\n`);
    stream.write(`data: {"type":"file_created","path":"late.tsx"}\n\ndata: unterminated`);
    stream.close();
    const text = await body;
    expect(text).not.toContain(fakeToken);
    expect(JSON.stringify(logs)).not.toContain(fakeToken);
    expect(text).not.toMatch(/^(event|retry):/m);
    expect(text).not.toContain('id: 999');
    expect(text).not.toContain('unterminated');
    expect(await store.getProjectOwner('../p')).toBeUndefined();
    expect(await store.getProjectOwner('p-ok')).toBe('alice');
    // The error ended the turn; the later stream_end of another project and the late file change nothing.
    expect((await store.getConversation('p-ok')).at(-1)?.outcome).toMatchObject({ status: 'failed', files_created: 0 });
    expect(await store.getConversation('p-other')).toEqual([]);
  });
});
