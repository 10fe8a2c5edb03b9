/** Locale-aware number, percentage and date formatting for the components. */
import { yieldToBrowser } from '../../core/index.js';

/** Formatters bound to the provider's locale. */
export interface AgentFormat {
  locale: string | undefined;
  number(value: number): string;
  /** A percentage given as 0–100. */
  percent(value: number): string;
  dateTime(timestamp: number): string;
  /** A short time of day (today's turns of a conversation). */
  time(timestamp: number): string;
}

/** The locale the formatters use: the given tag, or the browser's (undefined) when it is not a valid one. */
function usableLocale(locale: string | undefined): string | undefined {
  if (locale === undefined) return undefined;
  try {
    // The same check the formatters' constructors make, without loading any locale data.
    Intl.getCanonicalLocales(locale);
    return locale;
  } catch {
    // An invalid locale tag must not break the page: the default locale formats instead.
    return undefined;
  }
}

/** A value created on its first use and kept. */
function onFirstUse<T>(create: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= create());
}

/**
 * Creates the formatters for a locale (the browser's when undefined). Each is created on its first use: a page's
 * first `Intl` formatter loads the locale data (30–70 ms in Chromium, four times that on a phone), which must not
 * lengthen the render that creates the format (`AgentProvider` loads it in a task of its own after its mount instead).
 */
export function createAgentFormat(locale: string | undefined): AgentFormat {
  const tag = usableLocale(locale);
  const numbers = onFirstUse(() => new Intl.NumberFormat(tag));
  const percents = onFirstUse(() => new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 0 }));
  // To the minute: seconds are noise in "connected on" and "updated at".
  const dates = onFirstUse(() => new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }));
  const times = onFirstUse(() => new Intl.DateTimeFormat(tag, { timeStyle: 'short' }));
  return {
    locale,
    number: (value) => numbers().format(value),
    percent: (value) => percents().format(value / 100),
    dateTime: (timestamp) => dates().format(timestamp),
    time: (timestamp) => times().format(timestamp),
  };
}

/**
 * Loads the locale data in a task of its own (`yieldToBrowser`): the first number formatted, by a formatter that
 * lives as long as the format. The others are created at their first use, a few milliseconds each once the data
 * is loaded. Returns the cancel.
 */
export function prepareAgentFormat(format: AgentFormat): () => void {
  let cancelled = false;
  void yieldToBrowser().then(() => {
    if (!cancelled) format.number(0);
  });
  return () => {
    cancelled = true;
  };
}
