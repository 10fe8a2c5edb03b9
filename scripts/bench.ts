/**
 * `npm run bench`: the client's streaming pipeline and the store's (parse + reduce into the store, publishing
 * once per frame) against bare JSON.parse of the same stream, and what eventsource-parser costs on its own.
 * Every case reads the same 20,002 events from a fresh Response over the same bytes and must count all of
 * them; the replay cases read them as the proxy's events route numbers them (`id:` lines), as a resume after a
 * reload does. The cases run interleaved, in a rotating order after warm-up rounds, so that machine noise and
 * garbage collection hit them alike; the fastest runs are compared (the least disturbed by the other
 * processes of a shared machine), medians beside them. Timings are printed, never asserted. (A forced full
 * collection before each case was tried: it shrinks the young generation and measures a cold heap.)
 *
 * BENCH_EVENTS, BENCH_RUNS (default 20), BENCH_WARMUP, BENCH_CHUNK (bytes per network chunk) change the
 * defaults; BENCH_ONLY runs the baseline and the cases whose name contains it (e.g. under --cpu-prof).
 */
import { createParser } from 'eventsource-parser';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createAgentClient, createAgentStore, createHttpTransport } from '../src/core/index.ts';

const eventCount = Number(process.env.BENCH_EVENTS ?? 20_000);
const runs = Number(process.env.BENCH_RUNS ?? 20);
const warmup = Number(process.env.BENCH_WARMUP ?? 5);
const chunkSize = Number(process.env.BENCH_CHUNK ?? 16 * 1024);

function chunked(text: string): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += chunkSize) chunks.push(bytes.slice(offset, offset + chunkSize));
  return chunks;
}

function buildStream(): { chunks: Uint8Array[]; replayChunks: Uint8Array[]; payloads: string[] } {
  const payloads: string[] = [
    JSON.stringify({ type: 'project_created', project_id: 'bench', app_url: 'https://bench.apps.test/' }),
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
    payloads.push(JSON.stringify(event));
  }
  payloads.push(JSON.stringify({ type: 'stream_end', project_id: 'bench', app_url: 'https://bench.apps.test/' }));
  // The events route of the proxy numbers every event (`id:`), as a replay after a reload reads it.
  return {
    chunks: chunked(payloads.map((payload) => `data: ${payload}\n\n`).join('')),
    replayChunks: chunked(payloads.map((payload, index) => `id: ${index + 1}\ndata: ${payload}\n\n`).join('')),
    payloads,
  };
}

const { chunks, replayChunks, payloads } = buildStream();
const totalBytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);

/** The same bytes as a fresh streamed response, as fetch hands them over. */
function streamResponse(body = chunks): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of body) controller.enqueue(chunk);
        controller.close();
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );
}

/**
 * The baseline: read the stream, decode it, cut it at blank lines, JSON.parse each `data:` payload. The replay's
 * baseline reads the replay's own bytes (each event after its `id:` line), so like is compared with like.
 */
async function bareParse(body = chunks): Promise<number> {
  const reader = (streamResponse(body).body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let count = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffer += decoder.decode(read.value, { stream: true });
    let start = 0;
    let boundary = buffer.indexOf('\n\n');
    while (boundary !== -1) {
      let dataAt = start;
      if (!buffer.startsWith('data: ', start)) {
        const line = buffer.indexOf('\ndata: ', start);
        dataAt = line === -1 || line > boundary ? -1 : line + 1;
      }
      if (dataAt !== -1) {
        JSON.parse(buffer.slice(dataAt + 6, boundary));
        count++;
      }
      start = boundary + 2;
      boundary = buffer.indexOf('\n\n', start);
    }
    buffer = buffer.slice(start);
  }
  return count;
}

/** For reference: JSON.parse of the payloads alone, already decoded and cut (no stream at all). */
async function payloadParse(): Promise<number> {
  let count = 0;
  for (const payload of payloads) {
    JSON.parse(payload);
    count++;
  }
  return count;
}

/**
 * eventsource-parser with nothing of ours: its own cost (`none`), with JSON.parse of each message (`parse`),
 * and with the least a store must keep on top (`files`): the files de-duplicated by path in a Map, as objects.
 */
async function librarySse(work: 'none' | 'parse' | 'files', body = chunks): Promise<number> {
  let count = 0;
  const files = new Map<string, { path: string; action: string; updates: number }>();
  const parser = createParser({
    onEvent(message) {
      count++;
      if (work === 'none') return;
      const event = JSON.parse(message.data) as { type: string; path?: string; action?: string };
      if (work === 'files' && event.type === 'file_created' && event.path !== undefined) {
        const previous = files.get(event.path);
        files.set(event.path, {
          path: event.path,
          action: previous === undefined ? (event.action ?? 'created') : 'modified',
          updates: (previous?.updates ?? 0) + 1,
        });
      }
    },
  });
  const reader = (streamResponse(body).body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    parser.feed(decoder.decode(read.value, { stream: true }));
  }
  return count;
}

/** The project's status as the API answers its GET (the store asks for it once the project is named and at the end). */
const projectStatus = JSON.stringify({
  status: true,
  project_id: 'bench',
  app_url: 'https://bench.apps.test/',
  project_status: 'completed',
  name: 'Bench',
});

// The POST streams the build; the events route (a GET) replays it with its ids; the status GET is small JSON.
const client = createAgentClient({
  transport: createHttpTransport({
    baseUrl: 'http://bench.invalid/api/v1',
    fetch: async (url, init) => {
      if (init?.method !== 'GET') return streamResponse(chunks);
      if (String(url).includes('/events')) return streamResponse(replayChunks);
      return new Response(projectStatus, { headers: { 'content-type': 'application/json' } });
    },
  }),
});

async function clientPipeline(): Promise<number> {
  let count = 0;
  const result = await client.generate({ prompt: 'A benchmark of the pipeline' }, { onEvent: () => count++ });
  if (result.outcome !== 'completed') throw new Error(`Unexpected outcome ${result.outcome}`);
  return count;
}

const flushCost = { ms: 0, flushes: 0, copiedItems: 0 };

/** The client replaying the whole build through the events route (a resume after a reload). */
async function clientReplay(): Promise<number> {
  let count = 0;
  const result = await client.projects.events('bench', { onEvent: () => count++ });
  if (result.outcome !== 'completed') throw new Error(`Unexpected replay outcome ${result.outcome}`);
  return count;
}

/** The store resuming the saved build after a reload: the whole log replayed through the events route. */
async function storeReplay(): Promise<number> {
  const saved = JSON.stringify({ projectId: 'bench', status: 'generating', kind: 'generate', mode: 'build' });
  const store = createAgentStore({
    client,
    storage: { getItem: () => saved, setItem: () => {}, removeItem: () => {} },
    scheduleFlush(flush) {
      const handle = setImmediate(flush);
      return () => clearImmediate(handle);
    },
  });
  const completed = new Promise<void>((resolve) => {
    store.subscribe((state) => {
      if (state.generations.bench?.status === 'completed') resolve();
    });
  });
  store.getState().resume();
  await completed;
  const { events } = store.getStats();
  store.destroy();
  return events;
}

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

interface Case {
  name: string;
  run(): Promise<number>;
  /** Wall-clock milliseconds per measured run. */
  times: number[];
  /** CPU milliseconds of the process per measured run (GC helper threads included, other processes not). */
  cpuTimes: number[];
}

const newCase = (name: string, run: () => Promise<number>): Case => ({ name, run, times: [], cpuTimes: [] });
const baseline = newCase('bare JSON.parse (baseline)', () => bareParse());
const replayBaseline = newCase('bare JSON.parse, replay bytes', () => bareParse(replayChunks));
const libraryParse = newCase('eventsource-parser + parse', () => librarySse('parse'));
const libraryFiles = newCase('  + a Map of the files', () => librarySse('files'));
const libraryReplayFiles = newCase('  the same, replay bytes', () => librarySse('files', replayChunks));
const client_ = newCase('client.generate pipeline', clientPipeline);
const store_ = newCase('store.generate pipeline', storePipeline);
const clientReplay_ = newCase('client.events replay', clientReplay);
const storeReplay_ = newCase('store resume (replay)', storeReplay);
const allCases: Case[] = [
  baseline,
  replayBaseline,
  newCase('JSON.parse of payloads only', payloadParse),
  newCase('eventsource-parser alone', () => librarySse('none')),
  libraryParse,
  libraryFiles,
  libraryReplayFiles,
  client_,
  store_,
  clientReplay_,
  storeReplay_,
];
const only = process.env.BENCH_ONLY;
const baselines = [baseline, replayBaseline];
const cases =
  only === undefined ? allCases : allCases.filter((item) => baselines.includes(item) || item.name.includes(only));
/** The baseline a case is compared with: the replay's for the replays (they read more bytes: an `id:` per event). */
const baselineOf = (item: Case) =>
  item === clientReplay_ || item === storeReplay_ || item === libraryReplayFiles ? replayBaseline : baseline;

async function measure(): Promise<void> {
  const expected = payloads.length;
  for (let round = 0; round < warmup + runs; round++) {
    for (let offset = 0; offset < cases.length; offset++) {
      const item = cases[(round + offset) % cases.length] as Case;
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      const count = await item.run();
      const elapsed = performance.now() - start;
      const cpu = process.cpuUsage(cpuStart);
      // Like with like: every case must have seen every event.
      if (count !== expected) throw new Error(`${item.name} saw ${count} events, expected ${expected}`);
      if (round >= warmup) {
        item.times.push(elapsed);
        item.cpuTimes.push((cpu.user + cpu.system) / 1000);
      }
    }
  }
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)] ?? Number.NaN;
const fastest = (values: number[]) => sorted(values)[0] ?? Number.NaN;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

console.log(
  `${payloads.length} events, ${(totalBytes / 1024).toFixed(0)} KiB in ${chunks.length} chunks; ${warmup} warm-up + ${runs} measured rounds; ${availableParallelism()} CPUs, load ${load()} (1, 5, 15 min)`,
);
await measure();
const ratio = (value: number, of: number) => `${(value / of).toFixed(2)}x`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
/** A case's fastest, wall median and CPU median against its baseline's. */
const ratios = (item: Case) => {
  const of = baselineOf(item);
  return {
    fastest: ratio(fastest(item.times), fastest(of.times)),
    wall: ratio(median(item.times), median(of.times)),
    cpu: ratio(median(item.cpuTimes), median(of.cpuTimes)),
  };
};
console.log(
  `${''.padEnd(30)}${'fastest'.padStart(10)}${'ratio'.padStart(8)}${'wall median'.padStart(13)}${'ratio'.padStart(8)}${'CPU median'.padStart(13)}${'ratio'.padStart(8)}`,
);
for (const item of cases) {
  const of = ratios(item);
  console.log(
    `${item.name.padEnd(30)}${ms(fastest(item.times)).padStart(10)}${of.fastest.padStart(8)}${ms(median(item.times)).padStart(13)}${of.wall.padStart(8)}${ms(median(item.cpuTimes)).padStart(13)}${of.cpu.padStart(8)}`,
  );
}
console.log("(the replays are compared with the replay bytes' baseline, every other case with the first)");
const targets = [
  [client_, 1.3],
  [store_, 1.6],
  [clientReplay_, 1.3],
  [storeReplay_, 1.6],
] as const;
for (const [item, target] of targets) {
  if (!cases.includes(item)) continue;
  const of = ratios(item);
  console.log(
    `${item.name}: ${of.fastest} bare JSON.parse of the same bytes, fastest of ${runs} (target <= ${target}x); medians ${of.wall} wall, ${of.cpu} CPU`,
  );
}
console.log(
  `store flushes (last run): ${flushCost.flushes} flushes, ${flushCost.ms.toFixed(1)} ms publishing in frames, ${(flushCost.copiedItems / Math.max(1, flushCost.flushes)).toFixed(0)} list items copied per flush`,
);
console.log(`load at the end: ${load()}`);
