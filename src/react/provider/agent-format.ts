/** Locale-aware number, percentage and date formatting for the components. */
import { yieldToBrowser } from '../../core/index.js';

/** Formatters bound to the provider's locale. */
export interface AgentFormat {
  locale: string | undefined;
  /**
   * Whether formatting loads nothing on the main thread. False while the provider's worker loads the locale data (a
   * page's first formatter takes 30–70 ms in Chromium, four times that on a phone): text whose values can wait shows
   * them once it is true; an error's text never waits.
   */
  ready: boolean;
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
 * lengthen the render that creates the format. `AgentProvider` has a worker load it after its mount, and gives its
 * components a format whose `ready` is false until then.
 */
export function createAgentFormat(locale: string | undefined, ready = true): AgentFormat {
  const tag = usableLocale(locale);
  const numbers = onFirstUse(() => new Intl.NumberFormat(tag));
  const percents = onFirstUse(() => new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 0 }));
  // To the minute: seconds are noise in "connected on" and "updated at".
  const dates = onFirstUse(() => new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }));
  const times = onFirstUse(() => new Intl.DateTimeFormat(tag, { timeStyle: 'short' }));
  return {
    locale,
    ready,
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
  if (!workerLoadsLocaleData()) return;
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

let localeDataLoaded = false;
const loadedListeners = new Set<() => void>();

/** Notes that the page's locale data is loaded, and tells the providers waiting for it. */
function noteLocaleDataLoaded(): void {
  localeDataLoaded = true;
  for (const listener of loadedListeners) listener();
}

/** Calls `listener` once the page's locale data is loaded (for `useSyncExternalStore`). */
export function subscribeLocaleData(listener: () => void): () => void {
  loadedListeners.add(listener);
  return () => void loadedListeners.delete(listener);
}

/** Whether a worker could load the locale data here (a browser; not jsdom or Node). */
export function workerLoadsLocaleData(): boolean {
  return typeof Worker === 'function' && typeof Blob === 'function' && typeof URL.createObjectURL === 'function';
}

/** Whether values may be formatted now: the locale data is loaded, or no worker could load it (formatted at first use). */
export function localeDataReady(): boolean {
  return localeDataLoaded || !workerLoadsLocaleData();
}

/** A provider's part in the page's load: it is called, once the data is loaded, with the function that notes it. */
type ShowValues = (noteLoaded: () => void) => void;

/** The page's one load of the locale data: the providers waiting for it, and whether it has loaded. */
interface PageLoad {
  waiting: Set<ShowValues>;
  loaded: boolean;
  stop(): void;
}

/** The load under way or done in this page; undefined until a provider starts one (and again if all leave it). */
let pageLoad: PageLoad | undefined;

/** Starts the page's load after a task of its own: a worker, else the page itself (see `prepareAgentFormat`). */
function startPageLoad(tag: string | undefined): PageLoad {
  let stopped = false;
  let stopWorker: (() => void) | undefined;
  const load: PageLoad = {
    waiting: new Set(),
    loaded: false,
    stop: () => {
      stopped = true;
      stopWorker?.();
    },
  };
  // The first number, in a task of its own (under 1 ms once a worker has loaded the data), then the values shown.
  const done = () => {
    if (stopped) return;
    new Intl.NumberFormat(tag).format(0);
    load.loaded = true;
    for (const showValues of load.waiting) showValues(noteLocaleDataLoaded);
    load.waiting.clear();
  };
  const inPage = () => void loadInPage(tag, () => stopped).then(done);
  void yieldToBrowser().then(() => {
    if (stopped) return;
    stopWorker = loadInWorker(tag, done, inPage);
    if (stopWorker === undefined) inPage();
  });
  return load;
}

/**
 * Loads the locale data after the provider's mount, off the main thread: a worker loads it (the data is the browser
 * process's, so the page's formatters then take under 1 ms). Where no worker starts or it fails, the page loads it
 * itself in three tasks (`loadInPage`, then a first number). Once per page: providers that mount while it loads wait
 * for the same load. Then `showValues` is called with the function that notes the page's data loaded
 * (`subscribeLocaleData`'s listeners then render the values that waited): the provider calls it with a publish of its
 * store, so that the values show in that publish's commit. Returns the cancel; the load stops when every provider
 * waiting for it has cancelled.
 */
export function prepareAgentFormat(locale: string | undefined, showValues: ShowValues): () => void {
  const load = (pageLoad ??= startPageLoad(usableLocale(locale)));
  if (load.loaded) {
    showValues(noteLocaleDataLoaded);
    return () => undefined;
  }
  // Each effect of a provider passes a function of its own, so a provider that mounts twice (StrictMode) waits twice.
  load.waiting.add(showValues);
  return () => {
    load.waiting.delete(showValues);
    if (load.loaded || load.waiting.size > 0) return;
    load.stop();
    if (pageLoad === load) pageLoad = undefined;
  };
}

/** Formats without `Intl`: the text kept, hidden, in place of values that wait for the locale data. */
export const plainFormat: AgentFormat = {
  locale: undefined,
  ready: false,
  number: String,
  percent: String,
  dateTime: String,
  time: String,
};
