/** The one check that decides whether a URL may become a link, an iframe or a redirect. */

/** The URL, normalised, if it is an absolute http: or https: URL; otherwise undefined. */
export function safeHttpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}
