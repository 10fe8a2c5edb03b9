/**
 * Express 5: the Web-standard proxy handler adapted by @hono/node-server's getRequestListener. Run with
 * `npm install && npm start` in this folder and the variables of `proxyOptionsFromEnv` set.
 */
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import { createAgentProxy, type AgentProxyHandler } from 'agent-embed/server';
import { agentBasePath, proxyOptionsFromEnv } from '../proxy-config.js';

/** The agency's Express app with the proxy mounted at `agentBasePath`. */
export function createExpressApp(proxy: AgentProxyHandler): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // app.all rather than app.use: app.use would strip the mount path from req.url, and the proxy matches
  // the full path. It comes before any body parser, which would consume the body the proxy must read.
  app.all(`${agentBasePath}/*path`, getRequestListener(proxy));
  app.use(express.json());
  app.get('/health', (_request, response) => {
    response.json({ ok: true });
  });
  return app;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 3000);
  createExpressApp(createAgentProxy(proxyOptionsFromEnv())).listen(port, () => {
    console.log(`Agency app with the agent proxy on http://localhost:${port}${agentBasePath}`);
  });
}
