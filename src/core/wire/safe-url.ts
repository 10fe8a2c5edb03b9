/** The one check that decides whether a URL may become a link, an iframe, a redirect or a configured origin. */

/** The parsed URL if `value` is, exactly as given, an absolute http: or https: URL with a host; otherwise undefined. */
export function parseHttpUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : undefined;
}

/** The URL, normalised, if it is an absolute http: or https: URL (surrounding spaces allowed); otherwise undefined. */
export function safeHttpUrl(value: unknown): string | undefined {
  return typeof value === 'string' ? parseHttpUrl(value.trim())?.href : undefined;
}
