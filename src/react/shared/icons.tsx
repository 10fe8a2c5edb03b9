/** Small inline SVG icons (16 px, stroke in `currentColor`), decorative: the text beside them says the same. */
import type { ReactElement } from 'react';
import { cx } from './class-names.js';

/** The names of the icons. */
export type IconName =
  | 'alert'
  | 'check'
  | 'clock'
  | 'external'
  | 'branch'
  | 'lock'
  | 'globe'
  | 'repository'
  | 'rocket'
  | 'plug'
  | 'refresh'
  | 'search';

const paths: Record<IconName, ReactElement> = {
  alert: (
    <>
      <circle cx="8" cy="8" r="6.25" />
      <path d="M8 4.75v3.75M8 11v.25" />
    </>
  ),
  check: <path d="M3.5 8.5l3 3 6-7" />,
  clock: (
    <>
      <circle cx="8" cy="8" r="6.25" />
      <path d="M8 4.5V8l2.5 1.5" />
    </>
  ),
  external: <path d="M9.5 2.75h3.75V6.5M13.25 2.75L7.5 8.5M11.5 9.5v3.75H2.75V4.5H6.5" />,
  branch: (
    <>
      <circle cx="4.5" cy="3.5" r="1.5" />
      <circle cx="4.5" cy="12.5" r="1.5" />
      <circle cx="11.5" cy="5.5" r="1.5" />
      <path d="M4.5 5v6M11.5 7c0 2.5-3 3-7 4" />
    </>
  ),
  lock: (
    <>
      <rect x="3.25" y="7" width="9.5" height="6.5" rx="1.25" />
      <path d="M5.5 7V5a2.5 2.5 0 015 0v2" />
    </>
  ),
  globe: (
    <>
      <circle cx="8" cy="8" r="6.25" />
      <path d="M1.75 8h12.5M8 1.75c1.75 1.75 2.5 3.75 2.5 6.25S9.75 12.5 8 14.25C6.25 12.5 5.5 10.5 5.5 8S6.25 3.5 8 1.75" />
    </>
  ),
  repository: <path d="M3.25 12.5V3.25a1.5 1.5 0 011.5-1.5h8v9.5h-8a1.5 1.5 0 00-1.5 1.5 1.5 1.5 0 001.5 1.5h8" />,
  rocket: (
    <path d="M9.5 2.5c2-1 4-.75 4-.75s.25 2-.75 4L8.5 10 6 7.5l3.5-5zM6 7.5L3.5 7 2 8.5l3 .5M8.5 10l.5 2.5L7.5 14 7 11M4.5 11.5l-2 2" />
  ),
  plug: <path d="M6 1.75V5M10 1.75V5M4 5h8v2.5a4 4 0 01-8 0V5zM8 11.5v2.75" />,
  refresh: <path d="M13.25 3.5V6.5h-3M2.75 12.5V9.5h3M12.75 6.5A5 5 0 003.4 5.5M3.25 9.5a5 5 0 009.35 1" />,
  search: (
    <>
      <circle cx="7" cy="7" r="4.75" />
      <path d="M10.5 10.5l3.25 3.25" />
    </>
  ),
};

/** Icons that point a way: mirrored in right-to-left layouts (the stylesheet flips `.ae-icon-directional`). */
const directional: ReadonlySet<IconName> = new Set(['external']);

/** Props of `Icon`. */
export interface IconProps {
  name: IconName;
  className?: string;
}

/** One decorative inline icon, hidden from assistive technology. */
export function Icon({ name, className }: IconProps) {
  return (
    <svg
      className={cx('ae-icon', directional.has(name) && 'ae-icon-directional', className)}
      viewBox="0 0 16 16"
      width="16"
      height="16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {paths[name]}
    </svg>
  );
}
