import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { safeHttpUrl } from '../../core/index.js';

/** Props of `ExternalLink`. */
export interface ExternalLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'target' | 'rel'> {
  /** Any value: it becomes a link only when it is an http(s) URL. */
  href: unknown;
  children: ReactNode;
  /** Shown instead when the URL is not http(s) (default nothing). */
  fallback?: ReactNode;
}

/** A link that opens in a new tab, rendered only for http(s) URLs: the one place links to outside URLs are made. */
export function ExternalLink({ href, children, fallback = null, ...rest }: ExternalLinkProps) {
  const url = safeHttpUrl(href);
  if (url === undefined) return <>{fallback}</>;
  return (
    <a {...rest} href={url} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** A URL that `safeHttpUrl` let through, as people read it: without its scheme or a trailing slash. */
export function readableUrl(url: string): string {
  return url.slice(url.indexOf('//') + 2).replace(/\/$/, '');
}
