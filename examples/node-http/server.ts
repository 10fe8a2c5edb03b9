/**
 * Plain Node http: the proxy adapted by @hono/node-server's getRequestListener, beside the agency's own
 * routes. Run with `npm install && npm start` in this folder and the variables of `proxyOptionsFromEnv` set.
 */
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { createAgentProxy, type AgentProxyHandler } from 'agent-embed/server';
import { agentBasePath, proxyOptionsFromEnv } from '../proxy-config.js';

/** An http server that hands every request under `agentBasePath` to the proxy. */
export function createAgencyServer(proxy: AgentProxyHandler): Server {
  const relay = getRequestListener(proxy);
  return createServer((request, response) => {
    const url = request.url ?? '/';
    if (url.startsWith(`${agentBasePath}/`)) {
      void relay(request, response);
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 3000);
  createAgencyServer(createAgentProxy(proxyOptionsFromEnv())).listen(port, () => {
    console.log(`Agent proxy on http://localhost:${port}${agentBasePath}`);
  });
}
