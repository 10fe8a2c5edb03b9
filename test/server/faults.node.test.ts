/** Fault injection on real sockets: a scripted upstream misbehaves and the proxy still answers within its limits. */
import { afterEach, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { createAgentProxy } from 'agent-embed/server';
import {
  authorize,
  basePath,
  openEventStream,
  serveHandler,
  sessionCookie,
  startProxy,
  startScriptedUpstream,
  type ScriptedExchange,
} from './proxy-stack.js';

const prompt = 'A landing page for a neighbourhood bakery';
const limitMs = 300;
const cleanup: (() => Promise<void>)[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
process.on('unhandledRejection', onUnhandled);

afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
  expect(unhandled).toEqual([]);
});

async function faultyStack() {
  const upstream = await startScriptedUpstream();
  const stack = await startProxy(upstream.url, upstream.token, {
    upstreamHeadersTimeoutMs: limitMs,
    upstreamIdleTimeoutMs: limitMs,
    heartbeatMs: 50,
  });
  cleanup.push(upstream.close, stack.close);
  return { upstream, stack };
}

describe('proxy under upstream faults', () => {
  it('answers 504 once when the upstream hangs before headers, and aborts the upstream request', async () => {
    const { upstream, stack } = await faultyStack();
    const started = performance.now();
    const refused = fetch(`${stack.proxyUrl}/agent/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: sessionCookie('alice'), origin: stack.origin },
      body: JSON.stringify({ prompt }),
    });
    const exchange = await upstream.next();
    const upstreamClosed = new Promise<void>((resolve) => exchange.response.on('close', () => resolve()));
    const answer = await refused;
    const elapsed = performance.now() - started;
    expect(answer.status).toBe(504);
    expect(((await answer.json()) as { message: string }).message).toBe('The Agent API did not answer in time.');
    expect(elapsed).toBeGreaterThanOrEqual(limitMs - 20);
    expect(elapsed).toBeLessThan(limitMs * 5);
    await upstreamClosed;
    // Exactly one POST reached the upstream: nothing was retried.
    const another = await Promise.race([upstream.next(), new Promise((resolve) => setTimeout(resolve, 100, 'none'))]);
    expect(another).toBe('none');
    expect(stack.logs.find((entry) => entry.status === 504)?.reason).toBe('upstream headers timeout');
  });

  it('ends a stalled stream as interrupted after the idle limit, heartbeats notwithstanding, and cancels upstream', async () => {
    const { upstream, stack } = await faultyStack();
    const response = fetch(`${stack.proxyUrl}/agent/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: sessionCookie('alice'), origin: stack.origin },
      body: JSON.stringify({ prompt }),
    });
    const exchange = await upstream.next();
    const upstreamClosed = new Promise<void>((resolve) => exchange.response.on('close', () => resolve()));
    const events = openEventStream(exchange);
    events.event({ type: 'project_created', project_id: 'p-stall', app_url: 'https://p-stall.example' });
    const answered = await response;
    expect(answered.status).toBe(200);
    const lastUpstreamByte = performance.now();
    const text = await answered.text();
    const elapsed = performance.now() - lastUpstreamByte;
    expect(text).toContain('"project_created"');
    expect(text).toContain(': ping');
    expect(text).not.toMatch(/"type":"(complete|error)"/);
    expect(elapsed).toBeGreaterThanOrEqual(limitMs - 50);
    await upstreamClosed;
    expect(stack.logs.filter((entry) => entry.event === 'upstream_timeout')).toHaveLength(1);
  });
});

describe('return_url', () => {
  async function connect(stack: Awaited<ReturnType<typeof faultyStack>>['stack'], return_url: unknown) {
    return fetch(`${stack.proxyUrl}/codehost/connect/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: sessionCookie('alice'), origin: stack.origin },
      body: JSON.stringify({ return_url }),
    });
  }

  it('refuses another origin by default, and tricky spellings of it', async () => {
    const { stack } = await faultyStack();
    for (const url of [
      'https://evil.example/back',
      ` ${stack.origin}/back`,
      'https://a@evil.example/',
      'http:evil.example',
    ]) {
      const answer = await connect(stack, url);
      expect(answer.status).toBe(422);
      await answer.body?.cancel();
    }
  });

  it('sends the normalised URL of the request origin upstream', async () => {
    const { upstream, stack } = await faultyStack();
    const answer = connect(stack, `${stack.origin}/a/../back`);
    const exchange = await upstream.next();
    expect(JSON.parse(exchange.body)).toMatchObject({ return_url: `${stack.origin}/back` });
    exchange.response.writeHead(200, { 'content-type': 'application/json' });
    exchange.response.end(JSON.stringify({ success: true, message: 'ok', data: {}, errors: null }));
    expect((await answer).status).toBe(200);
  });
});

describe('drain', () => {
  it('ends open streams without a terminal event and refuses new generations with 503', async () => {
    const upstream = await startScriptedUpstream();
    const proxy = createAgentProxy({
      apiBaseUrl: upstream.url,
      apiToken: upstream.token,
      basePath,
      authorize,
      upstreamHeadersTimeoutMs: limitMs,
      upstreamIdleTimeoutMs: 0,
    });
    const served = await serveHandler(proxy);
    cleanup.push(upstream.close, served.close);
    const generate = () =>
      fetch(`${served.origin}${basePath}/agent/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: sessionCookie('alice'), origin: served.origin },
        body: JSON.stringify({ prompt }),
      });
    const open = generate();
    const exchange = await upstream.next();
    const upstreamClosed = new Promise<void>((resolve) => exchange.response.on('close', () => resolve()));
    openEventStream(exchange).event({ type: 'project_created', project_id: 'p-drain', app_url: 'https://p.example' });
    const answer = await open;
    const text = answer.text();
    await proxy.drain();
    expect(await text).toContain('"project_created"');
    expect(await text).not.toMatch(/"type":"(complete|error)"/);
    await upstreamClosed;
    const refused = await generate();
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'The service is restarting. Please try again in a moment.',
    );
    // The refused generation never reached the upstream.
    const another = await Promise.race([upstream.next(), new Promise((resolve) => setTimeout(resolve, 100, 'none'))]);
    expect(another).toBe('none');
  });
});

describe('request body deadline', () => {
  it('answers 408 to a body dripping one byte at a time, and never calls the upstream', async () => {
    const upstream = await startScriptedUpstream();
    const stack = await startProxy(upstream.url, upstream.token, { requestBodyTimeoutMs: limitMs });
    cleanup.push(upstream.close, stack.close);
    const body = JSON.stringify({ prompt });
    const url = new URL(`${stack.proxyUrl}/agent/generate`);
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: url.pathname,
          headers: {
            'content-type': 'application/json',
            'content-length': String(body.length),
            cookie: sessionCookie('alice'),
            origin: stack.origin,
          },
        },
        (response) => {
          clearInterval(drip);
          response.resume();
          resolve(response.statusCode ?? 0);
          request.destroy();
        },
      );
      request.on('error', reject);
      let sent = 0;
      const drip = setInterval(() => {
        if (sent < body.length) request.write(body[sent++]);
      }, 100);
    });
    expect(status).toBe(408);
    const reached = await Promise.race([upstream.next(), new Promise((resolve) => setTimeout(resolve, 50, 'none'))]);
    expect(reached).toBe('none');
  });
});

describe('misbehaving upstream answers', () => {
  async function generateAgainst(answer: (exchange: ScriptedExchange) => void) {
    const { upstream, stack } = await faultyStack();
    const pending = fetch(`${stack.proxyUrl}/agent/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: sessionCookie('alice'), origin: stack.origin },
      body: JSON.stringify({ prompt }),
    });
    answer(await upstream.next());
    const response = await pending;
    const text = await response.text();
    const another = await Promise.race([upstream.next(), new Promise((resolve) => setTimeout(resolve, 50, 'none'))]);
    expect(another).toBe('none');
    return { status: response.status, text };
  }

  it('turns a 5xx HTML page into a JSON 502', async () => {
    const { status, text } = await generateAgainst((exchange) => {
      exchange.response.writeHead(503, { 'content-type': 'text/html' });
      exchange.response.end('<html><body>Bad gateway at internal-host-7</body></html>');
    });
    expect(status).toBe(502);
    expect(text).not.toContain('internal-host-7');
  });

  it('refuses a 200 with the wrong content type', async () => {
    const { status, text } = await generateAgainst((exchange) => {
      exchange.response.writeHead(200, { 'content-type': 'text/plain' });
      exchange.response.end('data: {"type":"complete"}\n\n');
    });
    expect(status).toBe(502);
    expect(text).not.toContain('complete');
  });

  it('ends the stream cleanly when the upstream resets after some bytes', async () => {
    const { status, text } = await generateAgainst((exchange) => {
      openEventStream(exchange).event({ type: 'project_created', project_id: 'p-reset', app_url: 'https://p.example' });
      setTimeout(() => exchange.response.socket?.destroy(), 20);
    });
    expect(status).toBe(200);
    expect(text).toContain('"p-reset"');
  });

  it('relays gzip-encoded SSE decoded and without the upstream encoding', async () => {
    const { status, text } = await generateAgainst((exchange) => {
      exchange.response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      exchange.response.end(gzipSync('data: {"type":"complete","project_id":"p-gzip"}\n\n'));
    });
    expect(status).toBe(200);
    // Decoded, with the SSE id the proxy gives every relayed event.
    expect(text).toMatch(/^data: \{"type":"complete","project_id":"p-gzip"\}\n(id: \d+\n)?\n$/);
  });

  it('relays a 5 MB event intact', async () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    const { status, text } = await generateAgainst((exchange) => {
      const events = openEventStream(exchange);
      events.event({ type: 'tool_progress', detail: big });
      events.end();
    });
    expect(status).toBe(200);
    expect(text.length).toBeGreaterThan(big.length);
    expect(text).toContain(big);
  });
});
