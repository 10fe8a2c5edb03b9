'use client';
/** The root of every embed: creates the store once, themes and labels its subtree, resumes the last project. */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import {
  observeLifecycle,
  type AgentLifecycleEvent,
  createAgentClient,
  createAgentStore,
  createHttpTransport,
  defaultStorageKey,
  isGenerationSettled,
  yieldToBrowser,
  type AgentApiError,
  type AgentState,
  type AgentClient,
  type AgentStore,
  type AgentTransport,
} from '../../core/index.js';
import { AgentContext, type AgentContextValue, type ExternalUser } from './agent-context.js';
import { appearanceStyle, type AgentAppearance, type AgentColorScheme } from './appearance.js';
import { mergeLabels, type AgentLabels, type AgentLabelsOverride } from './labels.js';
import { localeDirection, pickLocale, shownLanguage, type TextDirection } from './locale.js';
import {
  createAgentFormat,
  localeDataReady,
  prepareAgentFormat,
  subscribeLocaleData,
  workerLoadsLocaleData,
} from './agent-format.js';
import { ErrorSlotsProvider } from '../shared/error-slots.js';
import { useLatestCallback } from '../shared/use-latest-callback.js';

/** Where the provider's requests go: exactly one of these. */
export type AgentProviderSource =
  | { baseUrl: string; transport?: never; client?: never; store?: never }
  | { transport: AgentTransport; baseUrl?: never; client?: never; store?: never }
  | { client: AgentClient; baseUrl?: never; transport?: never; store?: never }
  | { store: AgentStore; baseUrl?: never; transport?: never; client?: never };

/** Props of `AgentProvider` besides the source. */
export interface AgentProviderOptions {
  /** The signed-in end user; also scopes the persisted last project to them. */
  externalUser?: ExternalUser;
  appearance?: AgentAppearance;
  colorScheme?: AgentColorScheme;
  /** Overrides of single texts; they win over the locale's pack, string by string. */
  labels?: AgentLabelsOverride;
  /** BCP 47 tag: picks the pack of `locales`, formats dates and numbers (the browser's by default), sets `lang` and `dir`. */
  locale?: string;
  /** Locale packs by tag (`{ de, ja }` from `agent-embed/locales/*`); `locale` picks one, by its language if not exact. */
  locales?: Readonly<Record<string, AgentLabels>>;
  /** Text direction of the root; by default the locale's (`rtl` for Arabic, Hebrew, Persian, Urdu...). */
  dir?: TextDirection;
  /** Called once per new error of any call (generation, status poll, deploy, code host, plans), with the API's own message; not for cancels or "not connected yet". */
  onError?: (error: AgentApiError) => void;
  /**
   * Typed milestones for the agency's analytics (`generation_started`, `first_event`, `generation_ended`,
   * `deployed`, `pushed`, `codehost_connected`, `deployment_connected`), with timings; never a token, and the
   * prompt only with `eventsIncludePrompt`.
   */
  onEvent?: (event: AgentLifecycleEvent) => void;
  /** Put the end user's prompt text in generation milestones (default false). */
  eventsIncludePrompt?: boolean;
  /**
   * Show the API's own message and HTTP status in a closed "Details" disclosure under each alert (default false), for
   * an agency's own staff or support builds. Off, end users never read the API's operator words ("API token has
   * expired."); `onError` gets them either way.
   */
  errorDetails?: boolean;
  className?: string;
  children?: ReactNode;
}

/** Props of `AgentProvider`. The source (`baseUrl`, `transport`, `client` or `store`) is read once, on mount. */
export type AgentProviderProps = AgentProviderOptions & AgentProviderSource;

function createStoreFor(props: AgentProviderProps): { store: AgentStore; owned: boolean } {
  if (props.store !== undefined) return { store: props.store, owned: false };
  const client =
    props.client ??
    createAgentClient({
      transport: props.transport ?? createHttpTransport({ baseUrl: props.baseUrl ?? '', credentials: 'same-origin' }),
    });
  const storageKey =
    props.externalUser === undefined ? defaultStorageKey : `${defaultStorageKey}:${props.externalUser.id}`;
  return { store: createAgentStore({ client, storageKey }), owned: true };
}

type AgentStoreState = ReturnType<AgentStore['getState']>;

/** A record of the store whose entries may carry errors, with the states whose error is not news. */
const errorRecords = [
  'generations',
  'projects',
  'resources',
  'mutations',
] as const satisfies readonly (keyof AgentStoreState)[];

/**
 * The errors held in the records that changed since `previous`: a generation's, a status poll's, and each
 * integration call's and each resource's (a cancel is not news; "not connected yet" is a resource's null, not an error).
 */
function storeErrors(next: AgentStoreState, previous: AgentStoreState | undefined): AgentApiError[] {
  const errors: AgentApiError[] = [];
  for (const name of errorRecords) {
    const before: Record<string, unknown> | undefined = previous?.[name];
    if (next[name] === before) continue;
    for (const [key, entry] of Object.entries(next[name]) as [string, { status?: string; error?: AgentApiError }][])
      if (before?.[key] !== entry && entry.status !== 'aborted' && entry.error !== undefined) errors.push(entry.error);
  }
  return errors;
}

/** Whether a build is running: the store then publishes every frame its events arrive. */
function storeIsBuilding(state: AgentState): boolean {
  return Object.values(state.generations).some(
    (generation) => generation !== undefined && !isGenerationSettled(generation.status),
  );
}

/** Provides the store, labels, formatting and theme to the components inside it. */
export function AgentProvider(props: AgentProviderProps) {
  const {
    externalUser,
    appearance,
    colorScheme = 'auto',
    labels,
    locale,
    locales,
    onError,
    onEvent,
    eventsIncludePrompt = false,
    errorDetails = false,
    className,
    children,
  } = props;
  const [{ store, owned }] = useState(() => createStoreFor(props));
  const callOnError = useLatestCallback(onError);
  const callOnEvent = useLatestCallback(onEvent);
  const destroyTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const formatReady = useSyncExternalStore(subscribeLocaleData, localeDataReady, () => true);
  const format = useMemo(() => createAgentFormat(locale, formatReady), [locale, formatReady]);

  useEffect(() => {
    // StrictMode unmounts and remounts at once: destroy only if the unmount sticks.
    clearTimeout(destroyTimer.current);
    // In a task of its own: the resumed build's first render and its replay's start do not lengthen the task that
    // runs every component's mount effects.
    let mounted = true;
    void yieldToBrowser().then(() => mounted && store.getState().resume());
    return () => {
      mounted = false;
      if (owned) destroyTimer.current = setTimeout(() => store.destroy(), 0);
    };
  }, [store, owned]);
  // A page's first formatter loads the locale data: a worker loads it after the mount, and values that can wait show
  // once it has (a resumed build's counts, dates); where no worker starts, the page loads it in tasks of its own.
  useEffect(() => {
    // Once per page: a provider that mounts while it loads waits for the same load.
    if (formatReady && workerLoadsLocaleData()) return;
    let unsubscribe: (() => void) | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cancel = prepareAgentFormat(locale, (noteLoaded) => {
      if (!storeIsBuilding(store.getState())) return noteLoaded();
      // The values show in the store's next publish, in its commit: one commit per frame while a build streams.
      const show = () => {
        unsubscribe?.();
        clearTimeout(timer);
        noteLoaded();
      };
      unsubscribe = store.subscribe(show);
      timer = setTimeout(show, 500);
    });
    return () => {
      cancel();
      unsubscribe?.();
      clearTimeout(timer);
    };
  }, [locale, formatReady, store]);

  const observesEvents = onEvent !== undefined;
  useEffect(() => {
    if (!observesEvents) return;
    return observeLifecycle(store, callOnEvent, { includePrompt: eventsIncludePrompt });
  }, [store, callOnEvent, observesEvents, eventsIncludePrompt]);

  useEffect(() => {
    const reported = new WeakSet<AgentApiError>();
    const report = (error: AgentApiError | undefined) => {
      if (error === undefined || reported.has(error)) return;
      reported.add(error);
      callOnError(error);
    };
    // Errors that were there before this subscription are not new.
    for (const error of storeErrors(store.getState(), undefined)) reported.add(error);
    return store.subscribe((next, previous) => {
      for (const error of storeErrors(next, previous)) report(error);
    });
  }, [store, callOnError]);

  const pack = pickLocale(locales, locale);
  const mergedLabels = useMemo(() => mergeLabels(labels, pack), [labels, pack]);
  const lang = shownLanguage(locales, locale, labels !== undefined);
  const dir = props.dir ?? localeDirection(lang);
  const userId = externalUser?.id;
  const userName = externalUser?.name;
  const userEmail = externalUser?.email;
  const user = useMemo<ExternalUser | undefined>(
    () =>
      userId === undefined
        ? undefined
        : {
            id: userId,
            ...(userName === undefined ? {} : { name: userName }),
            ...(userEmail === undefined ? {} : { email: userEmail }),
          },
    [userId, userName, userEmail],
  );
  const value = useMemo<AgentContextValue>(
    () => ({ store, client: store.client, labels: mergedLabels, format, externalUser: user, errorDetails }),
    [store, mergedLabels, format, user, errorDetails],
  );
  const style = useMemo(() => appearanceStyle(appearance), [appearance]);

  return (
    <AgentContext.Provider value={value}>
      <div
        data-agent-embed=""
        data-color-scheme={colorScheme}
        className={className}
        style={style}
        {...(lang === undefined ? {} : { lang })}
        {...(dir === undefined ? {} : { dir })}
      >
        <ErrorSlotsProvider>{children}</ErrorSlotsProvider>
      </div>
    </AgentContext.Provider>
  );
}
