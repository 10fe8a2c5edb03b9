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
 * ICU), so after the worker's first formatter the page's takes under 1 ms. Calls `then` once the worker has answered,
 * failed or taken 5 s, and stops it. Returns its stop; undefined where no worker can start (a policy without
 * `worker-src blob:`).
 */
function loadInWorker(tag: string | undefined, then: () => void): (() => void) | undefined {
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
  const end = () => {
    stop();
    then();
  };
  const timer = setTimeout(end, 5000);
  worker.onmessage = end;
  worker.onerror = end;
  worker.postMessage(tag);
  return stop;
}

/**
 * Loads the locale data after the provider's mount, in a task of its own (a page's first `Intl` formatter takes
 * 30–70 ms in Chromium, 140–190 at 4x CPU throttling), and formats the first number. A page with numbers to show at
 * once (`showsNow`: a resumed build) loads it in that task; any other lets a worker load it off the main thread and
 * formats its first number once the worker is done (under 1 ms then), or in that task where no worker starts.
 * Returns the cancel.
 */
export function prepareAgentFormat(format: AgentFormat, showsNow: () => boolean): () => void {
  let cancelled = false;
  let stopWorker: (() => void) | undefined;
  const firstNumber = () => {
    if (!cancelled) format.number(0);
  };
  void yieldToBrowser().then(() => {
    if (cancelled) return;
    if (!showsNow()) stopWorker = loadInWorker(usableLocale(format.locale), firstNumber);
    if (stopWorker === undefined) firstNumber();
  });
  return () => {
    cancelled = true;
    stopWorker?.();
  };
}
