/** Fault injection on real sockets: a scripted upstream misbehaves and the proxy still answers within its limits. */
import { afterEach, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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

type ProxyStackLike = Awaited<ReturnType<typeof startProxy>>;

/** Alice's generate POST to the proxy, as her browser sends it. */
function postGenerate(stack: ProxyStackLike): Promise<Response> {
  return fetch(`${stack.proxyUrl}/agent/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: sessionCookie('alice'), origin: stack.origin },
    body: JSON.stringify({ prompt }),
  });
}
type UpstreamLike = Awaited<ReturnType<typeof startScriptedUpstream>>;

async function faultyStack(options: Parameters<typeof startProxy>[2] = {}) {
  const upstream = await startScriptedUpstream();
  const stack = await startProxy(upstream.url, upstream.token, {
    upstreamHeadersTimeoutMs: limitMs,
    upstreamIdleTimeoutMs: limitMs,
    heartbeatMs: 50,
    ...options,
  });
  cleanup.push(upstream.close, stack.close);
  return { upstream, stack };
}

/** Alice's generate, answered by the upstream with its project's first event: the stream the test goes on with. */
async function generationStream(projectId: string, options: Parameters<typeof startProxy>[2] = {}) {
  const { upstream, stack } = await faultyStack(options);
  const response = postGenerate(stack);
  const exchange = await upstream.next();
  const upstreamClosed = new Promise<void>((resolve) => exchange.response.on('close', () => resolve()));
  const events = openEventStream(exchange);
  events.event({ type: 'project_created', project_id: projectId, app_url: `https://${projectId}.example` });
  return { upstream, stack, events, upstreamClosed, answered: await response };
}

describe('proxy under upstream faults', () => {
  it('answers 504 once when the upstream hangs before headers, and aborts the upstream request', async () => {
    const { upstream, stack } = await faultyStack();
    const started = performance.now();
    const refused = postGenerate(stack);
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
    const { stack, upstreamClosed, answered } = await generationStream('p-stall');
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

describe('an upstream that drips', () => {
  it('ends the stream within the idle limit when dripped bytes never complete an event', async () => {
    const { upstream, stack, events, upstreamClosed, answered } = await generationStream('p-drip');
    const dripStarted = performance.now();
    // One byte every 40 ms, a seventh of the limit: a byte-level idle timer would never fire.
    const drip = setInterval(() => events.write('x'), 40);
    events.write('data: {"type":"tool_progress","detail":"');
    const text = await answered.text().finally(() => clearInterval(drip));
    const elapsed = performance.now() - dripStarted;
    expect(text).toContain('"p-drip"');
    expect(text).not.toContain('tool_progress');
    expect(elapsed).toBeGreaterThanOrEqual(limitMs - 50);
    expect(elapsed).toBeLessThan(limitMs * 5);
    await upstreamClosed;
    expect(stack.logs.filter((entry) => entry.event === 'upstream_timeout')).toHaveLength(1);
    const another = await Promise.race([upstream.next(), new Promise((resolve) => setTimeout(resolve, 50, 'none'))]);
    expect(another).toBe('none');
  });

  it('ends a stream that never ends at its limit in all, though an event comes well within the stall limit', async () => {
    const { stack, events, upstreamClosed, answered } = await generationStream('p-endless', {
      upstreamStreamTimeoutMs: limitMs * 2,
    });
    // A step every 40 ms, forever: the stall limit (300 ms) never fires.
    let step = 0;
    const endless = setInterval(() => events.event({ type: 'tool_progress', tool: 'lint', message: `${step++}` }), 40);
    const text = await Promise.race([
      answered.text(),
      new Promise<string>((resolve) => setTimeout(resolve, limitMs * 10, 'still open')),
    ]).finally(() => clearInterval(endless));
    expect(text).toContain('"tool_progress"');
    expect(text).not.toMatch(/"type":"(complete|error|stream_end)"/);
    await upstreamClosed;
    expect(stack.logs.filter((entry) => entry.event === 'upstream_timeout')).toEqual([
      expect.objectContaining({ projectId: 'p-endless', reason: 'the upstream stream ran past its limit' }),
    ]);
    // Recorded as interrupted: the browser resumes through the events route, and that ends too.
    const replay = await fetch(`${stack.proxyUrl}/projects/p-endless/events?after=0`, {
      headers: { cookie: sessionCookie('alice') },
    });
    expect(replay.status).toBe(200);
    const replayed = await Promise.race([
      replay.text(),
      new Promise<string>((resolve) => setTimeout(resolve, limitMs * 10, 'still open')),
    ]);
    expect(replayed).toContain('"p-endless"');
    expect(replayed.match(/"tool_progress"/g)?.length).toBe(text.match(/"tool_progress"/g)?.length);
  });
});

describe('after many faults', () => {
  /** The process's open handles by kind (sockets, timers, servers). */
  function handles(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
    return counts;
  }
  const collectGarbage = (): void => {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  };

  /** One generation against an upstream that fails in one of four ways; resolves when the browser's answer ended. */
  async function faultyGeneration(stack: ProxyStackLike, upstream: UpstreamLike, fault: number): Promise<void> {
    const pending = postGenerate(stack);
    const exchange = await upstream.next();
    if (fault === 0) {
      // Hangs before headers: the proxy answers 504.
    } else {
      const events = openEventStream(exchange);
      events.event({ type: 'project_created', project_id: `p-fault-${fault}`, app_url: 'https://p.example' });
      if (fault === 1) events.write('data: {"half'); // stalls mid-event
      if (fault === 2) setTimeout(() => exchange.response.socket?.destroy(), 10); // resets
      if (fault === 3) events.end(); // ends without a terminal event
    }
    const answer = await pending;
    await answer.text();
  }

  it('leaves no open handles and no retained memory once 60 faulty generations have ended', async () => {
    const run = async (count: number) => {
      const upstream = await startScriptedUpstream();
      const stack = await startProxy(upstream.url, upstream.token, {
        upstreamHeadersTimeoutMs: 200,
        upstreamIdleTimeoutMs: 200,
        heartbeatMs: 50,
        rateLimit: false,
        // One user runs them all at once.
        maxStreamsPerUser: 0,
      });
      await Promise.all(Array.from({ length: count }, (_, index) => faultyGeneration(stack, upstream, index % 4)));
      await stack.close();
      await upstream.close();
    };
    // A first round warms up what stays for the process's life (the fetch dispatcher's timers, compiled code).
    await run(8);
    const sockets = () => Object.keys(handles()).filter((kind) => kind.startsWith('TCP')).length;
    await expect.poll(sockets, { timeout: 5_000, interval: 100 }).toBe(0);
    collectGarbage();
    const baselineHandles = handles();
    const baselineHeap = process.memoryUsage().heapUsed;
    await run(60);
    await expect.poll(handles, { timeout: 5_000, interval: 100 }).toEqual(baselineHandles);
    collectGarbage();
    const retained = process.memoryUsage().heapUsed - baselineHeap;
    expect(retained).toBeLessThan(8 * 1024 * 1024);
  }, 30_000);
});

describe('return_url with nothing configured (development: loopback origins only)', () => {
  async function connect(stack: Awaited<ReturnType<typeof faultyStack>>['stack'], return_url: unknown) {
    return fetch(`${stack.proxyUrl}/codehost/connect/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: sessionCookie('alice'), origin: stack.origin },
      body: JSON.stringify({ return_url }),
    });
  }

  it('refuses another origin, and tricky spellings of the loopback one', async () => {
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

  it('sends the normalised loopback URL upstream', async () => {
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
  async function generateAgainst(
    answer: (exchange: ScriptedExchange) => void,
    options: Parameters<typeof startProxy>[2] = {},
  ) {
    const { upstream, stack } = await faultyStack(options);
    const pending = postGenerate(stack);
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
      exchange.response.end(
        gzipSync(
          'data: {"type":"project_created","project_id":"p-gzip"}\n\ndata: {"type":"stream_end","project_id":"p-gzip"}\n\n',
        ),
      );
    });
    expect(status).toBe(200);
    // Decoded, with the SSE id the proxy gives every relayed event.
    expect(text).toMatch(
      /^id: \d+\ndata: \{"type":"project_created","project_id":"p-gzip"\}\n\nid: \d+\ndata: \{"type":"stream_end","project_id":"p-gzip"\}\n\n$/,
    );
  });

  it('relays a 5 MB event intact', async () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    // The idle limit counts whole events, so it must exceed the time the event takes to arrive.
    const { status, text } = await generateAgainst(
      (exchange) => {
        const events = openEventStream(exchange);
        events.event({ type: 'tool_progress', message: big });
        events.end();
      },
      { upstreamIdleTimeoutMs: 10_000 },
    );
    expect(status).toBe(200);
    expect(text.length).toBeGreaterThan(big.length);
    expect(text).toContain(big);
  });
});
