/** Proxy options from the environment, shared by the examples. The token is read here and nowhere else. */
import type { AgentProxyOptions } from 'agent-embed/server';
import { readSession } from './session.js';

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Set ${name} in the server's environment.`);
  return value;
}

/** Where the proxy is mounted; the browser uses createHttpTransport({ baseUrl: origin + agentBasePath }). */
export const agentBasePath = '/api/agent';

/** Options for createAgentProxy: AGENT_API_BASE_URL, AGENT_API_TOKEN, SESSION_SECRET and APP_ORIGIN. */
export function proxyOptionsFromEnv(): AgentProxyOptions {
  const sessionSecret = required('SESSION_SECRET');
  const appOrigin = required('APP_ORIGIN');
  return {
    apiBaseUrl: required('AGENT_API_BASE_URL'),
    apiToken: required('AGENT_API_TOKEN'),
    basePath: agentBasePath,
    authorize: (request) => readSession(request, sessionSecret),
    // A cookie session is sent by the browser on its own, so cross-site POSTs must be refused.
    csrf: { allowedOrigins: [appOrigin] },
    returnUrlOrigins: [appOrigin],
    // Refusals and failures only; an entry never holds the token, a body or a header value.
    onLog: (entry) => {
      if (entry.level !== 'info') console.warn(JSON.stringify(entry));
    },
  };
}
