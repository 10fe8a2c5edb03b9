/**
 * The end-to-end stack of the proxy suites, all over real HTTP on 127.0.0.1: the library's browser client
 * -> the proxy served by @hono/node-server -> the mock Agent API (or an upstream the test scripts by hand).
 */
import { randomBytes } from 'node:crypto';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createAgentClient, createHttpTransport, type AgentClient } from 'agent-embed/core';
import { startMockAgentServer, type MockAgentServer, type MockAgentServerOptions } from 'agent-embed/mock';
import { createAgentProxy, type AgentProxyOptions, type AgentProxyUser, type ProxyLogEntry } from 'agent-embed/server';

export const basePath = '/api/agent';

/** End users of the agency, signed in by an opaque session id generated per run. */
export const people = {
  alice: { externalUserId: 'alice', name: 'Alice Example', email: 'alice@example.test' },
  bob: { externalUserId: 'bob', name: 'Bob Example', email: 'bob@example.test' },
} satisfies Record<string, AgentProxyUser>;
export type Person = keyof typeof people;

const sessions = new Map<string, AgentProxyUser>();
const sessionIds = {} as Record<Person, string>;
for (const [name, user] of Object.entries(people) as [Person, AgentProxyUser][]) {
  const id = randomBytes(16).toString('hex');
  sessions.set(id, user);
  sessionIds[name] = id;
}

/** The cookie header of a signed-in person. */
export function sessionCookie(person: Person): string {
  return `session=${sessionIds[person]}`;
}

/** The agency's session check: an opaque cookie looked up server-side. */
export function authorize(request: Request): AgentProxyUser | null {
  const id = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  return id === undefined ? null : (sessions.get(id) ?? null);
}

/** One upstream answer as the proxy received it. */
export interface UpstreamExchange {
  status: number;
  path: string;
}

/** A running stack; `close` stops everything it started. */
export interface ProxyStack {
  origin: string;
  proxyUrl: string;
  logs: ProxyLogEntry[];
  /** What the upstream answered to each request the proxy sent, in order. */
  upstream: UpstreamExchange[];
  client(person?: Person, headers?: Record<string, string>): AgentClient;
  close(): Promise<void>;
}

/** Serves a Web handler on 127.0.0.1 and a free port, without replacing the global Request/Response. */
export async function serveHandler(
  fetch: (request: Request) => Promise<Response>,
): Promise<{ origin: string; close(): Promise<void> }> {
  let server!: Server;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false }, (info: AddressInfo) =>
      resolve(info.port),
    ) as Server;
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Starts the proxy in front of an upstream at `apiBaseUrl`. */
export async function startProxy(
  apiBaseUrl: string,
  apiToken: string,
  options: Partial<AgentProxyOptions> = {},
): Promise<ProxyStack> {
  const logs: ProxyLogEntry[] = [];
  const upstream: UpstreamExchange[] = [];
  const proxy = createAgentProxy({
    apiBaseUrl,
    apiToken,
    basePath,
    authorize,
    onLog: (entry) => logs.push(entry),
    // Records what the upstream answered, so a suite can prove it never saw a 429.
    fetch: async (input, init) => {
      const response = await globalThis.fetch(input, init);
      upstream.push({ status: response.status, path: new URL(String(input)).pathname });
      return response;
    },
    ...options,
  });
  const served = await serveHandler(proxy);
  const proxyUrl = `${served.origin}${basePath}`;
  return {
    origin: served.origin,
    proxyUrl,
    logs,
    upstream,
    client: (person, headers = {}) =>
      createAgentClient({
        transport: createHttpTransport({
          baseUrl: proxyUrl,
          headers: person === undefined ? headers : { cookie: sessionCookie(person), ...headers },
        }),
      }),
    close: served.close,
  };
}

/** The proxy in front of a fresh mock Agent API (instant speed, no upstream rate limit unless asked). */
export async function startMockStack(
  options: { mock?: MockAgentServerOptions; proxy?: Partial<AgentProxyOptions> } = {},
): Promise<ProxyStack & { mock: MockAgentServer }> {
  const mock = await startMockAgentServer({ port: 0, speed: 'instant', rateLimit: false, ...options.mock });
  const stack = await startProxy(mock.url, mock.token, options.proxy);
  return {
    ...stack,
    mock,
    close: async () => {
      await stack.close();
      await mock.close();
    },
  };
}

/** A raw response: status, every header and the whole body text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends a request with the path exactly as given (no URL normalisation), as an attacker can. */
export function rawRequest(
  origin: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: init.headers ?? {} },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}

/** One request that reached a scripted upstream, with its response still open for the test to write. */
export interface ScriptedExchange {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  response: ServerResponse;
}

/** An upstream HTTP server whose answers the test writes by hand, event by event. */
export async function startScriptedUpstream(): Promise<{
  url: string;
  token: string;
  next(): Promise<ScriptedExchange>;
  close(): Promise<void>;
}> {
  const queue: ScriptedExchange[] = [];
  const waiters: ((exchange: ScriptedExchange) => void)[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const exchange: ScriptedExchange = {
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        response,
      };
      const waiter = waiters.shift();
      if (waiter) waiter(exchange);
      else queue.push(exchange);
    });
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    token: `scripted_${randomBytes(12).toString('hex')}`,
    next: () => {
      const queued = queue.shift();
      return queued ? Promise.resolve(queued) : new Promise((resolve) => waiters.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Opens an SSE response on a scripted exchange. */
export function openEventStream(exchange: ScriptedExchange): {
  event(data: unknown): void;
  write(text: string): void;
  end(): void;
} {
  exchange.response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  exchange.response.flushHeaders();
  return {
    event: (data) => exchange.response.write(`data: ${JSON.stringify(data)}\n\n`),
    write: (text) => exchange.response.write(text),
    end: () => exchange.response.end(),
  };
}
