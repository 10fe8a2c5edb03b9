/** The one check that decides whether a URL may become a link, an iframe, a redirect or a configured origin. */

// What the URL parser forgives and drops or rewrites (whitespace, control characters, a backslash for a slash): a
// string that needs forgiving is not taken as an address, so what is checked is what a browser would open.
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const forgivenCharacters = /[\s\u0000-\u001f\u007f-\u009f\\]/;

/**
 * The parsed URL if `value` is, exactly as given, an absolute http: or https: URL with a host and no user name or
 * password (`https://app.example@evil.example/` reads as one host and opens another); otherwise undefined.
 */
export function parseHttpUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string' || forgivenCharacters.test(value) || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return undefined;
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : undefined;
}

/** The URL, normalised, if it is an absolute http: or https: URL (surrounding spaces allowed); otherwise undefined. */
export function safeHttpUrl(value: unknown): string | undefined {
  return typeof value === 'string' ? parseHttpUrl(value.trim())?.href : undefined;
}
