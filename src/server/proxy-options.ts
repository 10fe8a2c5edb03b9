/**
 * The proxy's options are checked when the first request arrives, not when the proxy is created: a route
 * module that creates the proxy at module scope must load while a framework builds the app (`next build`
 * in Docker or CI has no secrets). A wrong option then answers 500 with a generic message to the browser,
 * and says what is wrong once to the server's log.
 */
import { parseHttpUrl } from '../core/index.js';
import { errorResponse, proxyMessages } from './proxy-responses.js';
import { createRedactor } from './redact.js';

type Handler = (request: Request) => Promise<Response>;

/** The line logged when the options are unusable (one of the proxy's log entries). */
export interface InvalidOptionsLogEntry {
  level: 'error';
  event: 'invalid_options';
  method: string;
  route: 'unknown';
  reason: string;
}

/** The options this module checks; the proxy's own options type has them all. */
export interface CheckedProxyOptions {
  apiBaseUrl: string;
  apiToken: string;
  basePath?: string;
  authorize: unknown;
  rateLimit?: { limit: number; windowMs: number } | false;
  csrf?: { allowedOrigins: string[] };
  returnUrlOrigins?: string[];
  codehostInstallOrigins?: string[];
  appUrl?: string;
  onLog?(entry: InvalidOptionsLogEntry): void;
}

const isHttpUrl = (value: unknown): boolean => parseHttpUrl(value) !== undefined;

/** What is wrong with the options, one sentence each for the server's operator; empty when they are usable. */
export function problemsWithProxyOptions(options: CheckedProxyOptions): string[] {
  const problems: string[] = [];
  if (typeof options.apiToken !== 'string' || options.apiToken === '')
    problems.push("apiToken is missing: pass the team's Agent API token from the server's environment.");
  if (options.apiBaseUrl === undefined || options.apiBaseUrl === '')
    problems.push(
      "apiBaseUrl is missing: pass the Agent API base URL (ending in /api/v1) from the server's environment.",
    );
  else if (!isHttpUrl(options.apiBaseUrl)) problems.push('apiBaseUrl must be an http or https URL.');
  if (typeof options.authorize !== 'function')
    problems.push('authorize must be a function naming the signed-in end user of a request (or null).');
  if (options.basePath !== undefined && options.basePath !== '' && !options.basePath.startsWith('/'))
    problems.push('basePath must start with "/".');
  const { rateLimit } = options;
  if (rateLimit !== undefined && rateLimit !== false && (!(rateLimit.limit >= 1) || !(rateLimit.windowMs > 0)))
    problems.push('rateLimit needs limit >= 1 and windowMs > 0.');
  if (options.csrf !== undefined && !options.csrf.allowedOrigins.every(isHttpUrl))
    problems.push('csrf.allowedOrigins must hold http or https origins.');
  if (options.returnUrlOrigins !== undefined && !options.returnUrlOrigins.every(isHttpUrl))
    problems.push('returnUrlOrigins must hold http or https origins.');
  if (options.codehostInstallOrigins !== undefined && !options.codehostInstallOrigins.every(isHttpUrl))
    problems.push('codehostInstallOrigins must hold http or https origins.');
  if (options.appUrl !== undefined && !isHttpUrl(options.appUrl))
    problems.push("appUrl must be the agency app's http or https URL.");
  return problems;
}

/**
 * A handler that builds the proxy from its options at the first request. Unusable options are reported
 * once (to `onLog`, or `console.error` without one) and every request then answers a generic 500.
 */
export function deferOptionChecks<Options extends CheckedProxyOptions>(
  options: Options,
  build: (options: Options) => Handler,
): Handler {
  let handler: Handler | undefined;
  let failed = false;

  const report = (reason: string, method: string) => {
    const token = typeof options.apiToken === 'string' && options.apiToken !== '' ? options.apiToken : undefined;
    const redacted = token === undefined ? reason : createRedactor(token).text(reason);
    try {
      if (options.onLog)
        options.onLog({ level: 'error', event: 'invalid_options', method, route: 'unknown', reason: redacted });
      else console.error(`agent-embed proxy: the options are not usable, every request answers 500. ${redacted}`);
    } catch {
      // A failing logger must not fail the request.
    }
  };

  return async function agentProxy(request: Request): Promise<Response> {
    if (handler === undefined && !failed) {
      const problems: string[] = [];
      try {
        problems.push(...problemsWithProxyOptions(options));
        if (problems.length === 0) handler = build(options);
      } catch (error) {
        // Options of the wrong type altogether (from JavaScript callers) land here too.
        problems.push(error instanceof Error ? error.message : String(error));
      }
      if (handler === undefined) {
        failed = true;
        report(problems.join(' '), request.method);
      }
    }
    if (handler === undefined) return errorResponse('agent', 500, proxyMessages.internal);
    return handler(request);
  };
}
