/** Per-route rules of the proxy: who may call what, and how bodies and listings are bound to the end user. */
import { familyOfPath, type AgentRouteName } from '../core/index.js';
import { ProxyRefusal, proxyMessages, type ErrorShape } from './proxy-responses.js';

/** The signed-in end user, as the agency's own session says. */
export interface AgentProxyUser {
  /** The agency's id of the end user; must match `^[A-Za-z0-9_-]{1,128}$` to appear in paths. */
  externalUserId: string;
  name?: string;
  email?: string;
}

/** What the proxy checks and changes on one route. */
export interface RoutePolicy {
  shape: ErrorShape;
  /** The path's `externalUserId` must be the signed-in user. */
  pathUser: boolean;
  /** The path's `projectId` must have been created by the signed-in user. */
  ownedProject: boolean;
  /** The body's `external_user_id` is checked, and filled in when absent if 'fill'. */
  bodyUser: 'none' | 'check' | 'fill';
  /** Fill `external_user_name` and `external_user_email` from the session when absent. */
  profile: boolean;
  returnUrl: boolean;
  /** An agency-wide listing, cut down to the signed-in user's items. */
  filterList: boolean;
  query: readonly string[];
  recordsOwner: boolean;
  cachedStatus: boolean;
  /** The route carries required fields, so an empty body is a mistake on the agency's side. */
  bodyRequired: boolean;
}

const basePolicy: RoutePolicy = {
  shape: 'envelope',
  pathUser: false,
  ownedProject: false,
  bodyUser: 'none',
  profile: false,
  returnUrl: false,
  filterList: false,
  query: [],
  recordsOwner: false,
  cachedStatus: false,
  bodyRequired: false,
};

/** The policy of a route of the table. */
export function policyFor(name: AgentRouteName): RoutePolicy {
  switch (name) {
    case 'generate':
      return { ...basePolicy, shape: 'agent', bodyUser: 'check', recordsOwner: true, bodyRequired: true };
    case 'followUp':
      return { ...basePolicy, shape: 'agent', bodyUser: 'check', ownedProject: true, bodyRequired: true };
    case 'getProject':
      return { ...basePolicy, shape: 'agent', ownedProject: true, cachedStatus: true };
    case 'listPlans':
      return { ...basePolicy };
    case 'connectDeployment':
      return { ...basePolicy, bodyUser: 'fill', bodyRequired: true };
    case 'getDeploymentConnection':
    case 'getCodehostConnection':
      return { ...basePolicy, pathUser: true };
    case 'listDeploymentConnections':
    case 'listCodehostConnections':
      return { ...basePolicy, filterList: true };
    case 'deploy':
    case 'pushRepository':
      return { ...basePolicy, bodyUser: 'fill', ownedProject: true };
    case 'linkRepository':
      return { ...basePolicy, bodyUser: 'fill', ownedProject: true, bodyRequired: true };
    case 'startCodehostConnect':
      return { ...basePolicy, bodyUser: 'fill', profile: true, returnUrl: true, bodyRequired: true };
    case 'listRepositories':
      return { ...basePolicy, pathUser: true, query: ['page', 'per_page'] };
    default:
      return name satisfies never;
  }
}

/** The body shape of a 404 for a path outside the table, by its family. */
export function shapeOfUnknownPath(path: string): ErrorShape {
  return familyOfPath(path);
}

/**
 * Reads a JSON object body of at most `maxBodyBytes`, sent as application/json, within `bodyTimeoutMs`. An
 * empty body is `{}` where the route has none required; a body already read by someone else (a body parser)
 * is refused.
 */
export async function readJsonObjectBody(
  request: Request,
  maxBodyBytes: number,
  bodyTimeoutMs: number,
  required = false,
): Promise<Record<string, unknown>> {
  if (request.bodyUsed) throw new ProxyRefusal(400, proxyMessages.bodyConsumed, 'body already read');
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBodyBytes) throw new ProxyRefusal(413, proxyMessages.tooLarge, 'body too large');
  const contentType = (request.headers.get('content-type') ?? '').toLowerCase();
  // Requiring JSON also makes every cross-origin POST a preflighted one, which CORS then blocks.
  if (!contentType.startsWith('application/json'))
    throw new ProxyRefusal(415, proxyMessages.unsupportedMediaType, 'not json');
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    // One deadline for the whole body, so a client dripping bytes cannot hold a connection open.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      if (bodyTimeoutMs > 0) timer = setTimeout(() => resolve('late'), bodyTimeoutMs);
    });
    try {
      for (;;) {
        const read = await Promise.race([reader.read(), late]);
        if (read === 'late') {
          await reader.cancel().catch(() => undefined);
          throw new ProxyRefusal(408, proxyMessages.bodyTimeout, 'body read deadline');
        }
        if (read.done) break;
        size += read.value.length;
        if (size > maxBodyBytes) {
          await reader.cancel().catch(() => undefined);
          throw new ProxyRefusal(413, proxyMessages.tooLarge, 'body too large');
        }
        chunks.push(read.value);
      }
    } finally {
      clearTimeout(timer);
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === '') {
    // A declared length with nothing left to read: a body parser mounted before the proxy read it.
    if (declared > 0 || required) throw new ProxyRefusal(400, proxyMessages.bodyConsumed, 'body empty or already read');
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ProxyRefusal(400, proxyMessages.notJson, 'invalid json');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ProxyRefusal(400, proxyMessages.notJson, 'not an object');
  return parsed as Record<string, unknown>;
}

/** Binds a body to the signed-in user: refuses anyone else's `external_user_id`, fills in what the route carries. */
export function bindBodyToUser(
  body: Record<string, unknown>,
  policy: RoutePolicy,
  user: AgentProxyUser,
  returnUrlOrigins: ReadonlySet<string>,
): void {
  if ('external_user_id' in body && body.external_user_id !== user.externalUserId) {
    throw new ProxyRefusal(403, proxyMessages.forbidden, 'another external_user_id in body');
  }
  if (policy.bodyUser === 'fill') body.external_user_id = user.externalUserId;
  if (policy.profile) {
    if (body.external_user_name === undefined && user.name !== undefined) body.external_user_name = user.name;
    if (body.external_user_email === undefined && user.email !== undefined) body.external_user_email = user.email;
  }
  if (policy.returnUrl && body.return_url !== undefined) {
    const normalized = allowedReturnUrl(body.return_url, returnUrlOrigins);
    if (normalized === undefined)
      throw new ProxyRefusal(422, proxyMessages.invalidReturnUrl, 'return_url refused', {
        errors: { return_url: [proxyMessages.invalidReturnUrl] },
      });
    // The parsed form goes upstream, so the upstream cannot read the URL differently from the check.
    body.return_url = normalized;
  }
}

/** The normalised `href` of a return URL to an allowed origin, or undefined (spaces, credentials, other schemes refused). */
function allowedReturnUrl(value: unknown, allowedOrigins: ReadonlySet<string>): string | undefined {
  if (typeof value !== 'string' || value !== value.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  return allowedOrigins.has(url.origin) ? url.href : undefined;
}

/** The origins a return URL may point to: the configured list, else the request's own origin (`Origin`, else its URL). */
export function returnUrlOriginsFor(
  request: Request,
  configured: ReadonlySet<string> | undefined,
): ReadonlySet<string> {
  if (configured !== undefined) return configured;
  const header = request.headers.get('origin');
  if (header !== null && /^https?:\/\/[^/]+$/i.test(header)) return new Set([new URL(header).origin]);
  return new Set([new URL(request.url).origin]);
}

/** Keeps only the signed-in user's items of a listing whose shape the spec does not show; undefined when unrecognised. */
export function filterOwnListing(text: string, userId: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const mine = (items: unknown[]) =>
    items.filter(
      (item) =>
        typeof item === 'object' &&
        item !== null &&
        (item as { external_user_id?: unknown }).external_user_id === userId,
    );
  if (Array.isArray(body)) return JSON.stringify(mine(body));
  if (typeof body !== 'object' || body === null) return undefined;
  const record = { ...(body as Record<string, unknown>) };
  if (Array.isArray(record.data)) return JSON.stringify({ ...record, data: mine(record.data) });
  if (typeof record.data === 'object' && record.data !== null) {
    const data = { ...(record.data as Record<string, unknown>) };
    for (const key of ['items', 'connections']) {
      const items = data[key];
      if (!Array.isArray(items)) continue;
      const kept = mine(items);
      data[key] = kept;
      // A count of everyone's connections would leak how many other end users there are.
      if (typeof data.meta === 'object' && data.meta !== null && 'total_count' in data.meta)
        data.meta = { ...data.meta, total_count: kept.length };
      return JSON.stringify({ ...record, data });
    }
  }
  return undefined;
}
