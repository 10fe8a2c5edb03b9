/**
 * `npm run bench:body`: what Chromium's own hand-over of a response body costs the page's main thread, with no code of
 * ours. A page fetches a 2 MB event stream (the size of the 20,000-event build of `bench:browser`, written in 16 KiB
 * chunks) and reads it to the end, doing nothing with the bytes but a short busy slice and a yield per read (as a
 * reader that has work to do); once on the main thread and once in a dedicated worker, with Chromium's CPU throttled
 * BENCH_THROTTLE times (default 4, a mid-range phone). Prints, per mode, the main thread's longest task and its tasks
 * over 50 ms (the Long Tasks API), the reads it took and the time to the end, over BENCH_RUNS interleaved rounds
 * (default 4), and how the two compare. Figures are printed, never asserted.
 */
import { createServer } from 'node:http';
import { launchChromium } from './chromium.ts';

const runs = Number(process.env.BENCH_RUNS ?? 4);
const throttle = Number(process.env.BENCH_THROTTLE ?? 4);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`BENCH_RUNS must be a positive integer, not ${process.env.BENCH_RUNS}.`);
if (!(throttle >= 1)) throw new Error(`BENCH_THROTTLE must be 1 or more, not ${process.env.BENCH_THROTTLE}.`);

const event = 'data: {"type":"file_created","path":"src/components/booking-calendar.tsx"}\n\n';
const body = Buffer.from(event.repeat(Math.ceil((2 * 1024 * 1024) / event.length)));
const chunks: Buffer[] = [];
for (let offset = 0; offset < body.length; offset += 16 * 1024) chunks.push(body.subarray(offset, offset + 16 * 1024));

// The reader, the same code in the page and in the worker: 2 ms of work and a new task per read.
const readBody = `async function readBody() {
  const reader = (await fetch('/stream')).body.getReader();
  let reads = 0;
  for (;;) {
    const { done } = await reader.read();
    if (done) return reads;
    reads++;
    const until = performance.now() + 2;
    while (performance.now() < until);
    await new Promise((resolve) => {
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = resolve;
      port2.postMessage(0);
    });
  }
}`;

const page = `<!doctype html><meta charset="utf-8"><title>body hand-over</title><script>
${readBody}
const longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longTasks.push(entry.duration);
}).observe({ type: 'longtask' });
window.measure = async (inWorker) => {
  const started = performance.now();
  longTasks.length = 0;
  const reads = inWorker
    ? await new Promise((resolve) => (new Worker('/worker.js').onmessage = (message) => resolve(message.data)))
    : await readBody();
  const ms = performance.now() - started;
  // Long tasks are reported after they end.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { ms, reads, longTasks: [...longTasks] };
};
</script>`;

const server = createServer((request, response) => {
  if (request.url === '/stream') {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    let index = 0;
    const write = () => {
      while (index < chunks.length) if (!response.write(chunks[index++])) return void response.once('drain', write);
      response.end();
    };
    write();
  } else if (request.url === '/worker.js') {
    response.writeHead(200, { 'content-type': 'text/javascript' });
    response.end(`${readBody}\nreadBody().then((reads) => postMessage(reads));`);
  } else {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(page);
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
if (address === null || typeof address === 'string') throw new Error('The server has no port.');

interface Run {
  ms: number;
  reads: number;
  longTasks: number[];
}
const results: Record<'main thread' | 'worker', Run[]> = { 'main thread': [], worker: [] };
const browser = await launchChromium();
try {
  for (let round = 0; round < runs; round++) {
    for (const mode of ['main thread', 'worker'] as const) {
      const tab = await browser.newPage();
      const session = await tab.context().newCDPSession(tab);
      if (throttle !== 1) await session.send('Emulation.setCPUThrottlingRate', { rate: throttle });
      await tab.goto(`http://127.0.0.1:${address.port}/`);
      await tab.waitForTimeout(300);
      results[mode].push((await tab.evaluate(`window.measure(${mode === 'worker'})`)) as Run);
      await tab.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}

const round = (value: number) => Math.round(value).toLocaleString('en-US');
console.log(
  `${(body.length / 1024 / 1024).toFixed(1)} MB in ${chunks.length} chunks of 16 KiB, CPU throttled ${throttle}x, ${runs} interleaved rounds`,
);
const longest: Record<string, number> = {};
for (const [mode, list] of Object.entries(results)) {
  const worst = Math.max(0, ...list.flatMap((run) => run.longTasks));
  longest[mode] = worst;
  const over = list.map((run) => run.longTasks.filter((duration) => duration > 50).length);
  console.log(
    `${mode.padEnd(12)} longest main-thread task ${round(worst)} ms; tasks over 50 ms per run ${over.join(', ')}; ` +
      `reads ${list.map((run) => run.reads).join(', ')}; to the end ${list.map((run) => round(run.ms)).join(', ')} ms`,
  );
}
const inWorker = longest.worker ?? 0;
console.log(
  `reading on the main thread: longest task ${round(longest['main thread'] ?? 0)} ms, ` +
    (inWorker > 0
      ? `${((longest['main thread'] ?? 0) / inWorker).toFixed(1)}x the worker's ${round(inWorker)} ms`
      : 'none with the reading in a worker') +
    ' (target: none over 50 ms); no code of ours runs in either',
);
