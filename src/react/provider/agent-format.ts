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

// The locale-data worker's whole program: the first formatter of the tag it is sent, then its answer.
const localeDataProgram =
  'self.onmessage=function(m){try{new Intl.NumberFormat(m.data).format(0)}catch(e){new Intl.NumberFormat().format(0)}postMessage(0)}';

/**
 * Loads the locale data in a worker, from its program's source text: the data is the browser process's (Chromium's
 * ICU), so after the worker's first formatter the page's takes under 1 ms. Calls `answered` once the worker has
 * answered, or `failed` if it fails or takes 5 s, and stops it. Returns its stop; undefined where no worker can start
 * (a policy without `worker-src blob:`).
 */
function loadInWorker(tag: string | undefined, answered: () => void, failed: () => void): (() => void) | undefined {
  if (typeof Worker !== 'function' || typeof Blob !== 'function' || typeof URL.createObjectURL !== 'function') return;
  const source = URL.createObjectURL(new Blob([localeDataProgram], { type: 'text/javascript' }));
  let worker: Worker;
  try {
    worker = new Worker(source);
  } catch {
    URL.revokeObjectURL(source);
    return;
  }
  const stop = () => {
    clearTimeout(timer);
    worker.terminate();
    URL.revokeObjectURL(source);
  };
  const end = (then: () => void) => () => {
    stop();
    then();
  };
  const timer = setTimeout(end(failed), 5000);
  worker.onmessage = end(answered);
  worker.onerror = end(failed);
  worker.postMessage(tag);
  return stop;
}

/**
 * Loads the locale data in the page, in three tasks rather than one: a first `Intl.Collator` and the locale's likely
 * subtags are the largest parts of a page's first formatter (13–34 and 14–32 ms at 1x in Chromium, where the formatter
 * alone took 27–48 ms; 4–12 ms are left to it after them), so each task stays well under 50 ms at 1x.
 */
async function loadInPage(tag: string | undefined, cancelled: () => boolean): Promise<void> {
  try {
    const { locale } = new Intl.Collator(tag).resolvedOptions();
    await yieldToBrowser();
    if (!cancelled()) new Intl.Locale(locale).maximize();
  } catch {
    // An engine without `Intl.Locale`: the formatter loads what it needs.
  }
  await yieldToBrowser();
}

/**
 * Loads the locale data after the provider's mount, in tasks of its own (a page's first `Intl` formatter takes
 * 30–70 ms in Chromium, 140–190 at 4x CPU throttling), and formats the first number. A page with numbers to show at
 * once (`showsNow`: a resumed build) loads it itself (`loadInPage`); any other lets a worker load it off the main thread
 * and formats its first number once the worker is done (under 1 ms then), or loads it itself where no worker starts or
 * the worker fails.
 * Returns the cancel.
 */
export function prepareAgentFormat(format: AgentFormat, showsNow: () => boolean): () => void {
  let cancelled = false;
  let stopWorker: (() => void) | undefined;
  const tag = usableLocale(format.locale);
  const firstNumber = () => {
    if (!cancelled) format.number(0);
  };
  const inPage = () => void loadInPage(tag, () => cancelled).then(firstNumber);
  void yieldToBrowser().then(() => {
    if (cancelled) return;
    if (!showsNow()) stopWorker = loadInWorker(tag, firstNumber, inPage);
    if (stopWorker === undefined) inPage();
  });
  return () => {
    cancelled = true;
    stopWorker?.();
  };
}
