/** `AgentProvider`'s `onEvent`: typed milestones with timings, read off the store, no prompt unless asked. */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GeneratePanel, LiveBuildLog } from 'agent-embed';
import type { AgentLifecycleEvent } from 'agent-embed/core';
import { createMockAgentApi } from 'agent-embed/mock';
import { cleanupRendered, renderWithMock, withoutProxyRoutes } from './render-with-mock.js';

afterEach(cleanupRendered);

const prompt = 'A secret booking site for a yoga studio';

async function generateWith(
  fault: Parameters<ReturnType<typeof createMockAgentApi>['admin']['injectFault']>[0] | undefined,
  includePrompt = false,
) {
  const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
  if (fault !== undefined) api.admin.injectFault(fault);
  const events: AgentLifecycleEvent[] = [];
  const { user } = renderWithMock(
    <>
      <GeneratePanel />
      <LiveBuildLog />
    </>,
    {
      mock: { api },
      provider: {
        externalUser: { id: 'ada' },
        onEvent: (event) => events.push(event),
        ...(includePrompt ? { eventsIncludePrompt: true } : {}),
      },
    },
  );
  await user.type(screen.getByLabelText('Describe the app you want'), prompt);
  await user.click(screen.getByRole('button', { name: 'Generate' }));
  return events;
}

describe('onEvent', () => {
  it('tells a completed build: started, first event, ended, once each, without the prompt', async () => {
    const events = await generateWith(undefined);
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
    const failed = await generateWith({ kind: 'error_event', afterEvents: 2, message: 'Build failed.' });
    await waitFor(() => expect(failed.at(-1)).toMatchObject({ type: 'generation_ended', outcome: 'failed' }));
    expect(failed.filter((event) => event.type === 'generation_ended')).toHaveLength(1);
  });

  it('tells a build whose stream was lost, and whose end could not be found, as interrupted', async () => {
    const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
    api.admin.injectFault({ kind: 'drop_after', events: 2 });
    api.admin.injectFault({ kind: 'http_500', route: 'getProject' });
    const events: AgentLifecycleEvent[] = [];
    const { user } = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
      </>,
      {
        mock: { api },
        store: { pollIntervalMs: 60_000, maxPollIntervalMs: 60_000 },
        wrapTransport: withoutProxyRoutes,
        provider: { externalUser: { id: 'ada' }, onEvent: (event) => events.push(event) },
      },
    );
    await user.type(screen.getByLabelText('Describe the app you want'), prompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await user.click(await screen.findByRole('button', { name: 'Stop waiting' }));
    await waitFor(() => expect(events.at(-1)).toMatchObject({ type: 'generation_ended', outcome: 'interrupted' }));
    expect(events.map((event) => event.type)).toEqual(['generation_started', 'first_event', 'generation_ended']);
  });

  it('carries the prompt only when the agency opts in', async () => {
    const events = await generateWith(undefined, true);
    await waitFor(() => expect(events.map((event) => event.type)).toContain('generation_ended'));
    expect(events[0]).toMatchObject({ type: 'generation_started', prompt });
  });
});
