/**
 * `npm run bench`: measures the client's streaming pipeline and the store's (parse + reduce into the store,
 * publishing once per frame) against bare JSON.parse on the same stream, in one run, and prints the ratios
 * (target: within 2x) and what the store's flushes cost. Timings are printed, never asserted.
 */
import { performance } from 'node:perf_hooks';
import { createAgentClient, createAgentStore, createHttpTransport } from '../src/core/index.ts';

// fetch-event-source needs window and document; this script is not library code, so it may provide them.
const globals = globalThis as { window?: unknown; document?: unknown };
globals.window ??= globalThis;
globals.document ??= { addEventListener() {}, removeEventListener() {} };

const eventCount = Number(process.env.BENCH_EVENTS ?? 20_000);
const runs = Number(process.env.BENCH_RUNS ?? 21);
const chunkSize = 16 * 1024;

function buildStream(): Uint8Array[] {
  const lines: string[] = [
    `data: ${JSON.stringify({ type: 'project_created', project_id: 'bench', app_url: 'https://bench.apps.test/' })}\n\n`,
  ];
  for (let index = 0; index < eventCount; index++) {
    const event =
      index % 3 === 0
        ? { type: 'tool_progress', tool: 'write_file', message: `Writing component ${index}`, status: 'running' }
        : {
            type: 'file_created',
            path: `src/components/generated/component-${index}.tsx`,
            action: index % 7 === 0 ? 'modified' : 'created',
          };
    lines.push(`data: ${JSON.stringify(event)}\n\n`);
  }
  lines.push(
    `data: ${JSON.stringify({ type: 'stream_end', project_id: 'bench', app_url: 'https://bench.apps.test/' })}\n\n`,
  );
  const bytes = new TextEncoder().encode(lines.join(''));
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += chunkSize) chunks.push(bytes.slice(offset, offset + chunkSize));
  return chunks;
}

const chunks = buildStream();
const totalBytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);

function bareParse(): number {
  const decoder = new TextDecoder();
  let buffer = '';
  let count = 0;
  for (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    let boundary = buffer.indexOf('\n\n');
    while (boundary !== -1) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      if (block.startsWith('data: ')) {
        JSON.parse(block.slice(6));
        count++;
      }
      boundary = buffer.indexOf('\n\n');
    }
  }
  return count;
}

const client = createAgentClient({
  transport: createHttpTransport({
    baseUrl: 'http://bench.invalid/api/v1',
    fetch: async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
  }),
});

async function clientPipeline(): Promise<number> {
  let count = 0;
  const result = await client.generate({ prompt: 'A benchmark of the pipeline' }, { onEvent: () => count++ });
  if (result.outcome !== 'completed') throw new Error(`Unexpected outcome ${result.outcome}`);
  return count;
}

const flushCost = { ms: 0, flushes: 0, copiedItems: 0 };

/** The store over the same client: every event reduced into it, a publish per frame (a new task here). */
async function storePipeline(): Promise<number> {
  let frameMs = 0;
  const store = createAgentStore({
    client,
    storage: null,
    scheduleFlush(flush) {
      const handle = setImmediate(() => {
        const start = performance.now();
        flush();
        frameMs += performance.now() - start;
      });
      return () => clearImmediate(handle);
    },
  });
  const result = await store.getState().generate({ prompt: 'A benchmark of the pipeline' });
  if (result.outcome !== 'completed') throw new Error(`Unexpected outcome ${result.outcome}`);
  const stats = store.getStats();
  flushCost.ms = frameMs;
  flushCost.flushes = stats.flushes;
  flushCost.copiedItems = stats.copiedItems;
  store.destroy();
  return stats.events;
}

/** Runs them, interleaved so that machine noise hits them alike; the first pair warms the JIT. */
async function measure(): Promise<void> {
  const bareTimes: number[] = [];
  const pipelineTimes: number[] = [];
  const storeTimes: number[] = [];
  const counts = { bare: 0, pipeline: 0, store: 0 };
  for (let index = 0; index < runs + 1; index++) {
    let start = performance.now();
    counts.bare = bareParse();
    const bare = performance.now() - start;
    start = performance.now();
    counts.pipeline = await clientPipeline();
    const pipeline = performance.now() - start;
    start = performance.now();
    counts.store = await storePipeline();
    const storeTime = performance.now() - start;
    if (index > 0) {
      bareTimes.push(bare);
      pipelineTimes.push(pipeline);
      storeTimes.push(storeTime);
    }
  }
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)] ?? Number.NaN;
  const fastest = (values: number[]) => sorted(values)[0] ?? Number.NaN;
  const line = (name: string, values: number[], count: number) =>
    console.log(
      `${name.padEnd(28)} fastest ${fastest(values).toFixed(1).padStart(6)} ms, median ${median(values).toFixed(1).padStart(6)} ms of ${runs}  (${count} events)`,
    );
  line('bare JSON.parse', bareTimes, counts.bare);
  line('client.generate pipeline', pipelineTimes, counts.pipeline);
  line('store.generate pipeline', storeTimes, counts.store);
  const ratio = (name: string, values: number[]) =>
    console.log(
      `ratio ${name} / bare: ${(fastest(values) / fastest(bareTimes)).toFixed(2)}x fastest, ${(median(values) / median(bareTimes)).toFixed(2)}x median (target <= 2x)`,
    );
  ratio('client', pipelineTimes);
  ratio('store', storeTimes);
  console.log(
    `store flushes (last run): ${flushCost.flushes} flushes, ${flushCost.ms.toFixed(1)} ms publishing in frames, ${(flushCost.copiedItems / Math.max(1, flushCost.flushes)).toFixed(0)} list items copied per flush`,
  );
}

console.log(`${eventCount + 2} events, ${(totalBytes / 1024).toFixed(0)} KiB in ${chunks.length} chunks`);
await measure();
