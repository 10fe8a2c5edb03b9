/** `AgentProvider`'s `onEvent`: typed milestones with timings, read off the store, no prompt unless asked. */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GeneratePanel, LiveBuildLog } from 'agent-embed';
import type { AgentLifecycleEvent } from 'agent-embed/core';
import { createMockAgentApi } from 'agent-embed/mock';
import { cleanupRendered, renderWithMock, withoutProxyRoutes } from './render-with-mock.js';

afterEach(cleanupRendered);

const prompt = 'A secret booking site for a yoga studio';

type Fault = Parameters<ReturnType<typeof createMockAgentApi>['admin']['injectFault']>[0];

/** Renders the prompt and the log over a mock with `faults`, sends the prompt, and collects `onEvent`. */
async function generateWith(faults: Fault[], options: { includePrompt?: boolean; lostForGood?: boolean } = {}) {
  const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
  for (const fault of faults) api.admin.injectFault(fault);
  const events: AgentLifecycleEvent[] = [];
  const rendered = renderWithMock(
    <>
      <GeneratePanel />
      <LiveBuildLog />
    </>,
    {
      mock: { api },
      // A lost stream with no proxy routes to resume from and status polls far apart: it stays lost.
      ...(options.lostForGood === true
        ? { store: { pollIntervalMs: 60_000, maxPollIntervalMs: 60_000 }, wrapTransport: withoutProxyRoutes }
        : {}),
      provider: {
        externalUser: { id: 'ada' },
        onEvent: (event) => events.push(event),
        ...(options.includePrompt === true ? { eventsIncludePrompt: true } : {}),
      },
    },
  );
  await rendered.user.type(screen.getByLabelText('Describe the app you want'), prompt);
  await rendered.user.click(screen.getByRole('button', { name: 'Generate' }));
  return { events, user: rendered.user };
}

describe('onEvent', () => {
  it('tells a completed build: started, first event, ended, once each, without the prompt', async () => {
    const { events } = await generateWith([]);
    await waitFor(() => expect(events.map((event) => event.type)).toContain('generation_ended'));
    expect(events.map((event) => event.type)).toEqual(['generation_started', 'first_event', 'generation_ended']);
    const ended = events.at(-1) as Extract<AgentLifecycleEvent, { type: 'generation_ended' }>;
    expect(ended).toMatchObject({ outcome: 'completed', kind: 'generate', mode: 'build' });
    expect(ended.projectId).toMatch(/./);
    expect(ended.filesCreated).toBeGreaterThan(0);
    expect(ended.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(events)).not.toContain('secret');
  });

  it('tells a failed build as failed, once', async () => {
    const { events: failed } = await generateWith([{ kind: 'error_event', afterEvents: 2, message: 'Build failed.' }]);
    await waitFor(() => expect(failed.at(-1)).toMatchObject({ type: 'generation_ended', outcome: 'failed' }));
    expect(failed.filter((event) => event.type === 'generation_ended')).toHaveLength(1);
  });

  it('tells a build whose stream was lost before its project was known (its end cannot be found) as interrupted', async () => {
    const { events } = await generateWith([{ kind: 'drop_after', events: 0 }]);
    await waitFor(() => expect(events.at(-1)).toMatchObject({ type: 'generation_ended', outcome: 'interrupted' }));
    expect(events.map((event) => event.type)).toEqual(['generation_started', 'generation_ended']);
  });

  it('carries the prompt only when the agency opts in', async () => {
    const { events } = await generateWith([], { includePrompt: true });
    await waitFor(() => expect(events.map((event) => event.type)).toContain('generation_ended'));
    expect(events[0]).toMatchObject({ type: 'generation_started', prompt });
  });
});
