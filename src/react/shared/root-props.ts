/** How public components compose: their own props plus the attributes of their root element. */
import type { ComponentPropsWithoutRef } from 'react';

/**
 * A component's own props plus every attribute of its root element that they do not name; the rest is spread
 * onto the root (after the component's own attributes, so an `id`, `aria-*` or `data-*` given wins) and the
 * ref reaches the root, as with Radix's parts.
 */
export type WithRootProps<Own, Root extends 'div' | 'section' | 'form'> = Own &
  Omit<ComponentPropsWithoutRef<Root>, keyof Own>;
