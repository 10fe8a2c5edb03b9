/**
 * `npm run bench:streams`: N concurrent generate streams (default 100 and 1,000) through one proxy in front of
 * the mock, printing completion, events per second and peak memory per stream with the machine. Nothing asserted.
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { startMockAgentServer } from '../src/mock/index.ts';
import { createAgentProxy } from '../src/server/index.ts';

const sizes = (process.env.BENCH_STREAMS ?? '100,1000').split(',').map(Number);

async function run(streams: number): Promise<void> {
  const mock = await startMockAgentServer({ port: 0, speed: 'instant', rateLimit: false, credits: 1e9 });
  const proxy = createAgentProxy({
    apiBaseUrl: mock.url,
    apiToken: mock.token,
    // One end user per stream, as many users' builds are (one user holds at most `maxStreamsPerUser`).
    authorize: (request) => ({ externalUserId: request.headers.get('x-bench-user') ?? 'bench' }),
    rateLimit: false,
  });
  const port = await new Promise<number>((resolve) => {
    serve({ fetch: proxy, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
  });
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: streams }, async (_, index) => {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/agent/generate`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: `http://127.0.0.1:${port}`,
            'x-bench-user': `user-${index}`,
          },
          body: JSON.stringify({ prompt: `Build a todo app number ${index}` }),
        });
        const text = await response.text();
        // Each event is `id: N` then its data (comments, `: ping`, have no data line).
        const events = text.split('\n\n').filter((block) => /^data:/m.test(block));
        return {
          completed: response.status === 200 && events.some((event) => event.includes('"stream_end"')),
          events: events.length,
        };
      } catch {
        return { completed: false, events: 0 };
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const completed = results.filter((result) => result.completed).length;
  const events = results.reduce((sum, result) => sum + result.events, 0);
  console.log(
    `${streams} streams: ${completed}/${streams} completed in ${seconds.toFixed(2)} s, ` +
      `${Math.round(events / seconds)} events/s, peak memory ${((peak - baseline) / streams / 1024).toFixed(1)} KiB/stream`,
  );
  await proxy.drain();
  await mock.close();
}

console.log(`machine: ${cpus().length} cpus (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}`);
for (const size of sizes) await run(size);
process.exit(0);
