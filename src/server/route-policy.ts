/** Per-route rules of the proxy: who may call what, and how bodies and listings are bound to the end user. */
import { familyOfPath, promptErrors, type AgentRouteName, type RouteBody } from '../core/index.js';
import { answers, pick, type AnswerShape, type FieldShape, type FieldShapes } from './answer-shapes.js';
import { jsonDeeperThan, readBoundedBody } from './bounded-json.js';
import type { RelayTimers } from './event-stream-relay.js';
import { ProxyRefusal, proxyMessages, type ErrorShape } from './proxy-responses.js';
import { resolveReturnUrl, type ReturnUrlPolicy } from './return-url.js';
import { wellFormedJson } from './well-formed.js';

/** The signed-in end user, as the agency's own session says. */
export interface AgentProxyUser {
  /** The agency's id of the end user; must match `^[A-Za-z0-9_-]{1,128}$` to appear in paths. */
  externalUserId: string;
  name?: string;
  email?: string;
}

/** The bounds of a whole-number query parameter. */
export interface QueryBounds {
  min: number;
  max?: number;
}

/** What the proxy checks and changes on one route, and what it builds for the browser. */
export interface RoutePolicy {
  shape: ErrorShape;
  /** The path's `externalUserId` must be the signed-in user. */
  pathUser: boolean;
  /** The path's `projectId` must have been created by the signed-in user. */
  ownedProject: boolean;
  /**
   * The identity fields the proxy puts in the upstream body, from the session: none, `external_user_id`, or
   * that and the profile (`external_user_name`, `external_user_email`). The browser's are never forwarded.
   */
  identity: 'none' | 'user' | 'profile';
  /** The route's own body fields the browser may send (type-checked); everything else is dropped. */
  body: FieldShapes;
  /** The body carries a `return_url`, resolved by the server's rule. */
  returnUrl: boolean;
  /** How the browser's answer is built from an upstream success. */
  answer: AnswerShape;
  /** A success without a body (204, empty 200) still means the action happened (deploy, link, push). */
  emptySuccess: boolean;
  /** The query parameters the browser may send, each a whole number within its bounds (the spec's limits). */
  query: Readonly<Record<string, QueryBounds>>;
  recordsOwner: boolean;
  cachedStatus: boolean;
  /** The route carries required fields, so an empty body is a mistake on the agency's side. */
  bodyRequired: boolean;
}

const basePolicy: Omit<RoutePolicy, 'answer'> = {
  shape: 'envelope',
  pathUser: false,
  ownedProject: false,
  identity: 'none',
  body: {},
  returnUrl: false,
  emptySuccess: false,
  query: {},
  recordsOwner: false,
  cachedStatus: false,
  bodyRequired: false,
};

/** Fields only the proxy sets (from the session and its own return-URL rule), never taken from the browser. */
type ServerFields = 'external_user_id' | 'external_user_name' | 'external_user_email' | 'return_url';

/** The browser's fields of a route's body: keys of its body type in the route contract only (a typo does not compile). */
type BrowserFields<Name extends AgentRouteName> = {
  readonly [Field in Exclude<keyof NonNullable<RouteBody<Name>>, ServerFields>]?: FieldShape;
};

/** What the browser may send in each route's body, with its type; every other field is dropped. */
const browserFields: { readonly [Name in AgentRouteName]?: BrowserFields<Name> } = {
  generate: { prompt: 'string', mode: 'string' },
  followUp: { prompt: 'string' },
  connectDeployment: { token: 'string' },
  pushRepository: { repo_owner: 'string', repo_name: 'string', private: 'boolean', branch: 'string' },
  linkRepository: { repo_owner: 'string', repo_name: 'string' },
};

/** The policy of a route of the table: one place per route, so a new route cannot forget a rule. */
export function policyFor(name: AgentRouteName): RoutePolicy {
  return { ...rulesOf(name), body: (browserFields[name] ?? {}) as FieldShapes };
}

function rulesOf(name: AgentRouteName): RoutePolicy {
  switch (name) {
    case 'generate':
      return {
        ...basePolicy,
        shape: 'agent',
        recordsOwner: true,
        bodyRequired: true,
        answer: answers.stream,
      };
    case 'followUp':
      return {
        ...basePolicy,
        shape: 'agent',
        ownedProject: true,
        bodyRequired: true,
        answer: answers.stream,
      };
    case 'getProject':
      return { ...basePolicy, shape: 'agent', ownedProject: true, cachedStatus: true, answer: answers.project };
    case 'listPlans':
      return { ...basePolicy, answer: answers.plans };
    case 'connectDeployment':
      return {
        ...basePolicy,
        identity: 'user',
        bodyRequired: true,
        answer: answers.deploymentConnection,
      };
    case 'getDeploymentConnection':
      return { ...basePolicy, pathUser: true, answer: answers.deploymentConnection };
    case 'getCodehostConnection':
      return { ...basePolicy, pathUser: true, answer: answers.codehostConnection };
    case 'listDeploymentConnections':
      return { ...basePolicy, answer: answers.deploymentConnections };
    case 'listCodehostConnections':
      return { ...basePolicy, answer: answers.codehostConnections };
    case 'deploy':
      return { ...basePolicy, identity: 'user', ownedProject: true, emptySuccess: true, answer: answers.deployment };
    case 'pushRepository':
      return {
        ...basePolicy,
        identity: 'user',
        ownedProject: true,
        emptySuccess: true,
        answer: answers.push,
      };
    case 'linkRepository':
      return {
        ...basePolicy,
        identity: 'user',
        ownedProject: true,
        bodyRequired: true,
        emptySuccess: true,
        answer: answers.link,
      };
    case 'startCodehostConnect':
      return { ...basePolicy, identity: 'profile', returnUrl: true, answer: answers.codehostStart };
    case 'listRepositories':
      return {
        ...basePolicy,
        pathUser: true,
        query: { page: { min: 1 }, per_page: { min: 1, max: 100 } },
        answer: answers.repositories,
      };
    default:
      return name satisfies never;
  }
}

/**
 * The browser's query parameters the route's policy allows, and only those, for the upstream URL: each a whole number
 * within its bounds (the spec's `page` >= 1, `per_page` 1 to 100), else the request is refused with 422 and the field
 * named, as the API would refuse it, before anything is spent. A repeated parameter is read by its first value.
 */
export function allowedQuery(policy: RoutePolicy, url: URL): URLSearchParams {
  const query = new URLSearchParams();
  const errors: Record<string, string[]> = {};
  for (const [name, { min, max }] of Object.entries(policy.query)) {
    const value = url.searchParams.get(name);
    if (value === null) continue;
    const number = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
    if (number >= min && (max === undefined || number <= max)) query.set(name, String(number));
    else errors[name] = [queryBoundsMessage(name, min, max)];
  }
  if (Object.keys(errors).length > 0)
    throw new ProxyRefusal(422, Object.values(errors)[0]?.[0] ?? '', 'query refused', { errors });
  return query;
}

/** Why a query value is refused, in the words of the API's validation messages. */
function queryBoundsMessage(name: string, min: number, max: number | undefined): string {
  const field = name.replace(/_/g, ' ');
  return max === undefined
    ? `The ${field} field must be an integer of at least ${min}.`
    : `The ${field} field must be an integer between ${min} and ${max}.`;
}

/** Refuses a cross-site POST when `csrf.allowedOrigins` is set (cookie sessions). */
export function checkCsrf(request: Request, allowedOrigins: ReadonlySet<string> | undefined): void {
  if (allowedOrigins === undefined || request.method.toUpperCase() !== 'POST') return;
  const site = request.headers.get('sec-fetch-site');
  const origin = request.headers.get('origin');
  if (site === 'same-origin') return;
  if (origin !== null && allowedOrigins.has(origin)) return;
  // Every browser that can carry a cross-site cookie sends one of these two headers on a POST.
  if (site === null && origin === null) return;
  throw new ProxyRefusal(403, proxyMessages.crossOrigin, 'csrf');
}

/** The body shape of a 404 for a path outside the table, by its family. */
export function shapeOfUnknownPath(path: string): ErrorShape {
  return familyOfPath(path);
}

/** Operator words for the log only: end users cannot act on them and must not read how the server is set up. */
const bodyConsumedHint =
  'The request body was empty or already read. A body parser (such as express.json()) mounted before the agent proxy consumes it: mount the proxy first.';

/** The browser is told only that its body is not a JSON object; the likely cause goes to the log. */
const bodyConsumed = (reason: string) => new ProxyRefusal(400, proxyMessages.notJson, reason, {}, bodyConsumedHint);

/**
 * Reads a JSON object body of at most `maxBodyBytes`, sent as application/json, within `bodyTimeoutMs`. An
 * empty body is `{}` where the route has none required; a body already read by someone else (a body parser)
 * is refused, and the likely cause (a body parser in front) is hinted to the log.
 */
export async function readJsonObjectBody(
  request: Request,
  limits: { maxBodyBytes: number; bodyTimeoutMs: number; maxDepth: number; timers: RelayTimers },
  required = false,
): Promise<Record<string, unknown>> {
  const { maxBodyBytes, bodyTimeoutMs, timers } = limits;
  if (request.bodyUsed) throw bodyConsumed('body already read');
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBodyBytes) throw new ProxyRefusal(413, proxyMessages.tooLarge, 'body too large');
  const contentType = (request.headers.get('content-type') ?? '').toLowerCase();
  // Requiring JSON also makes every cross-origin POST a preflighted one, which CORS then blocks.
  if (!contentType.startsWith('application/json'))
    throw new ProxyRefusal(415, proxyMessages.unsupportedMediaType, 'not json');
  // One deadline for the whole body, so a client dripping bytes cannot hold a connection open.
  const read = await readBoundedBody(request.body, {
    maxBytes: maxBodyBytes,
    idleMs: 0,
    totalMs: bodyTimeoutMs,
    timers,
  });
  if (read.kind === 'too_large') throw new ProxyRefusal(413, proxyMessages.tooLarge, 'body too large');
  if (read.kind === 'stalled') throw new ProxyRefusal(408, proxyMessages.bodyTimeout, 'body read deadline');
  if (read.kind === 'cut') throw new ProxyRefusal(400, proxyMessages.bodyCut, 'body cut short');
  const { text } = read;
  if (text.trim() === '') {
    // A declared length with nothing left to read: a body parser mounted before the proxy read it.
    if (declared > 0 || required) throw bodyConsumed('body empty or already read');
    return {};
  }
  if (jsonDeeperThan(text, limits.maxDepth))
    throw new ProxyRefusal(400, proxyMessages.tooDeep, 'body nested too deeply');
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

/** Identity and profile fields of the spec; only the proxy sets them, from the session. */
const identityFields = ['external_user_id', 'external_user_name', 'external_user_email'] as const;

/**
 * The upstream body of a route (its JSON text), built from the browser's: the route's own fields (type-checked), the
 * identity fields from the session, and a `return_url` of the server's choosing. Another user's
 * `external_user_id` is refused (403); the browser's other identity fields are dropped and named to `warn`. Every
 * string is made well-formed: the upstream's decoder refuses a lone surrogate's escape, and would answer that the
 * prompt is missing.
 */
export function buildUpstreamBody(
  body: Record<string, unknown>,
  policy: RoutePolicy,
  user: AgentProxyUser,
  returnUrlPolicy: ReturnUrlPolicy,
  warn: (field: string) => void,
): string {
  if ('external_user_id' in body && body.external_user_id !== user.externalUserId) {
    throw new ProxyRefusal(403, proxyMessages.forbidden, 'another external_user_id in body');
  }
  const session = { external_user_name: user.name, external_user_email: user.email };
  // The browser's copy of the session's own profile is expected (the components send it); a different one is not.
  for (const field of identityFields)
    if (field !== 'external_user_id' && field in body && body[field] !== session[field]) warn(field);
  // The mode names what is built and billed, and the record keeps it: a value the spec does not name is refused, not
  // sent on (the upstream might read it one way and the record another).
  if (policy.body.mode !== undefined && body.mode !== undefined && body.mode !== 'build' && body.mode !== 'design')
    throw new ProxyRefusal(422, proxyMessages.invalidMode, 'mode refused', {
      errors: { mode: [proxyMessages.invalidMode] },
    });
  // A prompt the API is bound to refuse is refused here, before the quota and the team's rate budget are spent on it.
  const promptRefused = policy.body.prompt === undefined ? undefined : promptErrors(body.prompt);
  if (promptRefused !== undefined)
    throw new ProxyRefusal(422, promptRefused[0] as string, 'prompt refused', { errors: { prompt: promptRefused } });
  const upstream: Record<string, unknown> = pick(body, policy.body, (text) => text);
  if (policy.identity !== 'none') upstream.external_user_id = user.externalUserId;
  if (policy.identity === 'profile') {
    if (user.name !== undefined) upstream.external_user_name = user.name;
    if (user.email !== undefined) upstream.external_user_email = user.email;
  }
  if (policy.returnUrl) {
    if (returnUrlPolicy.kind === 'unconfigured')
      throw new ProxyRefusal(500, proxyMessages.notConfigured, 'appUrl not configured');
    const resolved = resolveReturnUrl(body.return_url, returnUrlPolicy);
    if (resolved === undefined)
      throw new ProxyRefusal(422, proxyMessages.invalidReturnUrl, 'return_url refused', {
        errors: { return_url: [proxyMessages.invalidReturnUrl] },
      });
    upstream.return_url = resolved;
  }
  return wellFormedJson(upstream);
}
