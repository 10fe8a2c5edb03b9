/**
 * `npm run dev`: the playground. One Vite dev server shows the product as an agency embeds it, with the
 * agency's proxy (agent-embed/server) mounted at /api/agent in front of the built-in mock Agent API,
 * or in front of a real Agent API when AGENT_API_BASE_URL and AGENT_API_TOKEN are set.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import react from '@vitejs/plugin-react';
import { createServer, type Plugin } from 'vite';
import { startMockAgentServer } from '../src/mock/index.ts';
import { createAgentProxy } from '../src/server/index.ts';
import { entryAliases } from '../vite.config.ts';
import { playgroundUsers, userFromCookie } from '../playground/users.ts';

const proxyPath = '/api/agent';
const mockAdminPath = '/playground/mock';

const realBaseUrl = process.env.AGENT_API_BASE_URL;
const realToken = process.env.AGENT_API_TOKEN;
if (realBaseUrl && !realToken) throw new Error('AGENT_API_BASE_URL is set but AGENT_API_TOKEN is not: set both to use a real Agent API.');

const mock = realBaseUrl ? undefined : await startMockAgentServer({ port: Number(process.env.MOCK_PORT ?? 0), speed: 'realistic' });
const apiBaseUrl = realBaseUrl ?? mock!.url;
const apiToken = realToken ?? mock!.token;

const proxy = createAgentProxy({
  apiBaseUrl,
  apiToken,
  basePath: proxyPath,
  // A real agency reads its own session here; the playground signs in one of two fake end users by cookie.
  authorize: async (request) => userFromCookie(request.headers.get('cookie')),
});
const relayToProxy = getRequestListener(proxy);

// The scenario panel drives the mock's admin API; it exists only in front of the mock, never a real API.
async function relayToMockAdmin(request: IncomingMessage, response: ServerResponse) {
  if (!mock) {
    response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Scenarios need the built-in mock.' }));
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  let path = (request.url ?? '').slice(mockAdminPath.length);
  let body: string | undefined = chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : undefined;
  // The page never sees the token, so the server names it when the page asks to expire it.
  if (path === '/expire-token') {
    path = '/tokens/expire';
    body = JSON.stringify({ token: mock.token });
  }
  const origin = new URL(mock.url).origin;
  const upstream = await fetch(`${origin}/__mock/admin${path}`, {
    method: request.method ?? 'GET',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
  response.end(Buffer.from(await upstream.arrayBuffer()));
}

const agencyServer: Plugin = {
  name: 'playground-agency-server',
  configureServer(server) {
    server.middlewares.use((request, response, next) => {
      const url = request.url ?? '';
      if (url === proxyPath || url.startsWith(`${proxyPath}/`) || url.startsWith(`${proxyPath}?`)) {
        void relayToProxy(request, response);
        return;
      }
      if (url.startsWith(`${mockAdminPath}/`)) {
        relayToMockAdmin(request, response).catch(next);
        return;
      }
      next();
    });
  },
};

const vite = await createServer({
  configFile: false,
  root: new URL('../playground', import.meta.url).pathname,
  resolve: { alias: entryAliases },
  plugins: [react(), agencyServer],
  define: { __PLAYGROUND_BACKEND__: JSON.stringify(mock ? 'mock' : 'real') },
  server: { port: Number(process.env.PORT ?? 5173), host: process.env.HOST ?? 'localhost' },
});
await vite.listen();
vite.printUrls();
console.log(mock ? `  Agent API: built-in mock at ${mock.url} (users: ${playgroundUsers.map((user) => user.name).join(', ')})` : `  Agent API: ${apiBaseUrl}`);

async function shutdown() {
  await vite.close();
  await mock?.close();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown());
process.once('SIGTERM', () => void shutdown());
