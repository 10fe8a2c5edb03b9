/**
 * Audit of `AgentProvider`'s `onEvent`: each milestone exactly once per real transition, in order, with the
 * build's own fields, never for what did not happen: across StrictMode, reloads, recoveries, stop watching,
 * refusals, "Try again", prop changes and remounts. (Not repeated here: lifecycle.test.tsx's plain build, failed
 * build, drop before naming and opt-in prompt; connection-dropped.test.tsx's lost change found building.)
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentBuilder, AgentProvider, GeneratePanel, LiveBuildLog } from 'agent-embed';
import { createAgentClient, createAgentStore, type AgentLifecycleEvent } from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';
import { cleanupRendered, renderWithMock, type RenderWithMockOptions } from './render-with-mock.js';

const disposers: (() => void)[] = [];
afterEach(() => {
  cleanupRendered();
  for (const dispose of disposers.splice(0)) dispose();
});

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const prompt = 'A secret booking site for a yoga studio';
const change = 'Make the confidential header sticky';

type Ended = Extract<AgentLifecycleEvent, { type: 'generation_ended' }>;
const types = (events: AgentLifecycleEvent[]) => events.map((event) => event.type);
const ends = (events: AgentLifecycleEvent[], kind?: string) =>
  events.filter(
    (event): event is Ended => event.type === 'generation_ended' && (kind === undefined || event.kind === kind),
  );
const buildLog = () => screen.getByRole('region', { name: 'Build progress' });

const ui = (
  <>
    <GeneratePanel />
    <LiveBuildLog />
  </>
);

/** Renders the prompt box and the log with an `onEvent` spy; `options` go to `renderWithMock`. */
function renderSpied(options: RenderWithMockOptions = {}) {
  const events: AgentLifecycleEvent[] = [];
  const rendered = renderWithMock(ui, {
    ...options,
    provider: { externalUser: ada, ...options.provider, onEvent: (event) => events.push(event) },
  });
  return { ...rendered, events };
}

async function sendPrompt(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Describe the app you want'), prompt);
  await user.click(screen.getByRole('button', { name: 'Generate' }));
}

async function sendChange(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('What should change?'), change);
  await user.click(screen.getByRole('button', { name: 'Send follow-up' }));
}

describe('onEvent audit', () => {
  it('StrictMode: one build tells started, first event and ended once each, with the project in its end', async () => {
    const { user, events, transport } = renderSpied({ strict: true });
    await sendPrompt(user);
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'ready'));
    await waitFor(() => expect(types(events)).toContain('generation_ended'));
    expect(types(events)).toEqual(['generation_started', 'first_event', 'generation_ended']);
    const [started, first, ended] = events as [AgentLifecycleEvent, AgentLifecycleEvent, Ended];
    expect(started).toMatchObject({ kind: 'generate', mode: 'build' });
    expect(first).toMatchObject({ kind: 'generate', mode: 'build' });
    expect(ended.projectId).toBe(transport.api.admin.projects()[0]!.id);
    expect(JSON.stringify(events)).not.toMatch(/secret/i);
  });

  it('a reload after a completed build: the resumed project (its log replayed) tells nothing again', async () => {
    const first = renderSpied();
    await sendPrompt(first.user);
    await waitFor(() => expect(ends(first.events)).toHaveLength(1));
    first.unmount();
    // The page loads again: a new provider over the same proxy, the same end user and the same sessionStorage.
    const again: AgentLifecycleEvent[] = [];
    render(
      <AgentProvider transport={first.transport} externalUser={ada} onEvent={(event) => again.push(event)}>
        {ui}
      </AgentProvider>,
    );
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'ready'));
    // Whatever else the resumed page asks for, it never tells an old build as a new one.
    await waitFor(() => expect(screen.getByLabelText('What should change?')).toBeEnabled());
    expect(again).toEqual([]);
    expect(first.events.filter((event) => event.type === 'generation_started')).toHaveLength(1);
  });

  it('a stream dropped after its project was named, recovered by replay: one completed end, in order', async () => {
    const { user, events, transport } = renderSpied();
    transport.api.admin.injectFault({ kind: 'drop_after', events: 3 });
    await sendPrompt(user);
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'ready'), { timeout: 10_000 });
    await waitFor(() => expect(ends(events)).toHaveLength(1));
    expect(types(events)).toEqual(['generation_started', 'first_event', 'generation_ended']);
    expect(ends(events)[0]).toMatchObject({ outcome: 'completed', projectId: transport.api.admin.projects()[0]!.id });
  });

  // Found by this audit: a build the person stopped watching is told as ended 'aborted'; when the poll then found it
  // ready, its completion was never told (the outcome went aborted → completed with no running status between).
  it('stop watching, then a poll finds the build ready: its completion is told', { timeout: 20_000 }, async () => {
    const events: AgentLifecycleEvent[] = [];
    const { user, transport } = renderWithMock(<AgentBuilder />, {
      provider: { externalUser: ada, onEvent: (event) => events.push(event) },
      store: { pollIntervalMs: 40, maxPollIntervalMs: 80 },
    });
    transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 25 });
    const builder = screen.getByRole('region', { name: 'App builder' });
    await user.type(within(builder).getByLabelText('Describe the app you want'), prompt);
    await user.click(within(builder).getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'provisioning'));
    await user.click(within(builder).getByRole('button', { name: 'Stop watching' }));
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'ready'), { timeout: 15_000 });
    expect(builder).toHaveAttribute('data-state', 'completed');
    await waitFor(() => expect(ends(events).map((event) => event.outcome)).toContain('completed'));
    expect(ends(events).filter((event) => event.outcome === 'completed')).toHaveLength(1);
    expect(ends(events).at(-1)).toMatchObject({
      outcome: 'completed',
      projectId: transport.api.admin.projects()[0]!.id,
    });
    expect(types(events).filter((type) => type === 'generation_started')).toHaveLength(1);
  });

  // Found by this audit: a follow-up the server refused with 429 (nothing started upstream, the change stays in the box)
  // was told as `generation_started` + `generation_ended` 'failed', like a build that failed. `generation_started` is
  // the person's request leaving (as documented); its end now says `refused`, and no `first_event` comes between.
  it('a follow-up refused with 429 before any event: started, then ended at once as refused, no first event', async () => {
    const { user, events, transport } = renderSpied();
    await sendPrompt(user);
    await waitFor(() => expect(ends(events)).toHaveLength(1));
    expect(ends(events)[0]).toMatchObject({ outcome: 'completed', refused: false });
    transport.api.admin.injectFault({ kind: 'rate_limited', retryAfterSeconds: 30, route: 'followUp' });
    await sendChange(user);
    await waitFor(() => expect(screen.getByRole('form')).toHaveAttribute('data-state', 'failed'));
    expect(screen.getByLabelText('What should change?')).toHaveValue(change);
    const followUps = events.filter((event) => 'kind' in event && event.kind === 'followUp');
    expect(types(followUps)).toEqual(['generation_started', 'generation_ended']);
    expect(ends(events, 'followUp')[0]).toMatchObject({ outcome: 'failed', refused: true });
  });

  it('"Try again" after a failed change: a second start and the new end, same project, no prompt', async () => {
    const { user, events, transport } = renderSpied();
    await sendPrompt(user);
    await waitFor(() => expect(ends(events)).toHaveLength(1));
    const projectId = transport.api.admin.projects()[0]!.id;
    transport.api.admin.injectFault({ kind: 'error_event', afterEvents: 1 });
    await sendChange(user);
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'failed'));
    await user.click(within(buildLog()).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'ready'));
    await waitFor(() => expect(ends(events, 'followUp')).toHaveLength(2));
    const followUps = events.filter((event) => 'kind' in event && event.kind === 'followUp');
    expect(types(followUps)).toEqual([
      'generation_started',
      'first_event',
      'generation_ended',
      'generation_started',
      'first_event',
      'generation_ended',
    ]);
    expect(ends(events, 'followUp').map((event) => event.outcome)).toEqual(['failed', 'completed']);
    for (const event of followUps) expect(event).toMatchObject({ projectId, mode: 'build' });
    expect(JSON.stringify(events)).not.toMatch(/secret|confidential/i);
  });

  // Found by this audit: the agency flips `eventsIncludePrompt` (a consent setting) while a build runs: the provider
  // observed afresh, the new observer skipped the running build (no longer 'submitting'), and its end was never told.
  it('eventsIncludePrompt changed mid-build: the build still tells its end, once', async () => {
    const transport = createMockTransport({ speed: 'instant', rateLimit: false, externalUser: ada });
    disposers.push(() => transport.api.dispose());
    transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 30 });
    const events: AgentLifecycleEvent[] = [];
    const tree = (includePrompt: boolean) => (
      <AgentProvider
        transport={transport}
        externalUser={ada}
        eventsIncludePrompt={includePrompt}
        onEvent={(event) => events.push(event)}
      >
        {ui}
      </AgentProvider>
    );
    const user = userEvent.setup();
    const { rerender } = render(tree(false));
    await sendPrompt(user);
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'generating'));
    rerender(tree(true));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'ready'), { timeout: 10_000 });
    await waitFor(() => expect(ends(events)).toHaveLength(1));
    expect(types(events)).toEqual(['generation_started', 'first_event', 'generation_ended']);
  });

  // Found by this audit: a provider remounted (its key changed) over the agency's own store while a build runs: the
  // store completed the build, but the remounted provider's observer never told its end (it only tracked builds it
  // saw 'submitting'): started with no end.
  it('a provider over a shared store remounted mid-build: the build still tells its end, once', async () => {
    const transport = createMockTransport({ speed: 'instant', rateLimit: false, externalUser: ada });
    disposers.push(() => transport.api.dispose());
    const store = createAgentStore({ client: createAgentClient({ transport }), storage: null });
    disposers.push(() => store.destroy());
    transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 30 });
    const events: AgentLifecycleEvent[] = [];
    const tree = (key: string) => (
      <AgentProvider key={key} store={store} externalUser={ada} onEvent={(event) => events.push(event)}>
        {ui}
      </AgentProvider>
    );
    const user = userEvent.setup();
    const { rerender } = render(tree('a'));
    await sendPrompt(user);
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'generating'));
    rerender(tree('b'));
    await waitFor(() => expect(buildLog()).toHaveAttribute('data-phase', 'ready'), { timeout: 10_000 });
    await waitFor(() => expect(ends(events)).toHaveLength(1));
    expect(types(events).filter((type) => type === 'generation_started')).toHaveLength(1);
    expect(ends(events)[0]).toMatchObject({ outcome: 'completed' });
  });

  // Found by this audit: with a store given its own clock (`now`, the store option), `generation_started.at` was that
  // clock's but `first_event.at` (and `msSinceStart`) was `Date.now()`: the events' times disagreed.
  it("a store with its own clock: every milestone's `at` is that clock's, msSinceStart is small and positive", async () => {
    const offset = 3_600_000;
    const { user, events } = renderSpied({ store: { now: () => Date.now() + offset } });
    await sendPrompt(user);
    await waitFor(() => expect(ends(events)).toHaveLength(1));
    const [started, first, ended] = events as [
      Extract<AgentLifecycleEvent, { type: 'generation_started' }>,
      Extract<AgentLifecycleEvent, { type: 'first_event' }>,
      Ended,
    ];
    expect(types(events)).toEqual(['generation_started', 'first_event', 'generation_ended']);
    expect(first.msSinceStart).toBeGreaterThanOrEqual(0);
    expect(first.msSinceStart).toBeLessThan(60_000);
    expect(first.at).toBeGreaterThanOrEqual(started.at);
    expect(ended.at).toBeGreaterThanOrEqual(first.at);
  });

  it('two providers of one end user (two tabs): only the tab that built tells the build', async () => {
    const transport = createMockTransport({ speed: 'instant', rateLimit: false, externalUser: ada });
    disposers.push(() => transport.api.dispose());
    const tabA: AgentLifecycleEvent[] = [];
    const tabB: AgentLifecycleEvent[] = [];
    render(
      <>
        <div data-testid="a">
          <AgentProvider transport={transport} externalUser={ada} onEvent={(event) => tabA.push(event)}>
            {ui}
          </AgentProvider>
        </div>
        <div data-testid="b">
          <AgentProvider transport={transport} externalUser={ada} onEvent={(event) => tabB.push(event)}>
            <LiveBuildLog />
          </AgentProvider>
        </div>
      </>,
    );
    const user = userEvent.setup();
    const a = within(screen.getByTestId('a'));
    await user.type(a.getByLabelText('Describe the app you want'), prompt);
    await user.click(a.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(ends(tabA)).toHaveLength(1));
    expect(types(tabA)).toEqual(['generation_started', 'first_event', 'generation_ended']);
    expect(tabB.filter((event) => event.type.startsWith('generation'))).toEqual([]);
  });
  // Found by this audit: `first_event.at` was when the observer saw the store publish (`Date.now()` then), while
  // `generation_ended.at` is the store's `endedAt`: when the first event and the end reached the page in one publish
  // (a quick build, a slow frame), the first event was told as later than the end.
  it('a quick build published late: first_event is not later than the end', async () => {
    const late = () => new Promise<void>((resolve) => setTimeout(resolve, 40));
    const { user, events } = renderSpied({
      // A visible page on a slow device: frames run, and the task after one comes 40 ms later.
      store: {
        framesRun: () => true,
        yieldTask: late,
        scheduleFlush: (flush) => {
          const timer = setTimeout(flush, 40);
          return () => clearTimeout(timer);
        },
      },
    });
    await sendPrompt(user);
    await waitFor(() => expect(ends(events)).toHaveLength(1));
    expect(types(events)).toEqual(['generation_started', 'first_event', 'generation_ended']);
    const first = events[1] as Extract<AgentLifecycleEvent, { type: 'first_event' }>;
    const ended = events[2] as Ended;
    expect(first.at).toBeLessThanOrEqual(ended.at);
    expect(first.msSinceStart).toBeLessThanOrEqual(ended.durationMs);
  });

  it('a project built before and opened from the list tells nothing', async () => {
    const transport = createMockTransport({ speed: 'instant', rateLimit: false, externalUser: ada });
    disposers.push(() => transport.api.dispose());
    await createAgentClient({ transport }).generate({ prompt }, { onEvent: () => undefined });
    const events: AgentLifecycleEvent[] = [];
    render(
      <AgentProvider transport={transport} externalUser={ada} onEvent={(event) => events.push(event)}>
        <AgentBuilder />
      </AgentProvider>,
    );
    const user = userEvent.setup();
    const builder = screen.getByRole('region', { name: 'App builder' });
    await user.click(within(builder).getByRole('button', { name: 'Projects' }));
    const list = screen.getByRole('region', { name: 'Your projects' });
    await waitFor(() => expect(list).toHaveAttribute('data-state', 'success'));
    await user.click(within(list).getByRole('button', { name: /Ready/ }));
    await waitFor(() => expect(builder).toHaveAttribute('data-phase', 'ready'));
    await screen.findByRole('heading', { name: 'Refine your app' });
    expect(events).toEqual([]);
  });
});
