/**
 * `npm run bench:instructions`: the same pipelines as `npm run bench`, counted in machine instructions by valgrind's
 * cachegrind instead of timed. On a shared machine a timed run moves by a tenth or more from one run to the next;
 * instruction counts repeat within a few percent, so an A/B of two versions of the code is read in one pair of runs.
 * Each case runs in its own process under valgrind, twice (BENCH_RUNS and twice as many builds), and the difference
 * divided by the extra builds is its cost per build: start-up, module loading and warm-up cancel out. V8 runs
 * single-threaded there (`--single-threaded`, so its compiler and collector work is counted too), which makes the
 * ratios larger than timed ones; compare them with each other, not with `npm run bench`'s.
 *
 * Needs valgrind (`apt-get install -y valgrind`); takes about 12 minutes. BENCH_RUNS (default 6), BENCH_EVENTS
 * (default 20,000) and BENCH_CASES (a comma-separated subset of bare,parser,client,store,storeIds,clientReplay,replay)
 * change the defaults. The cases that read the numbered build (an `id:` line before each event, as the proxy's events
 * route sends it) are compared with bare `JSON.parse` of those bytes (`bareReplay`): the live store fed them
 * (`storeIds`), the client's replay and the store's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { createParser } from 'eventsource-parser';
import { createAgentClient, createAgentStore, createHttpTransport } from '../src/core/index.ts';

const caseNames = ['bare', 'parser', 'client', 'store', 'bareReplay', 'storeIds', 'clientReplay', 'replay'] as const;
type CaseName = (typeof caseNames)[number];
/** The cases that read the numbered build (an `id:` line before each event), compared with `bareReplay`. */
const numbered: ReadonlySet<CaseName> = new Set(['storeIds', 'clientReplay', 'replay']);
const eventCount = Number(process.env.BENCH_EVENTS ?? 20_000);

/** The build as the bench streams it: a third tool steps, the rest files, numbered (`id:`) for the replay. */
function buildChunks(numbered: boolean): Uint8Array[] {
  const payloads = [JSON.stringify({ type: 'project_created', project_id: 'bench', app_url: 'https://bench.test/' })];
  for (let index = 0; index < eventCount; index++)
    payloads.push(
      JSON.stringify(
        index % 3 === 0
          ? { type: 'tool_progress', tool: 'write_file', message: `Writing component ${index}`, status: 'running' }
          : {
              type: 'file_created',
              path: `src/components/generated/component-${index}.tsx`,
              action: index % 7 === 0 ? 'modified' : 'created',
            },
      ),
    );
  payloads.push(JSON.stringify({ type: 'stream_end', project_id: 'bench', app_url: 'https://bench.test/' }));
  const text = payloads.map((payload, index) => `${numbered ? `id: ${index + 1}\n` : ''}data: ${payload}\n\n`).join('');
  const bytes = new TextEncoder().encode(text);
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += 16 * 1024) chunks.push(bytes.slice(offset, offset + 16 * 1024));
  return chunks;
}

/** Runs one case `runs` times in this process (the child valgrind counts). */
async function drive(name: CaseName, runs: number): Promise<void> {
  const chunks = buildChunks(false);
  const replayChunks = buildChunks(true);
  const streamed = (body: Uint8Array[]) =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of body) controller.enqueue(chunk);
          controller.close();
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    );
  const status = JSON.stringify({ status: true, project_id: 'bench', project_status: 'completed', name: 'Bench' });
  /** A client whose POST streams `posted`; the events route replays the numbered build. */
  const clientStreaming = (posted: Uint8Array[]) =>
    createAgentClient({
      transport: createHttpTransport({
        baseUrl: 'http://bench.invalid/api/v1',
        fetch: async (url, init) => {
          if (init?.method !== 'GET') return streamed(posted);
          if (String(url).includes('/events')) return streamed(replayChunks);
          return new Response(status, { headers: { 'content-type': 'application/json' } });
        },
      }),
    });
  const client = clientStreaming(chunks);
  const numberedClient = clientStreaming(replayChunks);
  const reader = (body: Uint8Array[]) => (streamed(body).body as ReadableStream<Uint8Array>).getReader();
  const flushEachTurn = (flush: () => void) => {
    const handle = setImmediate(flush);
    return () => clearImmediate(handle);
  };
  /** Bare JSON.parse of each event's `data:` (after its `id:` line, if any), as `npm run bench`'s baseline reads. */
  const bareParse = async (body: Uint8Array[]) => {
    const read = reader(body);
    const decoder = new TextDecoder();
    let buffer = '';
    for (let next = await read.read(); !next.done; next = await read.read()) {
      buffer += decoder.decode(next.value, { stream: true });
      let start = 0;
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', start)) {
        const data = buffer.startsWith('data: ', start) ? start : buffer.indexOf('\ndata: ', start) + 1;
        JSON.parse(buffer.slice(data + 6, end));
        start = end + 2;
      }
      buffer = buffer.slice(start);
    }
  };
  const runOnce: Record<CaseName, () => Promise<unknown>> = {
    bare: () => bareParse(chunks),
    bareReplay: () => bareParse(replayChunks),
    async parser() {
      const parser = createParser({ onEvent: (message) => JSON.parse(message.data) as unknown });
      const read = reader(chunks);
      const decoder = new TextDecoder();
      for (let next = await read.read(); !next.done; next = await read.read())
        parser.feed(decoder.decode(next.value, { stream: true }));
    },
    client: () => client.generate({ prompt: 'A benchmark of the pipeline' }),
    clientReplay: () => client.projects.events('bench', { onEvent: () => {} }),
    async store() {
      const store = createAgentStore({ client, storage: null, scheduleFlush: flushEachTurn });
      await store.getState().generate({ prompt: 'A benchmark of the pipeline' });
      store.destroy();
    },
    // The live store fed the replay's bytes: what the `id:` lines cost it, with nothing of a resume.
    async storeIds() {
      const store = createAgentStore({ client: numberedClient, storage: null, scheduleFlush: flushEachTurn });
      await store.getState().generate({ prompt: 'A benchmark of the pipeline' });
      store.destroy();
    },
    async replay() {
      const saved = JSON.stringify({ projectId: 'bench', status: 'generating', kind: 'generate', mode: 'build' });
      const store = createAgentStore({
        client,
        storage: { getItem: () => saved, setItem: () => {}, removeItem: () => {} },
        scheduleFlush: flushEachTurn,
      });
      const completed = new Promise<void>((resolve) => {
        store.subscribe((state) => state.generations.bench?.status === 'completed' && resolve());
      });
      store.getState().resume();
      await completed;
      store.destroy();
    },
  };
  for (let run = 0; run < runs; run++) await runOnce[name]();
}

/**
 * Instructions valgrind counted for `runs` builds of a case, start-up included. The child runs this file bundled into
 * one plain script: a TypeScript loader's own thread made counts of the same case differ by a tenth.
 */
function instructions(bundle: string, name: CaseName, runs: number): number {
  const result = spawnSync(
    'valgrind',
    [
      '--tool=cachegrind',
      '--cache-sim=no',
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      '--single-threaded',
      bundle,
    ],
    { env: { ...process.env, BENCH_INSTRUCTIONS_CHILD: `${name}:${runs}` }, encoding: 'utf8' },
  );
  const refs = /I\s+refs:\s+([\d,]+)/.exec(result.stderr)?.[1];
  if (result.status !== 0 || refs === undefined)
    throw new Error(`valgrind failed for ${name}: ${result.stderr.slice(-2_000)}`);
  return Number(refs.replaceAll(',', ''));
}

const child = process.env.BENCH_INSTRUCTIONS_CHILD;
if (child !== undefined) {
  const [name, runs] = child.split(':');
  await drive(name as CaseName, Number(runs));
} else {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  } catch {
    console.error('npm run bench:instructions needs valgrind: apt-get install -y valgrind');
    process.exit(1);
  }
  const runs = Number(process.env.BENCH_RUNS ?? 6);
  const chosen = (process.env.BENCH_CASES?.split(',') ?? caseNames).filter((name): name is CaseName =>
    (caseNames as readonly string[]).includes(name),
  );
  if (!chosen.includes('bare')) chosen.unshift('bare');
  const firstReplay = chosen.findIndex((name) => numbered.has(name));
  if (firstReplay !== -1 && !chosen.includes('bareReplay')) chosen.splice(firstReplay, 0, 'bareReplay');
  console.log(
    `${eventCount + 2} events per build; instructions per build = (count of ${2 * runs} - count of ${runs}) / ${runs}`,
  );
  mkdirSync(fileURLToPath(new URL('../node_modules/.cache/', import.meta.url)), { recursive: true });
  // Next to the project's modules, so that esbuild (left out of the bundle; the child never calls it) resolves.
  const directory = mkdtempSync(join(fileURLToPath(new URL('../node_modules/.cache/', import.meta.url)), 'bench-'));
  const bundle = join(directory, 'bench.mjs');
  buildSync({
    entryPoints: [fileURLToPath(import.meta.url)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    external: ['esbuild'],
    outfile: bundle,
    logLevel: 'warning',
  });
  process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
  const perBuild = new Map<CaseName, number>();
  for (const name of chosen) {
    const cost = (instructions(bundle, name, 2 * runs) - instructions(bundle, name, runs)) / runs;
    perBuild.set(name, cost);
    const baseline = numbered.has(name) ? 'bareReplay' : 'bare';
    const ratio = cost / (perBuild.get(baseline) as number);
    console.log(
      `${name.padEnd(10)} ${(cost / 1e6).toFixed(0).padStart(6)}M instructions per build  ${ratio.toFixed(2)}x ${baseline}`,
    );
  }
}
