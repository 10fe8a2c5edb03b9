/** Responses the proxy writes itself, in the spec's two body shapes, with safe headers. */
import { agentApiMessages } from '../core/index.js';

/** Agent endpoints answer `{ status: false, message }`; deployment and code-host ones the envelope. */
export type ErrorShape = 'agent' | 'envelope';

/** Headers on every JSON answer of the proxy. */
export function jsonHeaders(contentType = 'application/json'): Headers {
  return new Headers({
    'content-type': contentType,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
}

/** Adds Retry-After and lets cross-origin browser code read it. */
export function withRetryAfter(headers: Headers, retryAfter: string | undefined): Headers {
  if (retryAfter === undefined) return headers;
  headers.set('retry-after', retryAfter);
  headers.set('access-control-expose-headers', 'Retry-After');
  return headers;
}

/** The body of a failure in the given shape. */
export function errorBody(shape: ErrorShape, message: string, errors?: Record<string, string[]>): string {
  switch (shape) {
    case 'agent':
      return JSON.stringify(errors === undefined ? { status: false, message } : { status: false, message, errors });
    case 'envelope':
      return JSON.stringify({ success: false, message, data: null, errors: errors ?? null });
    default:
      return shape satisfies never;
  }
}

/** A failure the proxy produced, in the shape of the endpoint family. */
export function errorResponse(
  shape: ErrorShape,
  status: number,
  message: string,
  extra: { retryAfterSeconds?: number; errors?: Record<string, string[]> } = {},
): Response {
  const headers = withRetryAfter(
    jsonHeaders(),
    extra.retryAfterSeconds === undefined ? undefined : String(extra.retryAfterSeconds),
  );
  return new Response(errorBody(shape, message, extra.errors), { status, headers });
}

/** Whole seconds for a Retry-After header, never less than one. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** Messages of the failures the proxy produces itself (the spec's words where the spec has them). */
export const proxyMessages = {
  unauthorized: agentApiMessages.unauthorized,
  projectNotFound: agentApiMessages.projectNotFound,
  tooManyAttempts: agentApiMessages.tooManyAttempts,
  notFound: 'Not found.',
  forbidden: 'This action is unauthorized.',
  crossOrigin: 'Cross-origin request refused.',
  bodyTimeout: 'The request body took too long to arrive.',
  tooLarge: 'The request body is too large.',
  notJson: 'The request body must be a JSON object.',
  tooDeep: 'The request body is nested too deeply.',
  bodyCut: 'The request body was cut off before its end.',
  notConfigured: 'This feature is not set up on the server yet.',
  unsupportedMediaType: 'The request body must be sent as application/json.',
  invalidReturnUrl: 'The return url must be an http or https URL the agency allows.',
  invalidMode: 'The mode must be build or design.',
  upstreamUnreachable: 'The Agent API could not be reached.',
  upstreamTimeout: 'The Agent API did not answer in time.',
  draining: 'The service is restarting. Please try again in a moment.',
  tooManyStreams: 'Too many builds are being followed at once. Close another tab and try again.',
  upstreamUnexpected: 'The Agent API answered with something the proxy cannot relay.',
  internal: 'The proxy failed to handle the request.',
} as const;

/** A request the proxy refuses itself, with the reason it logs. */
export class ProxyRefusal {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly reason: string,
    readonly extra: { retryAfterSeconds?: number; errors?: Record<string, string[]> } = {},
    /** What the agency likely set up wrong: logged once as a `config_warning`, never sent to the browser. */
    readonly hint?: string,
  ) {}
}

/** What an upstream JSON answer becomes for the browser; shared by coalesced status polls. */
export interface RelayedJson {
  status: number;
  body: string;
  retryAfter?: string;
}

/** The browser's response for a relayed JSON answer: the fixed JSON headers and any Retry-After. */
export function relayedResponse(relayed: RelayedJson): Response {
  return new Response(relayed.body, {
    status: relayed.status,
    headers: withRetryAfter(jsonHeaders(), relayed.retryAfter),
  });
}
