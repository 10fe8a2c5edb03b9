/** Locale-aware number, percentage and date formatting for the components. */

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

function formattersFor(locale: string | undefined) {
  return {
    numbers: new Intl.NumberFormat(locale),
    percents: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }),
    // To the minute: seconds are noise in "connected on" and "updated at".
    dates: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
    times: new Intl.DateTimeFormat(locale, { timeStyle: 'short' }),
  };
}

/** Creates the formatters for a locale (the browser's when undefined). */
export function createAgentFormat(locale: string | undefined): AgentFormat {
  let formatters: ReturnType<typeof formattersFor>;
  try {
    formatters = formattersFor(locale);
  } catch {
    // An invalid locale tag must not break the page: fall back to the default locale.
    formatters = formattersFor(undefined);
  }
  const { numbers, percents, dates, times } = formatters;
  return {
    locale,
    number: (value) => numbers.format(value),
    percent: (value) => percents.format(value / 100),
    dateTime: (timestamp) => dates.format(timestamp),
    time: (timestamp) => times.format(timestamp),
  };
}
