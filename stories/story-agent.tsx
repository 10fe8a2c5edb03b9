/**
 * The Storybook convention of agent-embed: every story gets a fresh mock Agent API with the real proxy in front, a
 * fresh store and an `AgentProvider`, with no server and nothing shared between stories. In a browser the mocks run
 * off the page, in one worker per page (stories/story-mock-worker.ts), each at an origin of its own; under jsdom, in
 * the page. Either way a story reaches its mock through `agent.admin`, whose calls are awaited.
 *
 * Registered globally in `.storybook/preview.tsx` (loader `agentLoader`, `agentBeforeEach`, decorator
 * `withAgent`), so a story only says what it needs, through `parameters.agent` (use `agentParameters`
 * for type checking; component- and story-level values are merged by Storybook):
 *
 *   parameters: agentParameters({
 *     speed: 'instant',                         // default; 'realistic' streams over a few seconds
 *     mock: { credits: 3, scenario: { files: 3000 } },   // createMockAgentApi options, as data (rate limit off by default)
 *     store: { pollIntervalMs: 50 },            // createAgentStore options; storage defaults to null (no resume leaks)
 *     externalUser: { id: 'designer-1' },       // default `storyUser`
 *     provider: { labels, locale, onError },    // other AgentProvider props
 *     setup: async (agent) => { ... },          // runs before render: inject faults, start a generation, wait for a state
 *   })
 *   parameters: { agent: false }                // no mock and no provider (the story brings its own)
 *
 * The toolbar's `colorScheme` (light, dark, auto) and `appearance` (a preset of `appearancePresets`)
 * globals theme the provider. Play functions reach the mock and the store with `storyAgent(context)`;
 * `generateUntil` and `waitForStore` (with the mock's `pause_after` fault) freeze a generation in a given state;
 * `stories/story-states.ts` has them ready-made per state (`prepare.*`, `reach.*`). App pages are not served by the
 * in-memory mock to an iframe, so `app_url`s point at `.storybook/public/mock-app/index.html` (a static
 * page of the Storybook site that shows the project named in its hash).
 */
import type { Decorator, Loader, Preview, StoryContext } from '@storybook/react-vite';
import {
  AgentProvider,
  type AgentAppearance,
  type AgentColorScheme,
  type AgentProviderOptions,
  type ExternalUser,
} from 'agent-embed';
import {
  createAgentClient,
  createAgentStore,
  createHttpTransport,
  fetchThroughWorker,
  type AgentLogEntry,
  type AgentClient,
  type AgentState,
  type AgentStore,
  type AgentStoreOptions,
  type GenerateInput,
  type GenerationState,
  isGenerationSettled,
} from 'agent-embed/core';
import {
  createMockAdminClient,
  createMockFetch,
  createMockTransport,
  type MockAdminClient,
  type MockAgentApiOptions,
  type MockProjectSnapshot,
  type MockSpeed,
  type MockTransportOptions,
} from 'agent-embed/mock';
import type { AgentTransport } from 'agent-embed/core';
import { localeProps } from './story-locale.js';
import { storyMocksUrl } from './story-mocks.js';

/** What a story gets: the mock's admin, the transport over the mock, the client and the store the provider uses. */
export interface StoryAgent {
  /**
   * The mock's admin. In a browser the mock and its proxy run in a worker, so each call resolves once the worker has
   * done it; under jsdom they run in the page, behind the same calls.
   */
  admin: MockAdminClient;
  /** The mock's default token (to revoke or expire it). */
  token: string;
  /** The mock's projects as they stood when `setup` ended: for a story's `render`, which cannot wait. */
  projects: MockProjectSnapshot[];
  /**
   * A `fetch` to the mock itself, not through the proxy: its own pages (the code-host install's callback), and its API
   * for a request with an `authorization` header (the agency's server's, with `token`; see `agencyServerClient`).
   */
  mockFetch: typeof fetch;
  /** The mock's API base URL: each story's mock has an origin of its own. */
  baseUrl: string;
  transport: AgentTransport;
  client: AgentClient;
  store: AgentStore;
  /** The store's log lines (its `onLog`), oldest first. */
  log: AgentLogEntry[];
  externalUser: ExternalUser;
}

/** `parameters.agent` of a story. */
export interface AgentStoryParameters {
  /** Mock timing (default 'instant': deterministic under test). */
  speed?: MockSpeed;
  /** Options of the mock (data only: they cross to its worker); the rate limit is off unless given. */
  mock?: Omit<MockAgentApiOptions, 'speed' | 'token' | 'now' | 'timers'>;
  /** Options of the store; `storage` defaults to null. */
  store?: Partial<Omit<AgentStoreOptions, 'client'>>;
  /** The signed-in end user (default `storyUser`). */
  externalUser?: ExternalUser;
  /** Other provider props. */
  provider?: Pick<AgentProviderOptions, 'labels' | 'locale' | 'onError' | 'errorDetails' | 'className'>;
  /** Runs after the agent is built and before the story renders. */
  setup?: (agent: StoryAgent) => void | Promise<void>;
  /** What the page's client sends through, in place of the mock's transport (a network that loses answers). */
  transport?: (mock: AgentTransport) => AgentTransport;
}

/** Types `parameters.agent` for a story or a meta. */
export function agentParameters(agent: AgentStoryParameters | false): { agent: AgentStoryParameters | false } {
  return { agent };
}

/** The default end user of stories. */
export const storyUser: ExternalUser = { id: 'story-user-1', name: 'Ada Lovelace', email: 'ada@agency.example.test' };

/** A prompt the API accepts. */
export const storyPrompt = 'A booking site for a yoga studio with a class calendar';

/** Names of the appearance presets of the toolbar. */
export type AppearancePresetName = 'default' | 'ocean' | 'forest' | 'compact';

/** An appearance preset: what an agency would pass in light and in dark (`auto` uses the light one). */
export interface AppearancePreset {
  light: AgentAppearance | undefined;
  dark: AgentAppearance | undefined;
}

/** Appearance presets of the toolbar; every one keeps axe's colour contrast in both schemes. */
export const appearancePresets: Record<AppearancePresetName, AppearancePreset> = {
  default: { light: undefined, dark: undefined },
  ocean: {
    light: {
      colorPrimary: '#0e7490',
      colorPrimaryText: '#ffffff',
      colorFocus: '#0891b2',
      borderRadius: 14,
      fontFamily: "Georgia, 'Times New Roman', serif",
    },
    dark: {
      colorPrimary: '#22d3ee',
      colorPrimaryText: '#0b0d12',
      colorFocus: '#67e8f9',
      borderRadius: 14,
      fontFamily: "Georgia, 'Times New Roman', serif",
    },
  },
  forest: {
    light: {
      colorPrimary: '#166534',
      colorPrimaryText: '#ffffff',
      colorSuccess: '#166534',
      borderRadius: 2,
      spacingUnit: 5,
    },
    dark: {
      colorPrimary: '#4ade80',
      colorPrimaryText: '#0b0d12',
      colorSuccess: '#86efac',
      borderRadius: 2,
      spacingUnit: 5,
    },
  },
  compact: {
    light: { fontSize: 13, spacingUnit: 3, borderRadius: 4 },
    dark: { fontSize: 13, spacingUnit: 3, borderRadius: 4 },
  },
};

const colorSchemes: readonly AgentColorScheme[] = ['light', 'dark', 'auto'];

/** Toolbar globals: colour scheme and appearance preset. */
export const agentGlobalTypes: NonNullable<Preview['globalTypes']> = {
  colorScheme: {
    description: 'Colour scheme of the AgentProvider',
    toolbar: {
      title: 'Scheme',
      icon: 'mirror',
      items: colorSchemes.map((value) => ({ value, title: value })),
      dynamicTitle: true,
    },
  },
  appearance: {
    description: 'Appearance preset passed to AgentProvider',
    toolbar: {
      title: 'Appearance',
      icon: 'paintbrush',
      items: Object.keys(appearancePresets).map((value) => ({ value, title: value })),
      dynamicTitle: true,
    },
  },
};

/** Initial toolbar values. */
export const agentInitialGlobals: { colorScheme: AgentColorScheme; appearance: AppearancePresetName } = {
  colorScheme: 'light',
  appearance: 'default',
};

const live = new Set<StoryAgent>();

function storyAppBaseUrl(): string {
  // A page of the Storybook site (or of jsdom's document) that an iframe can really load.
  const base = typeof document === 'undefined' ? 'http://localhost/' : document.baseURI;
  return new URL('mock-app/index.html#', base).href;
}

function parametersOf(context: Pick<StoryContext, 'parameters'>): AgentStoryParameters | false {
  const value: unknown = context.parameters.agent;
  if (value === false) return false;
  return typeof value === 'object' && value !== null ? (value as AgentStoryParameters) : {};
}

/** Where a story's mock runs: a worker of its own in a browser, the page under jsdom (no workers). */
interface MockHost {
  transport: AgentTransport;
  baseUrl: string;
  admin: MockAdminClient;
  mockFetch: typeof fetch;
  stop(): void;
}

/** The options as the worker gets them: data only, or a clear error (a function would not cross). */
function checkedData(options: MockTransportOptions): MockTransportOptions {
  JSON.stringify(options, (key, value: unknown) => {
    if (typeof value === 'function')
      throw new TypeError(
        `The story's mock option ${key} is a function: the mock runs in a worker, so its options must be data (a fixed script is scenario.steps).`,
      );
    return value;
  });
  return options;
}

// One worker per page for every story's mock, for the page's life: its modules take about 400 ms to load from
// Storybook's dev server.
let mockWorkerFetch: typeof fetch | undefined;

function storyMockWorker(): typeof fetch {
  mockWorkerFetch ??= fetchThroughWorker(
    new Worker(new URL('./story-mock-worker.ts', import.meta.url), { type: 'module' }),
  );
  return mockWorkerFetch;
}

async function startMock(options: MockTransportOptions): Promise<MockHost> {
  checkedData(options);
  if (typeof Worker === 'function') {
    // Off the page, as an agency's page never runs it: a story's build streams with the page's own work only.
    const fetch = storyMockWorker();
    const created = await fetch(storyMocksUrl, { method: 'POST', body: JSON.stringify(options) });
    const { baseUrl } = (await created.json()) as { baseUrl: string };
    const transport = createHttpTransport({ baseUrl, fetch, streamWorker: false });
    const admin = createMockAdminClient({ url: baseUrl, fetch });
    const stop = () => void fetch(new URL('/', baseUrl), { method: 'DELETE' }).catch(() => undefined);
    return { transport, admin, mockFetch: fetch, baseUrl, stop };
  }
  const transport = createMockTransport(options);
  const mockFetch = createMockFetch(transport.api);
  const admin = createMockAdminClient({ url: transport.api.baseUrl, fetch: mockFetch });
  return { transport, admin, mockFetch, baseUrl: transport.api.baseUrl, stop: () => transport.api.dispose() };
}

const mocks = new WeakMap<StoryAgent, MockHost>();

/** Builds a fresh agent for the story (a global loader): `context.loaded.agent`. */
export const agentLoader: Loader = async (context) => {
  const parameters = parametersOf(context);
  if (parameters === false) return {};
  const externalUser = parameters.externalUser ?? storyUser;
  const token = `mock_story_${crypto.randomUUID().replaceAll('-', '')}`;
  const mock = await startMock({
    externalUser,
    rateLimit: false,
    appBaseUrl: storyAppBaseUrl(),
    ...parameters.mock,
    speed: parameters.speed ?? 'instant',
    token,
  });
  const client = createAgentClient({ transport: parameters.transport?.(mock.transport) ?? mock.transport });
  const log: AgentLogEntry[] = [];
  const store = createAgentStore({ client, storage: null, onLog: (entry) => log.push(entry), ...parameters.store });
  const agent: StoryAgent = {
    admin: mock.admin,
    token,
    projects: [],
    mockFetch: mock.mockFetch,
    baseUrl: mock.baseUrl,
    transport: mock.transport,
    client,
    store,
    log,
    externalUser,
  };
  mocks.set(agent, mock);
  live.add(agent);
  try {
    await parameters.setup?.(agent);
    agent.projects = await agent.admin.projects();
  } catch (thrown) {
    dispose(agent);
    throw thrown;
  }
  return { agent };
};

function dispose(agent: StoryAgent): void {
  if (!live.delete(agent)) return;
  // The store first: it aborts its streams, so nothing reaches React after the mock stops.
  agent.store.destroy();
  mocks.get(agent)?.stop();
}

/** Stops the story's store and mock when the story goes away (a global beforeEach). */
export const agentBeforeEach = (context: Pick<StoryContext, 'loaded'>): (() => void) | undefined => {
  const agent = loadedAgent(context);
  return agent === undefined ? undefined : () => dispose(agent);
};

/** Stops every agent still alive (for test runners, after the last story). */
export function disposeStoryAgents(): void {
  for (const agent of [...live]) dispose(agent);
}

function loadedAgent(context: Pick<StoryContext, 'loaded'>): StoryAgent | undefined {
  const value: unknown = context.loaded.agent;
  return typeof value === 'object' && value !== null && 'store' in value ? (value as StoryAgent) : undefined;
}

/** The story's agent, in a play function; throws when the story has none. */
export function storyAgent(context: Pick<StoryContext, 'loaded'>): StoryAgent {
  const agent = loadedAgent(context);
  if (agent === undefined)
    throw new Error('This story has no agent: is parameters.agent false, or agentLoader missing from the preview?');
  return agent;
}

function isColorScheme(value: unknown): value is AgentColorScheme {
  return value === 'light' || value === 'dark' || value === 'auto';
}

function presetOf(value: unknown, colorScheme: AgentColorScheme): AgentAppearance | undefined {
  if (typeof value !== 'string' || !(value in appearancePresets)) return undefined;
  const preset = appearancePresets[value as AppearancePresetName];
  return colorScheme === 'dark' ? preset.dark : preset.light;
}

const canvasBackground: Record<AgentColorScheme, string | undefined> = {
  light: '#ffffff',
  dark: '#0b0d12',
  auto: undefined,
};

/** Wraps the story in an AgentProvider over the story's agent, themed by the toolbar (a global decorator). */
export const withAgent: Decorator = (Story, context) => {
  const agent = loadedAgent(context);
  const parameters = parametersOf(context);
  if (agent === undefined || parameters === false) return <Story />;
  const colorScheme = isColorScheme(context.globals.colorScheme)
    ? context.globals.colorScheme
    : agentInitialGlobals.colorScheme;
  const appearance = presetOf(context.globals.appearance, colorScheme);
  return (
    <div
      data-story-canvas={colorScheme}
      style={{
        background: canvasBackground[colorScheme],
        padding: 16,
        // A story fills its canvas; on a docs page, where the states stand one under the other, only its own height.
        minHeight: context.viewMode === 'docs' ? undefined : '100vh',
        boxSizing: 'border-box',
      }}
    >
      <AgentProvider
        store={agent.store}
        externalUser={agent.externalUser}
        colorScheme={colorScheme}
        {...(appearance === undefined ? {} : { appearance })}
        {...localeProps(context.globals)}
        {...parameters.provider}
      >
        <Story />
      </AgentProvider>
    </div>
  );
};

/** Resolves once the store's state satisfies `predicate` (checked now and on every notification). */
export function waitForStore(store: AgentStore, predicate: (state: AgentState) => boolean): Promise<AgentState> {
  return new Promise((resolve) => {
    const state = store.getState();
    if (predicate(state)) {
      resolve(state);
      return;
    }
    const unsubscribe = store.subscribe((next) => {
      if (!predicate(next)) return;
      unsubscribe();
      resolve(next);
    });
  });
}

/** The store's current generation. */
export function currentGeneration(state: AgentState): GenerationState | undefined {
  return state.currentKey === undefined ? undefined : state.generations[state.currentKey];
}

/** Waits until `until` holds for the generation `select` picks; rejects if it settles otherwise. */
async function untilGeneration(
  store: AgentStore,
  select: (state: AgentState) => GenerationState | undefined,
  until: (generation: GenerationState) => boolean,
): Promise<GenerationState> {
  let missed: GenerationState | undefined;
  const state = await waitForStore(store, (next) => {
    const generation = select(next);
    if (generation === undefined) return false;
    if (until(generation)) return true;
    if (isGenerationSettled(generation.status)) missed = generation;
    return missed !== undefined;
  });
  if (missed !== undefined)
    throw new Error(
      `The story's generation ended ${missed.status}${missed.error === undefined ? '' : ` (${missed.error.message})`} before reaching the awaited state.`,
    );
  return select(state) as GenerationState;
}

/**
 * Starts a generation through the store (as the panel would) and resolves with it once `until` holds;
 * with a `pause_after` fault injected first, the generation stays frozen there.
 */
export async function generateUntil(
  agent: StoryAgent,
  until: (generation: GenerationState) => boolean,
  input: GenerateInput = { prompt: storyPrompt },
): Promise<GenerationState> {
  const action = agent.store.getState().generate(input);
  const generation = await untilGeneration(agent.store, currentGeneration, until);
  // A terminal event is shown before the run has settled; a follow-up sent in between would be de-duplicated.
  if (isGenerationSettled(generation.status)) await action;
  return currentGeneration(agent.store.getState()) ?? generation;
}

/** Sends a follow-up through the store and resolves with it once `until` holds. */
export async function followUpUntil(
  agent: StoryAgent,
  projectId: string,
  until: (generation: GenerationState) => boolean,
  prompt = 'Add a dark theme and a contact page',
): Promise<GenerationState> {
  const action = agent.store.getState().followUp(projectId, { prompt });
  const generation = await untilGeneration(
    agent.store,
    (state) => {
      const found = state.generations[projectId];
      return found?.kind === 'followUp' ? found : undefined;
    },
    until,
  );
  if (isGenerationSettled(generation.status)) await action;
  return agent.store.getState().generations[projectId] ?? generation;
}

/**
 * A client of the mock's API as the agency's server reaches it, with the token and no proxy: it names any end user
 * (another end user of the same agency, signed in elsewhere).
 */
export function agencyServerClient(agent: StoryAgent): AgentClient {
  const transport = createHttpTransport({
    baseUrl: agent.baseUrl,
    fetch: agent.mockFetch,
    headers: { authorization: `Bearer ${agent.token}` },
    streamWorker: false,
  });
  return createAgentClient({ transport });
}

/**
 * The whole code-host install flow as the browser runs it: start, the mock's install page, its callback. With
 * `account`, the end user installs another account (the mock's login is the slug of the name): the start goes past
 * the proxy, which would fill the name from its session.
 */
export async function installCodehost(agent: StoryAgent, account?: string): Promise<void> {
  const client = account === undefined ? agent.client : agencyServerClient(agent);
  const started = await client.codehost.startConnect({
    external_user_id: storyUser.id,
    external_user_name: account ?? storyUser.name ?? 'Ada Lovelace',
    external_user_email: storyUser.email ?? 'ada@agency.example.test',
    // The story's page is the agency's app: the proxy accepts a return to its own origin.
    return_url: typeof document === 'undefined' ? 'http://localhost/' : document.baseURI,
  });
  await agent.mockFetch(new URL(`/__mock/codehost/callback?state=${started.state}`, started.redirect_url), {
    method: 'POST',
  });
}
