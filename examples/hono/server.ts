/**
 * Hono 4: the proxy is a Web-standard handler, so a route hands it Hono's raw Request (`c.req.raw`) and
 * returns its Response (streams included) as is. Run on Node with `npm install && npm start` in this folder and
 * the variables of `proxyOptionsFromEnv` set; the same app runs on Bun, Deno and Cloudflare Workers.
 */
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createAgentProxy, type AgentProxyHandler } from 'agent-embed/server';
import { agentBasePath, proxyOptionsFromEnv } from '../proxy-config.js';

/** The agency's Hono app with the proxy mounted at `agentBasePath`. */
export function createHonoApp(proxy: AgentProxyHandler): Hono {
  const app = new Hono();
  // The raw Request keeps its body unread: no Hono body helper (c.req.json()) runs before the proxy.
  app.all(`${agentBasePath}/*`, (c) => proxy(c.req.raw));
  app.get('/health', (c) => c.json({ ok: true }));
  return app;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 3000);
  serve({ fetch: createHonoApp(createAgentProxy(proxyOptionsFromEnv())).fetch, port }, () => {
    console.log(`Hono app with the agent proxy on http://localhost:${port}${agentBasePath}`);
  });
}
