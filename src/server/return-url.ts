/**
 * Where a browser returns after the code-host install: chosen by the server, as Stripe's account links do.
 * The browser may send a path, joined to the agency's app origin, or an absolute URL on a configured origin;
 * no request header is ever an allow-list (any script sets `Origin` and `Host` at will).
 */
import { parseHttpUrl } from '../core/index.js';

/** The return-URL rule of one proxy, from its options. */
export type ReturnUrlPolicy =
  /** The app origin a path is joined to (`appUrl`, or the first of `returnUrlOrigins`), and every allowed origin. */
  | { kind: 'configured'; base: URL; origins: ReadonlySet<string> }
  /** Nothing configured, outside production: loopback origins only, with a warning. */
  | { kind: 'loopback' }
  /** Nothing configured in production: the connect route is refused until the operator sets `appUrl`. */
  | { kind: 'unconfigured' };

/** The operator's words when the connect route is refused for want of configuration (to the log only). */
export const returnUrlUnconfigured =
  'The code-host connect route needs appUrl (or returnUrlOrigins) in createAgentProxy options in production: the origin end users return to after installing.';

/** The operator's warning when loopback origins are accepted for want of configuration. */
export const returnUrlLoopbackOnly =
  'No appUrl or returnUrlOrigins set: code-host return URLs are accepted on localhost, 127.0.0.1 and [::1] only (development). Set appUrl before production.';

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Whitespace, a backslash (read as a slash by browsers) or a control character anywhere. */
const isUnsafe = (value: string) =>
  /[\s\\]/.test(value) || [...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);

/** The return-URL rule of a proxy, from its checked `appUrl` then `returnUrlOrigins`, and its environment. */
export function returnUrlPolicyOf(origins: readonly URL[], production: boolean): ReturnUrlPolicy {
  const base = origins[0];
  if (base !== undefined) return { kind: 'configured', base, origins: new Set(origins.map((url) => url.origin)) };
  return production ? { kind: 'unconfigured' } : { kind: 'loopback' };
}

function httpUrl(value: string): URL | undefined {
  const url = parseHttpUrl(value);
  return url === undefined || url.username !== '' || url.password !== '' ? undefined : url;
}

/**
 * The URL's href, unless its normalised path starts with `//` (`/..//evil.example` normalises to it): the origin is
 * the app's, but an app that redirects to its own path would send the browser to `//evil.example`, another host.
 */
const hrefOf = (url: URL) => (url.pathname.startsWith('//') ? undefined : url.href);

/**
 * The normalised return URL to send upstream, or undefined when refused. Refused: anything not a string,
 * surrounding spaces, control characters, other schemes, credentials, protocol-relative `//host` (also once
 * normalised, as a path) and origins outside the rule. `undefined` asks for the default (the app URL).
 */
export function resolveReturnUrl(value: unknown, policy: ReturnUrlPolicy): string | undefined {
  if (policy.kind === 'unconfigured') return undefined;
  if (value === undefined) return policy.kind === 'configured' ? policy.base.href : undefined;
  if (typeof value !== 'string' || value === '' || value !== value.trim() || isUnsafe(value)) return undefined;
  if (value.startsWith('/')) {
    // A path on the app's own origin; `//host` and `/\host` would leave it.
    if (policy.kind !== 'configured' || value.startsWith('//')) return undefined;
    const joined = new URL(value, policy.base);
    return joined.origin === policy.base.origin ? hrefOf(joined) : undefined;
  }
  const url = httpUrl(value);
  if (url === undefined) return undefined;
  if (policy.kind === 'configured') return policy.origins.has(url.origin) ? hrefOf(url) : undefined;
  return loopbackHosts.has(url.hostname) ? hrefOf(url) : undefined;
}
