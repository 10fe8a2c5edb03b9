/** The mock Agent API on a real Node HTTP server, streaming SSE chunk by chunk. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMockAgentApi } from './mock-agent-api.js';
import type { MockAgentApi, MockAgentApiOptions } from './mock-options.js';

/** Options of `startMockAgentServer`. */
export interface MockAgentServerOptions extends Omit<MockAgentApiOptions, 'baseUrl'> {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
}

/** A listening mock server. */
export interface MockAgentServer {
  /** The API base URL, ending in /api/v1. */
  url: string;
  /** A valid development token of the default team. */
  token: string;
  /** The admin API's base URL. */
  adminUrl: string;
  api: MockAgentApi;
  /** Stops generations, closes every connection and the server. */
  close(): Promise<void>;
}

/** Largest request body the server reads; the API's bodies are small JSON objects. */
const maxBodyBytes = 1024 * 1024;

class BodyTooLargeError extends Error {}

async function readBody(request: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBodyBytes) throw new BodyTooLargeError();
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function toRequest(
  incoming: IncomingMessage,
  origin: string,
  body: Uint8Array<ArrayBuffer> | undefined,
  signal: AbortSignal,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const init: RequestInit = { method: incoming.method ?? 'GET', headers, signal };
  if (body !== undefined && init.method !== 'GET' && init.method !== 'HEAD') init.body = body;
  return new Request(new URL(incoming.url ?? '/', origin), init);
}

function write(response: ServerResponse, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    response.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
}

async function send(response: Response, outgoing: ServerResponse, method: string): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const streaming =
    (response.headers.get('content-type') ?? '').startsWith('text/event-stream') && response.body !== null;
  if (!streaming || method === 'HEAD') {
    const body =
      method === 'HEAD' || response.body === null ? new Uint8Array() : new Uint8Array(await response.arrayBuffer());
    headers['content-length'] = String(body.byteLength);
    outgoing.writeHead(response.status, headers);
    outgoing.end(body);
    return;
  }
  outgoing.writeHead(response.status, headers);
  // Headers go out now: the first event may be seconds away.
  outgoing.flushHeaders();
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Each chunk is flushed before the next is read: nothing is buffered, and a drop comes after what was sent.
      await write(outgoing, value);
    }
    outgoing.end();
  } catch {
    // The body errored (an injected drop) or the client left: cut the connection without a proper end.
    outgoing.destroy();
  }
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts the mock on a Node HTTP server (127.0.0.1 and a free port by default). */
export async function startMockAgentServer(options: MockAgentServerOptions = {}): Promise<MockAgentServer> {
  // Imported here, not at the top: the mock entry also runs in browsers (Storybook), which have no node:http.
  const http = await import('node:http');
  const host = options.host ?? '127.0.0.1';
  // Requests may arrive before the API exists (its base URL needs the bound port).
  const ready: { api?: MockAgentApi } = {};
  let origin = '';

  const server = http.createServer((incoming, outgoing) => {
    void (async () => {
      const controller = new AbortController();
      outgoing.on('close', () => {
        if (!outgoing.writableFinished) controller.abort();
      });
      let body: Uint8Array<ArrayBuffer> | undefined;
      try {
        body = await readBody(incoming);
      } catch (thrown) {
        const tooLarge = thrown instanceof BodyTooLargeError;
        if (!outgoing.headersSent)
          outgoing.writeHead(tooLarge ? 413 : 400, { 'content-type': 'application/json', connection: 'close' });
        outgoing.end(
          JSON.stringify({
            message: tooLarge ? 'The request body is too large.' : 'The request body could not be read.',
          }),
        );
        return;
      }
      const api = ready.api;
      if (api === undefined) {
        outgoing.writeHead(503).end();
        return;
      }
      const method = incoming.method ?? 'GET';
      try {
        const response = await api.fetch(toRequest(incoming, origin, body, controller.signal));
        await send(response, outgoing, method);
      } catch {
        if (!outgoing.headersSent)
          outgoing
            .writeHead(500, { 'content-type': 'application/json' })
            .end(JSON.stringify({ message: 'Server Error' }));
        else outgoing.destroy();
      }
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 0);
  origin = `http://${displayHost(host)}:${port}`;
  const { port: _port, host: _host, ...apiOptions } = options;
  const running = createMockAgentApi({ ...apiOptions, baseUrl: `${origin}/api/v1` });
  ready.api = running;

  let closing: Promise<void> | undefined;
  return {
    url: running.baseUrl,
    token: running.token,
    adminUrl: `${origin}/__mock/admin`,
    api: running,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        running.dispose();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
