/**
 * How the proxy reaches the Agent API: URLs built from the route table only (never from the browser's
 * path), the token as the only credential, redirects refused, and a deadline on the response headers.
 */
import { fillPath, type AgentRoute, type AgentRouteName } from '../core/index.js';
import type { RelayTimers } from './event-stream-relay.js';
import { ProxyRefusal, proxyMessages } from './proxy-responses.js';
import { fetchWithHeadersDeadline } from './upstream-timeouts.js';

/** What the caller needs to know of the proxy's settings. */
export interface UpstreamCallerSettings {
  apiOrigin: string;
  apiBase: URL;
  apiBasePath: string;
  routes: Readonly<Record<AgentRouteName, AgentRoute>>;
  token: string;
  fetch: typeof fetch;
  headersTimeoutMs: number;
  timers: RelayTimers;
}

const upstreamTimeoutReason = 'upstream headers timeout';

/**
 * Whether a call failed after the request reached the upstream without an answer in time: it may have started
 * the work (and spent the team's credits), so a generation it was for stays counted.
 */
export const isUpstreamTimeout = (thrown: unknown): boolean =>
  thrown instanceof ProxyRefusal && thrown.reason === upstreamTimeoutReason;

/** Creates the proxy's way to the upstream. */
export function createUpstreamCaller(settings: UpstreamCallerSettings) {
  const { apiOrigin, apiBase, apiBasePath, routes, token } = settings;
  return {
    /** The upstream URL of a route, with checked ids and only the allowed query. */
    url(name: AgentRouteName, params: Record<string, string>, query: URLSearchParams): URL {
      const url = new URL(`${apiBase.origin}${apiBasePath}${fillPath(routes[name].path, params)}`);
      url.search = query.toString();
      // Ids are checked and encoded, so this cannot fail; it stays as the last line of defence.
      if (url.origin !== apiOrigin || !url.pathname.startsWith(`${apiBasePath}/`))
        throw new Error('The upstream URL left the API base.');
      return url;
    },
    /** Sends one request, once; undefined when the upstream cannot be reached or redirects. */
    async call(
      url: URL,
      method: 'GET' | 'POST',
      body: string | undefined,
      stream: boolean,
    ): Promise<Response | undefined> {
      const headers: Record<string, string> = {
        authorization: `Bearer ${token}`,
        accept: stream ? 'text/event-stream' : 'application/json',
      };
      const init: RequestInit = { method, headers, redirect: 'error' };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        init.body = body;
      }
      const fetched = await fetchWithHeadersDeadline(
        settings.fetch,
        url,
        init,
        settings.headersTimeoutMs,
        settings.timers,
      );
      if (fetched.kind === 'timeout') throw new ProxyRefusal(504, proxyMessages.upstreamTimeout, upstreamTimeoutReason);
      if (fetched.kind === 'unreachable') return undefined;
      const response = fetched.response;
      // A fetch the agency plugged in may follow a redirect despite `redirect: 'error'`: the token then went elsewhere,
      // and the answer is that place's, not the API's. (A Response made by hand has no url: nothing to compare.)
      const answeredElsewhere = response.redirected || (response.url !== '' && response.url !== url.href);
      if ((response.status >= 300 && response.status < 400) || answeredElsewhere) {
        await response.body?.cancel().catch(() => undefined);
        return undefined;
      }
      return response;
    },
  };
}
