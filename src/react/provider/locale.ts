/** What a locale tag decides besides formatting: which pack of texts, and which way the text runs. */
import type { AgentLabels } from './labels.js';

/** The `dir` of the provider's root. */
export type TextDirection = 'ltr' | 'rtl' | 'auto';

// Languages written right to left (ISO 639 codes, with the old `iw` for Hebrew).
const rightToLeft = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'iw', 'ks', 'ps', 'sd', 'ug', 'ur', 'yi']);

function parsed(locale: string): Intl.Locale | undefined {
  try {
    return new Intl.Locale(locale);
  } catch {
    return undefined;
  }
}

/** The direction of a locale's script (`undefined` without a locale: the host page's direction stands). */
export function localeDirection(locale: string | undefined): TextDirection | undefined {
  if (locale === undefined) return undefined;
  const tag = parsed(locale);
  if (tag === undefined) return undefined;
  // A script subtag decides over the language: `ku-Arab` runs right to left, `az-Latn` left to right.
  if (tag.script !== undefined)
    return ['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm', 'Rohg'].includes(tag.script) ? 'rtl' : 'ltr';
  return rightToLeft.has(tag.language) ? 'rtl' : 'ltr';
}

/**
 * The pack for a locale: the exact tag first (`pt-BR`), then its language alone (`de` for `de-AT`), then any
 * pack of the same language (`pt-BR` for `pt`); `undefined` (English) when none matches.
 */
export function pickLocale(
  locales: Readonly<Record<string, AgentLabels>> | undefined,
  locale: string | undefined,
): AgentLabels | undefined {
  const tag = packTag(locales, locale);
  return tag === undefined ? undefined : locales?.[tag];
}

/** The tag of the pack `pickLocale` picks. */
function packTag(locales: Readonly<Record<string, AgentLabels>> | undefined, locale: string | undefined) {
  if (locales === undefined || locale === undefined) return undefined;
  if (Object.hasOwn(locales, locale)) return locale;
  const language = parsed(locale)?.language ?? locale.split('-')[0]!;
  const lower = language.toLowerCase();
  const tags = Object.keys(locales);
  return (
    tags.find((tag) => tag.toLowerCase() === locale.toLowerCase()) ??
    tags.find((tag) => tag.toLowerCase() === lower) ??
    tags.find((tag) => tag.toLowerCase().split('-')[0] === lower)
  );
}

/**
 * The `lang` of the provider's root: the language its texts are in. That is the tag asked for, canonical (`ar-EG`,
 * `de-CH`), when its pack is what is shown and it runs the pack's way; else the pack's own tag, or `en` when no pack
 * matched (the texts are then the built-in English), unless the agency gives words of its own (`ownWords`: its
 * `labels`, in the tag asked for). A tag that is not one (`en_US`, `<script>`) is never copied.
 */
export function shownLanguage(
  locales: Readonly<Record<string, AgentLabels>> | undefined,
  locale: string | undefined,
  ownWords: boolean,
): string | undefined {
  if (locale === undefined) return undefined;
  const asked = parsed(locale);
  const shown = packTag(locales, locale) ?? (ownWords && asked !== undefined ? asked.toString() : 'en');
  const fits =
    asked !== undefined &&
    asked.language === (parsed(shown)?.language ?? shown) &&
    localeDirection(asked.toString()) === localeDirection(shown);
  return fits ? asked.toString() : shown;
}
