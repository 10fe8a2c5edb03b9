/** Debian's redis-server, started by a test on a free port in a temporary folder, without persistence. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createRedisProxyStore, type RedisProxyStore, type RedisProxyStoreOptions } from 'agent-embed/server';

/** A running Redis; `stop` kills it (data is lost), `start` starts it again on the same port. */
export interface TestRedis {
  url: string;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stalls it (SIGSTOP): its socket stays open and nothing answers, until `resume` (SIGCONT). */
  pause(): void;
  resume(): void;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', () => resolve(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
  });
}

/** Starts redis-server (REDIS_SERVER or the one on PATH). */
export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'agent-embed-redis-'));
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      process.env.REDIS_SERVER ?? 'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(port))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('redis-server did not start.');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Options of `TestRedisFixture.newStore`: the store's own, on the fixture's Redis unless `url` says otherwise. */
export type TestStoreOptions = Omit<RedisProxyStoreOptions, 'url' | 'client'> & { url?: string };

/** One Redis for a test file, and the stores opened on it (each closed after the file's tests). */
export interface TestRedisFixture {
  /** The running server (started before the first test). */
  readonly server: TestRedis;
  /** A store on the server, under a fresh key prefix unless one is given. */
  newStore(options?: TestStoreOptions): RedisProxyStore;
}

/** Starts a Redis before the file's tests; after them closes every store opened through it, then the server. */
export function useTestRedis(): TestRedisFixture {
  let server: TestRedis | undefined;
  const stores: RedisProxyStore[] = [];
  beforeAll(async () => {
    server = await startTestRedis();
  });
  afterAll(async () => {
    for (const store of stores.splice(0)) await store.close();
    await server?.close();
  });
  const fixture: TestRedisFixture = {
    get server() {
      if (server === undefined) throw new Error('The test Redis starts before the first test; use it inside one.');
      return server;
    },
    newStore({ url, ...options } = {}) {
      const store = createRedisProxyStore({
        url: url ?? fixture.server.url,
        keyPrefix: `test-${randomUUID()}:`,
        ...options,
      });
      stores.push(store);
      return store;
    },
  };
  return fixture;
}
