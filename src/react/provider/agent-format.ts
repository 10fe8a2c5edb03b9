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

/** Creates the formatters for a locale (the browser's when undefined). */
export function createAgentFormat(locale: string | undefined): AgentFormat {
  let numbers: Intl.NumberFormat;
  let percents: Intl.NumberFormat;
  let dates: Intl.DateTimeFormat;
  let times: Intl.DateTimeFormat;
  try {
    numbers = new Intl.NumberFormat(locale);
    percents = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
    dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
    times = new Intl.DateTimeFormat(locale, { timeStyle: 'short' });
  } catch {
    // An invalid locale tag must not break the page: fall back to the default locale.
    numbers = new Intl.NumberFormat();
    percents = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });
    dates = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
    times = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
  }
  return {
    locale,
    number: (value) => numbers.format(value),
    percent: (value) => percents.format(value / 100),
    dateTime: (timestamp) => dates.format(timestamp),
    time: (timestamp) => times.format(timestamp),
  };
}
