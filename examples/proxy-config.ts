/**
 * Proxy options from the environment, shared by the examples. The token is read here and nowhere else.
 * Nothing here throws while a module loads: `next build` (Docker, CI) imports route modules with no secrets,
 * and the proxy checks its options at the first request instead (a 500, and the reason in the server log).
 */
// No package import here: each example folder installs agent-embed into its own node_modules, which this
// shared module (one level up) cannot see; createAgentProxy type-checks the options where they are passed.
// Extensionless: the Next.js example imports this module, and Turbopack does not map '.js' to '.ts'.
import { readSession } from './session';

/** Where the proxy is mounted; the browser uses createHttpTransport({ baseUrl: origin + agentBasePath }). */
export const agentBasePath = '/api/agent';

function required(env: Record<string, string | undefined>, name: string): string {
  const value = env[name];
  if (value === undefined || value === '') throw new Error(`Set ${name} in the server's environment.`);
  return value;
}

/** Options for createAgentProxy: AGENT_API_BASE_URL, AGENT_API_TOKEN, SESSION_SECRET and APP_ORIGIN. */
export function proxyOptionsFromEnv(env: Record<string, string | undefined> = process.env) {
  const appOrigin = env.APP_ORIGIN ?? '';
  return {
    apiBaseUrl: env.AGENT_API_BASE_URL ?? '',
    apiToken: env.AGENT_API_TOKEN ?? '',
    basePath: agentBasePath,
    // Read per request, so a missing secret is a 500 with this reason in the log, not a failed build.
    authorize: (request: Request) => readSession(request, required(env, 'SESSION_SECRET')),
    // A cookie session is sent by the browser on its own, so cross-site POSTs must be refused.
    csrf: { allowedOrigins: [appOrigin] },
    // Where end users come back to after the code-host install: the server decides, never a request header.
    appUrl: appOrigin,
    // Refusals and failures only; an entry never holds the token, a body or a header value.
    onLog: (entry: { level: string }) => {
      if (entry.level !== 'info') console.warn(JSON.stringify(entry));
    },
  };
}
