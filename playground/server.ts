/**
 * The playground server: one Vite dev server that shows the product as an agency embeds it, with the
 * agency's proxy (agent-embed/server) mounted at /api/agent in front of the built-in mock Agent API,
 * or in front of a real Agent API when a base URL and token are given. `npm run dev` and the real-Chromium
 * tests both start it through `startPlayground`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import react from '@vitejs/plugin-react';
import { createServer, type LogLevel, type Plugin } from 'vite';
import {
  startMockAgentServer,
  type MockAgentServer,
  type MockAgentServerOptions,
  type MockSpeed,
} from '../src/mock/index.ts';
import { createAgentProxy, createMemoryProxyStore, type AgentProxyOptions } from '../src/server/index.ts';
import { entryAliases } from '../vite.config.ts';
import { playgroundQuota, userFromCookie } from './users.ts';

/** Where the page reaches the agency proxy. */
export const playgroundProxyPath = '/api/agent';

/** Where the scenario panel reaches the mock's admin API (only in front of the built-in mock). */
export const playgroundMockAdminPath = '/playground/mock';

/** Options of `startPlayground`. */
export interface PlaygroundOptions {
  /** Port of the page (default 5173); 0 picks a free one. */
  port?: number;
  /** Interface to listen on (default 'localhost'). */
  host?: string;
  /** Speed of the built-in mock (default 'realistic'); ignored with a real API. */
  speed?: MockSpeed;
  /** A real Agent API base URL, ending in /api/v1; needs `apiToken`. Without it the built-in mock runs. */
  apiBaseUrl?: string;
  /** The real API's token; stays in this process, never reaches the page. */
  apiToken?: string;
  /** More options of the built-in mock (its port, credits, rate limit, timers, scenario). */
  mock?: Omit<MockAgentServerOptions, 'speed'>;
  /** More options of the proxy (rate budget, status cache, log). */
  proxy?: Omit<Partial<AgentProxyOptions>, 'apiBaseUrl' | 'apiToken' | 'basePath' | 'authorize'>;
  /** Watch files and hot-reload the page (default true); tests turn it off so edits elsewhere cannot reload their page. */
  watch?: boolean;
  /** Vite's log level (default 'info'). */
  logLevel?: LogLevel;
}

/** A running playground. */
export interface Playground {
  /** The page's URL, ending in '/'. */
  url: string;
  /** The built-in mock, when no real API was given. */
  mock?: MockAgentServer;
  /**
   * Back to a fresh start, as the scenario panel's "Reset the mock" does: the mock forgets everything and the
   * proxy its records (projects listed, conversations, events, cached statuses), so nothing lists a project
   * the mock no longer has. Nothing to reset in front of a real API; a store given in `proxy.store` is kept.
   */
  reset(): void;
  /** Prints the page's URLs as Vite does. */
  printUrls(): void;
  /** Stops the page server and the mock. */
  close(): Promise<void>;
}

// Listed up front so the first page load never triggers a dependency re-optimisation (and a page reload).
const prebundled = [
  'react',
  'react-dom',
  'react-dom/client',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  'zustand',
  'zustand/vanilla',
  'eventsource-parser',
];

function isUnder(url: string, path: string): boolean {
  return url === path || url.startsWith(`${path}/`) || url.startsWith(`${path}?`);
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : undefined;
}

/**
 * Relays the scenario panel to the mock's admin API; the page never sees the token, so the server names it.
 * A successful reset also runs `afterReset` (the proxy forgets its records).
 */
function createMockAdminRelay(mock: MockAgentServer | undefined, afterReset: () => void) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!mock) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: 'Scenarios need the built-in mock.' }));
      return;
    }
    let path = (request.url ?? '').slice(playgroundMockAdminPath.length);
    let body = await readBody(request);
    if (path === '/expire-token') {
      path = '/tokens/expire';
      body = JSON.stringify({ token: mock.token });
    }
    const upstream = await fetch(`${mock.adminUrl}${path}`, {
      method: request.method ?? 'GET',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
    if (path === '/reset' && upstream.ok) afterReset();
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    response.end(Buffer.from(await upstream.arrayBuffer()));
  };
}

/** Starts the playground: the page, the proxy at /api/agent, and the built-in mock unless a real API is given. */
export async function startPlayground(options: PlaygroundOptions = {}): Promise<Playground> {
  if ((options.apiBaseUrl === undefined) !== (options.apiToken === undefined)) {
    throw new Error('A real Agent API needs both a base URL and a token (AGENT_API_BASE_URL and AGENT_API_TOKEN).');
  }
  const mock =
    options.apiBaseUrl === undefined
      ? await startMockAgentServer({ ...options.mock, speed: options.speed ?? 'realistic' })
      : undefined;
  const apiBaseUrl = options.apiBaseUrl ?? mock!.url;
  const apiToken = options.apiToken ?? mock!.token;

  // A fresh proxy store per reset: the proxy's records (what each end user's projects are) must not outlive the
  // mock's projects, or the Projects sheet lists apps that then open as "App not found". Built once the page's
  // address is known: it is the app URL end users return to from the code-host install.
  let appUrl: string | undefined = undefined;
  const createProxy = (url: string) =>
    createAgentProxy({
      appUrl: url,
      quota: playgroundQuota,
      ...options.proxy,
      apiBaseUrl,
      apiToken,
      basePath: playgroundProxyPath,
      store: options.proxy?.store ?? createMemoryProxyStore(),
      // A real agency reads its own session here; the playground signs in one of two fake end users by cookie.
      authorize: async (request) => userFromCookie(request.headers.get('cookie')),
    });
  let relayToProxy: ReturnType<typeof getRequestListener> | undefined;
  const renewProxy = () => {
    if (appUrl !== undefined) relayToProxy = getRequestListener(createProxy(appUrl));
  };
  const reset = () => {
    if (!mock) return;
    mock.api.admin.reset();
    renewProxy();
  };
  const relayToMockAdmin = createMockAdminRelay(mock, renewProxy);

  const agencyServer: Plugin = {
    name: 'playground-agency-server',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const url = request.url ?? '';
        if (isUnder(url, playgroundProxyPath) && relayToProxy !== undefined) {
          void relayToProxy(request, response);
          return;
        }
        if (url.startsWith(`${playgroundMockAdminPath}/`)) {
          relayToMockAdmin(request, response).catch(next);
          return;
        }
        next();
      });
    },
  };

  const watch = options.watch ?? true;
  let vite;
  try {
    vite = await createServer({
      configFile: false,
      root: new URL('.', import.meta.url).pathname,
      resolve: { alias: entryAliases },
      plugins: [react(), agencyServer],
      define: { __PLAYGROUND_BACKEND__: JSON.stringify(mock ? 'mock' : 'real') },
      optimizeDeps: { include: prebundled },
      logLevel: options.logLevel ?? 'info',
      clearScreen: false,
      server: {
        port: options.port ?? 5173,
        host: options.host ?? 'localhost',
        strictPort: options.port === 0,
        ...(watch ? {} : { watch: null, hmr: false }),
      },
    });
    await vite.listen();
  } catch (thrown) {
    await vite?.close();
    await mock?.close();
    throw thrown;
  }
  const running = vite;
  const address = running.httpServer?.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host ?? 'localhost';
  const url = running.resolvedUrls?.local[0] ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  appUrl = url;
  renewProxy();

  let closing: Promise<void> | undefined;
  const playground: Playground = {
    url,
    reset,
    printUrls: () => running.printUrls(),
    close() {
      closing ??= (async () => {
        await running.close();
        await mock?.close();
      })();
      return closing;
    },
  };
  if (mock) playground.mock = mock;
  return playground;
}
