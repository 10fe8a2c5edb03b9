/**
 * Audit of the rule "every generate/follow-up POST is sent at most once per user action, whatever the network, the
 * tab or React does". POSTs are counted at the transport the store's client uses (what leaves the page) and at the
 * mock (what reached the server). The existing tests cover a double click on Generate, three clicks in one tick,
 * StrictMode around the panel, a double click on a failed change's "Try again", a lost change and a reload; these
 * attack the rest.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createRef, forwardRef, Fragment, StrictMode, useImperativeHandle, useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentBuilder, AgentProvider, GeneratePanel, LiveBuildLog } from 'agent-embed';
import {
  AgentApiError,
  createAgentClient,
  createAgentStore,
  createHttpTransport,
  type AgentTransport,
} from 'agent-embed/core';
import { createMockAgentApi, createMockTransport } from 'agent-embed/mock';
import { cleanupRendered, renderWithMock, withoutProxyRoutes } from './render-with-mock.js';

afterEach(cleanupRendered);

const validPrompt = 'A habit tracker with streaks';
const changePrompt = 'Make the header sticky please';
const isGenerationPost = (method: string, path: string) => method === 'POST' && /^\/agent\/generate(\/|$)/.test(path);

/** The generation POSTs a mock received (behind the proxy). */
const mockPosts = (api: { admin: { requests: readonly { method: string; path: string }[] } }) =>
  api.admin.requests.filter((request) => request.method === 'POST' && /\/agent\/generate(\/|$)/.test(request.path));

/** Counts the generation POSTs that leave through a transport (streams and, should one go that way, JSON calls). */
function countingPosts() {
  const posts: string[] = [];
  const wrap =
    (then: (transport: AgentTransport) => AgentTransport = (transport) => transport) =>
    (inner: AgentTransport): AgentTransport => {
      const outer = then(inner);
      return {
        json: (request) => {
          if (isGenerationPost(request.method, request.path)) posts.push(`json ${request.path}`);
          return outer.json(request);
        },
        stream: (request, handlers) => {
          if (isGenerationPost(request.method, request.path)) posts.push(request.path);
          return outer.stream(request, handlers);
        },
      };
    };
  return { posts, wrap };
}

/** Remounts its children (a key change, a route change) when its ref is called. */
const Remountable = forwardRef<() => void, { children: ReactNode }>(function Remountable({ children }, ref) {
  const [key, setKey] = useState(0);
  useImperativeHandle(ref, () => () => setKey((value) => value + 1), []);
  return <Fragment key={key}>{children}</Fragment>;
});

/** The prompt form and the build log over a fresh mock, POSTs counted at the transport. */
function panelAndLog(
  options: Parameters<typeof renderWithMock>[1] & { then?: (inner: AgentTransport) => AgentTransport } = {},
) {
  const counter = countingPosts();
  const { then, ...rest } = options;
  const rendered = renderWithMock(
    <>
      <GeneratePanel />
      <LiveBuildLog />
    </>,
    { store: { pollIntervalMs: 10, maxPollIntervalMs: 20 }, ...rest, wrapTransport: counter.wrap(then) },
  );
  return { ...rendered, posts: counter.posts };
}

/** A person types a prompt and clicks Generate. */
async function clickGenerate(user: ReturnType<typeof renderWithMock>['user']) {
  await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
  await user.click(screen.getByRole('button', { name: 'Generate' }));
}

const buildLog = () => screen.getByRole('region', { name: 'Build progress' });
/** Lets timers, streams and React's work run for a while (no assertion on time: only on what was sent by then). */
const settleFor = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

describe('React StrictMode', () => {
  it('AgentBuilder in StrictMode: one POST for Generate, one for the change, none on mount', async () => {
    const counter = countingPosts();
    const { user, generationPosts } = renderWithMock(<AgentBuilder />, { strict: true, wrapTransport: counter.wrap() });
    await settleFor(50);
    expect(counter.posts).toEqual([]);
    await clickGenerate(user);
    const change = await screen.findByLabelText('What should change?', {}, { timeout: 5_000 });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send follow-up' })).toBeEnabled());
    await user.type(change, changePrompt);
    await user.click(screen.getByRole('button', { name: 'Send follow-up' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send follow-up' })).toBeEnabled(), {
      timeout: 5_000,
    });
    await settleFor(50);
    expect(counter.posts).toHaveLength(2);
    expect(counter.posts[0]).toBe('/agent/generate');
    expect(counter.posts[1]).toMatch(/^\/agent\/generate\/.+/);
    expect(generationPosts()).toHaveLength(2);
  });

  it('a StrictMode remount of the builder (a key change) while its POST is in flight sends nothing more', async () => {
    const counter = countingPosts();
    const remount = createRef<() => void>();
    const { user, transport, generationPosts } = renderWithMock(
      <Remountable ref={remount}>
        <AgentBuilder />
      </Remountable>,
      { strict: true, wrapTransport: counter.wrap() },
    );
    transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 10_000 });
    await clickGenerate(user);
    await waitFor(() => expect(counter.posts).toHaveLength(1));
    act(() => remount.current!());
    await settleFor(100);
    expect(screen.getByRole('button', { name: 'Working…' })).toBeDisabled();
    fireEvent.submit(screen.getByRole('form'));
    await settleFor(50);
    expect(counter.posts).toHaveLength(1);
    expect(generationPosts()).toHaveLength(1);
  });
});

describe('one click, whatever the timing', () => {
  it('a submit during the `submitting` phase (before the POST went) adds nothing', async () => {
    const counter = countingPosts();
    const { generationPosts } = renderWithMock(<GeneratePanel />, { wrapTransport: counter.wrap() });
    fireEvent.change(screen.getByLabelText('Describe the app you want'), { target: { value: validPrompt } });
    const form = screen.getByRole('form', { name: 'Create an app' });
    fireEvent.submit(form);
    expect(counter.posts).toHaveLength(0); // the POST goes after the click's render
    await act(async () => {
      await Promise.resolve();
      fireEvent.submit(form);
    });
    fireEvent.submit(form);
    await waitFor(() => expect(counter.posts).toHaveLength(1));
    await waitFor(() => expect(form).toHaveAttribute('data-state', 'completed'));
    expect(counter.posts).toHaveLength(1);
    expect(generationPosts()).toHaveLength(1);
  });

  it('a double click on "Try again" after a failed new project sends one POST', async () => {
    const { posts, user, transport, generationPosts } = panelAndLog();
    transport.api.admin.injectFault({ kind: 'error_event', afterEvents: 3 });
    await clickGenerate(user);
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'failed'));
    expect(posts).toHaveLength(1);
    await user.dblClick(within(buildLog()).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'ready'), { timeout: 5_000 });
    expect(posts).toHaveLength(2);
    expect(generationPosts()).toHaveLength(2);
  });

  it('"Try again" and Generate in the same tick, after a failure, send one POST', async () => {
    const { posts, user, transport, generationPosts } = panelAndLog();
    transport.api.admin.injectFault({ kind: 'error_event', afterEvents: 3 });
    await clickGenerate(user);
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'failed'));
    // The prompt came back to the box: the person clicks both the log's "Try again" and the box's Generate at once.
    await waitFor(() => expect(screen.getByLabelText('Describe the app you want')).toHaveValue(validPrompt));
    const again = within(buildLog()).getByRole('button', { name: 'Try again' });
    const generate = screen.getByRole('button', { name: 'Generate' });
    act(() => {
      again.click();
      generate.click();
    });
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'ready'), { timeout: 5_000 });
    expect(posts).toHaveLength(2);
    expect(generationPosts()).toHaveLength(2);
  });

  it('the same prompt sent twice on purpose is two POSTs (two actions)', async () => {
    const counter = countingPosts();
    const { user, generationPosts } = renderWithMock(<GeneratePanel />, { wrapTransport: counter.wrap() });
    await clickGenerate(user);
    await screen.findByLabelText('What should change?');
    await user.click(screen.getByRole('button', { name: 'New project' }));
    await clickGenerate(user);
    await waitFor(() => expect(counter.posts).toHaveLength(2));
    await screen.findByLabelText('What should change?');
    expect(generationPosts()).toHaveLength(2);
  });
});

describe('the store called from code', () => {
  it('generate, followUp and retry called twice synchronously each send one POST', async () => {
    const counter = countingPosts();
    const { store, transport, generationPosts } = renderWithMock(<LiveBuildLog />, {
      store: {},
      wrapTransport: counter.wrap(),
    });
    const state = () => store!.getState();
    let first!: Promise<unknown>;
    let second!: Promise<unknown>;
    act(() => {
      first = state().generate({ prompt: validPrompt });
      second = state().generate({ prompt: validPrompt });
    });
    expect(second).toBe(first);
    const done = (await first) as { projectId: string };
    expect(counter.posts).toHaveLength(1);
    transport.api.admin.injectFault({ kind: 'error_event', afterEvents: 1, route: 'followUp' });
    act(() => {
      first = state().followUp(done.projectId, { prompt: changePrompt });
      second = state().followUp(done.projectId, { prompt: changePrompt });
    });
    expect(second).toBe(first);
    expect(((await first) as { outcome: string }).outcome).toBe('failed');
    expect(counter.posts).toHaveLength(2);
    act(() => {
      first = state().retry()!;
      second = state().retry() ?? first;
    });
    await first;
    await second;
    expect(counter.posts).toHaveLength(3);
    expect(generationPosts()).toHaveLength(3);
  });

  it('stopped or reset before its POST went, a generation sends none; the next click sends one', async () => {
    const counter = countingPosts();
    const { store, generationPosts } = renderWithMock(<LiveBuildLog />, { store: {}, wrapTransport: counter.wrap() });
    act(() => {
      void store!.getState().generate({ prompt: validPrompt });
      store!.getState().stopWatching();
      void store!.getState().generate({ prompt: validPrompt });
      store!.getState().reset();
    });
    await settleFor(100);
    expect(counter.posts).toHaveLength(0);
    const result = await act(() => store!.getState().generate({ prompt: validPrompt }));
    expect(result.outcome).toBe('completed');
    expect(counter.posts).toHaveLength(1);
    expect(generationPosts()).toHaveLength(1);
  });

  it('a follow-up asked for while the project’s own build streams sends nothing', async () => {
    const counter = countingPosts();
    const { store, transport, generationPosts } = renderWithMock(<LiveBuildLog />, {
      store: {},
      wrapTransport: counter.wrap(),
    });
    transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 10 });
    let build!: Promise<{ outcome: string; projectId?: string }>;
    act(() => void (build = store!.getState().generate({ prompt: validPrompt })));
    await waitFor(() => expect(store!.getState().currentKey).not.toMatch(/^pending:/));
    const projectId = store!.getState().currentKey!;
    let change!: Promise<unknown>;
    act(() => void (change = store!.getState().followUp(projectId, { prompt: changePrompt })));
    expect(change).toBe(build);
    await build;
    expect(counter.posts).toEqual(['/agent/generate']);
    expect(generationPosts()).toHaveLength(1);
  });

  it('retry on an interrupted generation whose recovery failed looks again, never POSTs', async () => {
    const counter = countingPosts();
    let refuseStatus = true;
    const { store, transport, generationPosts } = renderWithMock(<LiveBuildLog />, {
      store: { pollIntervalMs: 10, maxPollIntervalMs: 20 },
      wrapTransport: counter.wrap((inner) => {
        const direct = withoutProxyRoutes(inner);
        return {
          stream: direct.stream,
          json: (request) =>
            refuseStatus && request.path.startsWith('/agent/project/')
              ? Promise.reject(new AgentApiError('forbidden', 'Forbidden', { status: 403 }))
              : direct.json(request),
        };
      }),
    });
    transport.api.admin.injectFault({ kind: 'drop_after', events: 2 });
    const result = await act(() => store!.getState().generate({ prompt: validPrompt }));
    expect(result.outcome).toBe('interrupted');
    refuseStatus = false;
    let again!: Promise<unknown> | undefined;
    act(() => {
      again = store!.getState().retry();
      store!.getState().retry();
    });
    expect(again).toBeDefined();
    await again;
    await settleFor(100);
    expect(counter.posts).toHaveLength(1);
    expect(generationPosts()).toHaveLength(1);
  });
});

/** What the tab and the network tell a page; none of them is a person's action. */
function tabAndNetworkEvents(): void {
  const visibility = (state: 'hidden' | 'visible') => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => state === 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  };
  act(() => {
    visibility('hidden');
    window.dispatchEvent(new Event('offline'));
    window.dispatchEvent(new Event('blur'));
    window.dispatchEvent(new Event('online'));
    visibility('visible');
    window.dispatchEvent(new Event('focus'));
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
  });
}

describe('the network and the tab', () => {
  afterEach(() => {
    Reflect.deleteProperty(document, 'visibilityState');
    Reflect.deleteProperty(document, 'hidden');
  });

  const faults = [
    { kind: 'drop_after', events: 2 },
    { kind: 'pause_after', events: 2, drop: true },
    { kind: 'error_event', afterEvents: 2 },
    { kind: 'http_500' },
    { kind: 'non_json_502' },
    { kind: 'rate_limited', retryAfterSeconds: 1 },
  ] as const;

  for (const route of ['generate', 'followUp'] as const)
    for (const fault of faults)
      it(`${route}, ${JSON.stringify(fault)}, the tab hidden and shown, offline and online, bfcache: one POST`, async () => {
        const { posts, user, transport, generationPosts } = panelAndLog();
        if (route === 'followUp') {
          await clickGenerate(user);
          await user.type(await screen.findByLabelText('What should change?'), changePrompt);
        }
        transport.api.admin.injectFault({ ...fault, route });
        if (route === 'generate') await clickGenerate(user);
        else await user.dblClick(screen.getByRole('button', { name: 'Send follow-up' }));
        const sent = route === 'generate' ? 1 : 2;
        await waitFor(() => expect(posts).toHaveLength(sent));
        tabAndNetworkEvents();
        // Settled, or (a stream closed while the project stays where it was) recovering for good.
        await waitFor(
          () =>
            expect(buildLog().getAttribute('aria-busy') === 'false' || buildLog().dataset.state === 'recovering').toBe(
              true,
            ),
          { timeout: 5_000 },
        );
        await settleFor(200);
        tabAndNetworkEvents();
        await settleFor(50);
        expect(posts).toHaveLength(sent);
        expect(generationPosts()).toHaveLength(sent);
      });
});

describe('a submit that comes another way than the button', () => {
  it("a script's requestSubmit during a rate limit's wait sends nothing; after the wait, one", async () => {
    const { posts, user, transport } = panelAndLog();
    transport.api.admin.injectFault({ kind: 'rate_limited', retryAfterSeconds: 2, route: 'generate' });
    await clickGenerate(user);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Generate' })).toBeDisabled());
    expect(posts).toHaveLength(1);
    // The button waits; a script submitting the form is held the same way.
    const form = screen.getByRole('button', { name: 'Generate' }).closest('form') as HTMLFormElement;
    act(() => form.requestSubmit());
    await settleFor(50);
    expect(posts).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Generate' })).toBeEnabled(), { timeout: 5_000 });
    act(() => form.requestSubmit());
    await waitFor(() => expect(posts).toHaveLength(2));
  });
});

describe('a transport whose stream breaks', () => {
  /** Breaks the generation stream: `how` gets the real stream and the request's handlers. */
  type Handlers = Parameters<AgentTransport['stream']>[1];
  function breaking(how: (send: (handlers?: Handlers) => Promise<void>, handlers: Handlers) => Promise<void>) {
    return (inner: AgentTransport): AgentTransport => ({
      json: (request) => inner.json(request),
      stream: (request, handlers) =>
        isGenerationPost(request.method, request.path)
          ? how((given = handlers) => inner.stream(request, given), handlers)
          : inner.stream(request, handlers),
    });
  }

  const cases = {
    'errors before the first byte (the request reached the server)': breaking((send) => {
      void send().catch(() => undefined);
      return Promise.reject(new AgentApiError('network', 'The Agent API could not be reached.'));
    }),
    'errors after some events': breaking(async (send, handlers) => {
      let seen = 0;
      await new Promise<void>((resolve) => {
        void send({
          onEvent: (event, id) => {
            if (++seen <= 3) handlers.onEvent(event, id);
            if (seen === 3) resolve();
          },
        }).catch(() => undefined);
      });
      throw new AgentApiError('network', 'The connection was reset.');
    }),
    'hangs (sent, then no byte and no end, until "Stop watching")': breaking((send) => {
      void send({ onEvent: () => undefined }).catch(() => undefined);
      return new Promise<void>(() => {});
    }),
  };

  for (const [name, wrap] of Object.entries(cases))
    it(`${name}: nothing sends it again (recovery, polling, a reconnect)`, async () => {
      const { posts, user, generationPosts } = panelAndLog({ then: wrap });
      await clickGenerate(user);
      await waitFor(() => expect(posts).toHaveLength(1));
      await settleFor(300);
      tabAndNetworkEvents();
      const stop = screen.queryByRole('button', { name: 'Stop watching' });
      if (stop !== null) await user.click(stop);
      await settleFor(100);
      expect(posts).toHaveLength(1);
      expect(generationPosts()).toHaveLength(1);
    });
});

describe('providers', () => {
  it('the provider remounted (a key change) while the POST is in flight: the new store resumes, never re-POSTs', async () => {
    const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
    const counter = countingPosts();
    const transport = counter.wrap()(createMockTransport({ api }));
    const remount = createRef<() => void>();
    render(
      <Remountable ref={remount}>
        <AgentProvider transport={transport}>
          <GeneratePanel />
          <LiveBuildLog />
        </AgentProvider>
      </Remountable>,
    );
    api.admin.injectFault({ kind: 'slow_drip', intervalMs: 20 });
    fireEvent.change(screen.getByLabelText('Describe the app you want'), { target: { value: validPrompt } });
    fireEvent.submit(screen.getByRole('form'));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'generating'));
    act(() => remount.current!());
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'completed'), { timeout: 8_000 });
    act(() => remount.current!());
    await settleFor(100);
    expect(counter.posts).toHaveLength(1);
    expect(mockPosts(api)).toHaveLength(1);
    api.dispose();
  });

  it('two providers on one page sharing a storage key: one POST for one click', async () => {
    const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
    const counter = countingPosts();
    const first = counter.wrap()(createMockTransport({ api }));
    const second = counter.wrap()(createMockTransport({ api }));
    const { rerender } = render(
      <StrictMode>
        <AgentProvider transport={first}>
          <GeneratePanel id="one" />
        </AgentProvider>
      </StrictMode>,
    );
    api.admin.injectFault({ kind: 'slow_drip', intervalMs: 20 });
    fireEvent.change(screen.getByLabelText('Describe the app you want'), { target: { value: validPrompt } });
    fireEvent.submit(screen.getByRole('form'));
    await waitFor(() => expect(counter.posts).toHaveLength(1));
    await waitFor(() => expect(sessionStorage.length).toBeGreaterThan(0));
    // The second embed mounts while the build goes on: it finds the saved project and follows it.
    rerender(
      <StrictMode>
        <AgentProvider transport={first}>
          <GeneratePanel id="one" />
        </AgentProvider>
        <AgentProvider transport={second}>
          <LiveBuildLog />
        </AgentProvider>
      </StrictMode>,
    );
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-state', 'completed'), { timeout: 8_000 });
    await settleFor(100);
    expect(counter.posts).toHaveLength(1);
    expect(mockPosts(api)).toHaveLength(1);
    api.dispose();
  });
});

describe('the HTTP transport (one fetch per POST, whatever the answer does)', () => {
  const sse = (lines: string[], then: 'close' | 'hang' | 'error') =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const line of lines) controller.enqueue(new TextEncoder().encode(line));
        if (then === 'close') controller.close();
        if (then === 'error') controller.error(new TypeError('network error'));
      },
    });

  /** A proxy as a fetch: the generate POST answers as `answer` says; the status says the project is ready. */
  function proxyFetch(answer: () => Promise<Response>) {
    const calls: string[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const url = new URL(String(input));
      calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      if (init?.method === 'POST') return answer();
      if (url.pathname.endsWith('/agent/project/p1'))
        return Response.json({
          status: true,
          project_id: 'p1',
          project_status: 'ready',
          app_url: 'https://p1.example.test',
        });
      return Response.json({ status: false, message: 'Not Found' }, { status: 404 });
    };
    return { calls, fetch, posts: () => calls.filter((call) => call.startsWith('POST')) };
  }

  const created = 'data: {"type":"project_created","project_id":"p1","app_url":"https://p1.example.test"}\n\n';
  const answers = {
    'a network failure before any answer': () => Promise.reject(new TypeError('Failed to fetch')),
    'a 503 with Retry-After': async () =>
      Response.json({ status: false, message: 'Unavailable' }, { status: 503, headers: { 'retry-after': '1' } }),
    'a 200 that is not an event stream': async () => new Response('<html>proxy login</html>', { status: 200 }),
    'a stream that errors after its first event': async () =>
      new Response(sse([created], 'error'), { headers: { 'content-type': 'text/event-stream' } }),
    'a stream that closes after its first event': async () =>
      new Response(sse([created], 'close'), { headers: { 'content-type': 'text/event-stream' } }),
    'a stream that goes silent after its first event (idle timeout)': async () =>
      new Response(sse([created, ': ping\n\n'], 'hang'), { headers: { 'content-type': 'text/event-stream' } }),
  };

  for (const [name, answer] of Object.entries(answers))
    it(`${name}: one fetch of the POST, none again`, async () => {
      const proxy = proxyFetch(answer);
      const transport = createHttpTransport({
        baseUrl: 'https://agency.example.test/api/agent',
        fetch: proxy.fetch,
        streamIdleTimeoutMs: 50,
        slicing: null,
      });
      const store = createAgentStore({
        client: createAgentClient({ transport }),
        storage: null,
        pollIntervalMs: 10,
        maxPollIntervalMs: 20,
      });
      render(
        <StrictMode>
          <AgentProvider store={store}>
            <GeneratePanel />
            <LiveBuildLog />
          </AgentProvider>
        </StrictMode>,
      );
      fireEvent.change(screen.getByLabelText('Describe the app you want'), { target: { value: validPrompt } });
      fireEvent.submit(screen.getByRole('form'));
      await waitFor(() => expect(proxy.posts()).toHaveLength(1));
      await settleFor(200);
      tabAndNetworkEvents();
      await settleFor(200);
      expect(proxy.posts()).toEqual(['POST /api/agent/agent/generate']);
      store.destroy();
    });
});
