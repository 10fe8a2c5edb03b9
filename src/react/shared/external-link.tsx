import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { safeHttpUrl } from '../../core/index.js';
import { cx } from './class-names.js';
import { Icon } from './icons.js';

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
function readableUrl(url: string): string {
  return url.slice(url.indexOf('//') + 2).replace(/\/$/, '');
}

/** Props of `AddressLink`. */
export interface AddressLinkProps {
  /** An http(s) URL that `safeHttpUrl` let through. */
  url: string;
  /** Said before the address to screen readers only ("Open the deployment: …"). */
  label?: string | undefined;
  className?: string | undefined;
}

/**
 * An outside address as a link that reads as the address, with the "opens elsewhere" icon after its last word: the
 * icon stays beside the text when a long address wraps, rather than at the far edge of the line. An address runs left
 * to right in every language, isolated: in an Arabic line its hyphens and slashes would otherwise jump ends.
 */
export function AddressLink({ url, label, className }: AddressLinkProps) {
  return (
    <a className={cx('ae-address-link', className)} href={url} target="_blank" rel="noopener noreferrer" dir="ltr">
      {label !== undefined && <span className="ae-visually-hidden">{label}: </span>}
      {readableUrl(url)}
      <Icon name="external" />
    </a>
  );
}
