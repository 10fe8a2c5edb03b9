/**
 * The agency's own session, as the examples assume one: a cookie `session=<payload>.<signature>` where the
 * payload is base64url JSON of the end user and the signature an HMAC-SHA256 of it with a server secret.
 * A real agency plugs its existing session check (NextAuth, Passport, iron-session, ...) in its place.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The end user a session names: the shape of AgentProxyUser, written out so that this module imports no
 * package and each example folder resolves agent-embed from its own node_modules.
 */
export interface SessionUser {
  externalUserId: string;
  name?: string;
  email?: string;
}

const cookieName = 'session';

function signature(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/** The cookie value for an end user (what the agency's login sets). */
export function signSession(user: SessionUser, secret: string): string {
  const payload = Buffer.from(JSON.stringify(user)).toString('base64url');
  return `${payload}.${signature(payload, secret)}`;
}

/** The signed-in end user of a request, or null when the cookie is missing, forged or malformed. */
export function readSession(request: Request, secret: string): SessionUser | null {
  const cookies = request.headers.get('cookie') ?? '';
  const value = cookies
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${cookieName}=`))
    ?.slice(cookieName.length + 1);
  if (value === undefined) return null;
  const [payload, given] = value.split('.');
  if (payload === undefined || given === undefined) return null;
  const expected = Buffer.from(signature(payload, secret));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  try {
    const user = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<SessionUser>;
    if (typeof user.externalUserId !== 'string') return null;
    return {
      externalUserId: user.externalUserId,
      ...(typeof user.name === 'string' ? { name: user.name } : {}),
      ...(typeof user.email === 'string' ? { email: user.email } : {}),
    };
  } catch {
    return null;
  }
}
