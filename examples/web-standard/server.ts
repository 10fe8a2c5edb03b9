/**
 * Any Web-standard runtime: a module whose default export has `fetch(request, env)` is a server on Bun
 * (`bun run server.ts`), Deno (`deno serve server.ts`) and Cloudflare Workers (`env` holds the secrets
 * there). The proxy is created at the first request, from `env` when the runtime passes one.
 */
import { createAgentProxy, type AgentProxyHandler } from 'agent-embed/server';
import { agentBasePath, proxyOptionsFromEnv } from '../proxy-config.js';

let proxy: AgentProxyHandler | undefined;

/** Answers requests under `agentBasePath` with the proxy and anything else with 404. */
export async function handleRequest(request: Request, env?: Record<string, string | undefined>): Promise<Response> {
  if (!new URL(request.url).pathname.startsWith(`${agentBasePath}/`)) return new Response('Not found', { status: 404 });
  proxy ??= createAgentProxy(proxyOptionsFromEnv(env ?? process.env));
  return proxy(request);
}

export default { fetch: handleRequest };
