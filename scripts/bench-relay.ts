/**
 * `npm run bench:relay`: what the proxy's relay costs, in one run: events per second through a generate
 * stream and the latency it adds per event (p50, p99), for the upstream read directly, through the proxy on
 * the memory store, and through the proxy on a Redis store (Debian's redis-server, started here on a free
 * port; skipped when absent), and the JavaScript heap each event allocates on the way (V8's sampling heap
 * profiler, collected objects included: what the garbage collector must clear). Printed as ratios to direct; never asserted.
 */
import { spawn } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  createAgentProxy,
  createMemoryProxyStore,
  createRedisProxyStore,
  type ProxyStore,
} from '../src/server/index.ts';

const throughputEvents = Number(process.env.BENCH_EVENTS ?? 5_000);
const latencyEvents = Number(process.env.BENCH_LATENCY_EVENTS ?? 400);
const latencyGapMs = 2;
const encoder = new TextEncoder();

/** An upstream generate stream: all events at once in 16 KiB chunks, or one event every `gapMs`. */
function upstreamStream(count: number, gapMs: number): ReadableStream<Uint8Array> {
  let index = 0;
  const event = (type: string, extra: object) => `data: ${JSON.stringify({ type, ...extra })}\n\n`;
  const next = () => {
    if (index === 0)
      return event('project_created', {
        project_id: `bench-${Math.random().toString(36).slice(2)}`,
        app_url: 'https://bench.test/',
      });
    if (index === count - 1) return event('stream_end', { project_id: 'bench', app_url: 'https://bench.test/' });
    // The send time rides in the path: the proxy relays only an event's allow-listed fields.
    return event('file_created', { path: `src/generated/${performance.now()}/component-${index}.tsx` });
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (index >= count) return controller.close();
      if (gapMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, gapMs));
        controller.enqueue(encoder.encode(next()));
        index++;
        return;
      }
      let text = '';
      while (index < count && text.length < 16 * 1024) {
        text += next();
        index++;
      }
      controller.enqueue(encoder.encode(text));
    },
  });
}

/** Reads a stream to its end; returns the event count and each event's delay since it was sent. */
async function consume(body: ReadableStream<Uint8Array>): Promise<{ events: number; delays: number[] }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let events = 0;
  const delays: number[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let end = text.indexOf('\n\n');
    while (end !== -1) {
      const data = text
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data: '));
      text = text.slice(end + 2);
      if (data !== undefined) {
        events++;
        const { path } = JSON.parse(data.slice(6)) as { path?: string };
        const sent = path === undefined ? undefined : /^src\/generated\/([\d.]+)\//.exec(path)?.[1];
        if (sent !== undefined) delays.push(performance.now() - Number(sent));
      }
      end = text.indexOf('\n\n');
    }
  }
  return { events, delays };
}

type Path = (count: number, gapMs: number) => Promise<ReadableStream<Uint8Array>>;

function throughProxy(store: ProxyStore, extra: { quota?: { generations: number; per: 'day' } } = {}): Path {
  let upstream: ReadableStream<Uint8Array> | undefined;
  const proxy = createAgentProxy({
    apiBaseUrl: 'https://api.bench.test/api/v1',
    apiToken: 'bench-token',
    authorize: () => ({ externalUserId: 'bench-user' }),
    store,
    rateLimit: false,
    heartbeatMs: 0,
    ...extra,
    fetch: async () =>
      new Response(upstream as ReadableStream<Uint8Array>, { headers: { 'content-type': 'text/event-stream' } }),
  });
  return async (count, gapMs) => {
    upstream = upstreamStream(count, gapMs);
    const response = await proxy(
      new Request('https://agency.bench.test/agent/generate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'A benchmark project with many files' }),
      }),
    );
    if (response.body === null || response.status !== 200) throw new Error(`The proxy answered ${response.status}.`);
    return response.body;
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

const inspector = new Session();
inspector.connect();

/** Bytes of JavaScript heap a run of `path` allocates (sampled every KiB), objects collected meanwhile included. */
async function allocatedBytes(path: Path): Promise<number> {
  await inspector.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await consume(await path(throughputEvents, 0));
  const { profile } = await inspector.post('HeapProfiler.stopSampling');
  const sum = (node: typeof profile.head): number =>
    node.selfSize + node.children.reduce((total, child) => total + sum(child), 0);
  return sum(profile.head);
}

async function measure(path: Path) {
  await consume(await path(200, 0));
  const started = performance.now();
  const { events } = await consume(await path(throughputEvents, 0));
  const perSecond = events / ((performance.now() - started) / 1000);
  const { delays } = await consume(await path(latencyEvents, latencyGapMs));
  const bytesPerEvent = (await allocatedBytes(path)) / events;
  return { perSecond, p50: percentile(delays, 50), p99: percentile(delays, 99), bytesPerEvent };
}

async function startRedis(): Promise<{ url: string; stop(): void } | undefined> {
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
  const dir = mkdtempSync(join(tmpdir(), 'agent-embed-bench-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const child = spawn(process.env.REDIS_SERVER ?? 'redis-server', args, { stdio: 'ignore' });
  const failed = await new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(true));
    setTimeout(() => resolve(child.exitCode !== null), 300);
  });
  const stop = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  if (failed) {
    stop();
    return undefined;
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}

const direct: Path = async (count, gapMs) => upstreamStream(count, gapMs);
const rows: [string, Awaited<ReturnType<typeof measure>>][] = [['direct', await measure(direct)]];
rows.push(['memory store', await measure(throughProxy(createMemoryProxyStore()))]);
// A quota costs one store round trip per generation (its check and count), not per event.
rows.push([
  'memory + quota',
  await measure(throughProxy(createMemoryProxyStore(), { quota: { generations: 1_000_000, per: 'day' } })),
]);
const redis = await startRedis();
if (redis === undefined) console.log('redis-server not found: the Redis row is skipped.');
else {
  const store = createRedisProxyStore({ url: redis.url, keyPrefix: 'bench:' });
  try {
    await store.ready();
    rows.push(['redis store', await measure(throughProxy(store))]);
  } finally {
    await store.close();
    redis.stop();
  }
}
const base = rows[0]?.[1] as Awaited<ReturnType<typeof measure>>;
console.log(`relay: ${throughputEvents} events at full speed, ${latencyEvents} events one per ${latencyGapMs} ms`);
for (const [name, row] of rows) {
  console.log(
    `${name.padEnd(13)} ${Math.round(row.perSecond).toString().padStart(8)} events/s (x${(base.perSecond / row.perSecond).toFixed(2)} slower)` +
      `  p50 ${row.p50.toFixed(2)} ms (+${(row.p50 - base.p50).toFixed(2)})  p99 ${row.p99.toFixed(2)} ms (+${(row.p99 - base.p99).toFixed(2)})` +
      `  ${(row.bytesPerEvent / 1024).toFixed(1)} KiB allocated per event (x${(row.bytesPerEvent / base.bytesPerEvent).toFixed(1)})`,
  );
}

/** A slow reader: a 32 MB build whose browser stops reading; how many bytes the proxy holds for it meanwhile. */
async function slowReader(): Promise<{ heldBytes: number; heapGrowth: number }> {
  const event = `data: ${JSON.stringify({ type: 'file_created', path: `src/${'x'.repeat(1000)}.tsx` })}\n\n`;
  const chunk = encoder.encode(event.repeat(64));
  const total = 32 * 1024 * 1024;
  let pulled = 0;
  const proxy = createAgentProxy({
    apiBaseUrl: 'https://api.bench.test/api/v1',
    apiToken: 'bench-token',
    authorize: () => ({ externalUserId: 'bench-user' }),
    rateLimit: false,
    heartbeatMs: 0,
    slowReaderMs: 0,
    fetch: async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulled >= total) return controller.close();
            pulled += chunk.length;
            controller.enqueue(chunk);
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
  });
  const heapBefore = process.memoryUsage().heapUsed;
  const response = await proxy(
    new Request('https://agency.bench.test/agent/generate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'A benchmark project with many files' }),
    }),
  );
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let read = (await reader.read()).value?.length ?? 0;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const heldBytes = pulled - read;
  const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.length;
  }
  return { heldBytes, heapGrowth };
}
const slow = await slowReader();
inspector.disconnect();
console.log(
  `slow reader   32 MB build, browser paused 500 ms: ${(slow.heldBytes / 1024 / 1024).toFixed(2)} MB held for it ` +
    `(buffer cap 1 MiB), heap +${(slow.heapGrowth / 1024 / 1024).toFixed(1)} MB`,
);
