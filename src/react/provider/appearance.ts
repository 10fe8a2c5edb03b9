/** Typed theme variables, turned into `--agent-embed-*` CSS custom properties on the provider's root. */
import type { CSSProperties } from 'react';

/** Theme variables; lengths given as numbers are pixels. */
export interface AgentAppearance {
  colorPrimary?: string;
  /** Text on primary-coloured surfaces (buttons). */
  colorPrimaryText?: string;
  colorBackground?: string;
  /** Raised surfaces: panels, list rows. */
  colorSurface?: string;
  colorText?: string;
  colorMuted?: string;
  colorBorder?: string;
  colorDanger?: string;
  colorSuccess?: string;
  colorWarning?: string;
  colorFocus?: string;
  borderRadius?: string | number;
  fontFamily?: string;
  fontSize?: string | number;
  /** The base spacing step; paddings and gaps are multiples of it. */
  spacingUnit?: string | number;
}

/** Light, dark, or following the system. */
export type AgentColorScheme = 'light' | 'dark' | 'auto';

const lengthKeys: ReadonlySet<keyof AgentAppearance> = new Set(['borderRadius', 'fontSize', 'spacingUnit']);

/** `colorPrimary` → `--agent-embed-color-primary`. */
export function appearanceVariableName(key: keyof AgentAppearance): `--agent-embed-${string}` {
  return `--agent-embed-${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** The inline style for the provider's root element: one custom property per variable given. */
export function appearanceStyle(appearance: AgentAppearance | undefined): CSSProperties {
  const style: Record<string, string> = {};
  if (appearance === undefined) return style;
  for (const [key, value] of Object.entries(appearance) as [keyof AgentAppearance, string | number | undefined][]) {
    if (value === undefined || value === '') continue;
    style[appearanceVariableName(key)] =
      typeof value === 'number' && lengthKeys.has(key) ? `${value}px` : String(value);
  }
  return style as CSSProperties;
}
