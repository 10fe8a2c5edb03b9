/**
 * An event says the request was taken. A custom transport may never call `onOpen`; a failure after its first event is
 * still an interrupted build (looked for, never sent again), not a refusal whose "Try again" would start a second one.
 */
import { describe, expect, it } from 'vitest';
import { AgentApiError, createAgentClient, type AgentTransport, type AgentEvent } from 'agent-embed/core';

const events: AgentEvent[] = [
  { type: 'project_created', project_id: 'p1', app_url: 'https://p1.apps.test/' },
  { type: 'file_created', path: 'src/App.tsx', action: 'created' },
];

/** A transport that hands on `delivered` events without calling `onOpen`, then fails. */
function silentOpening(delivered: AgentEvent[]): AgentTransport {
  return {
    json: () => Promise.reject(new Error('not used')),
    stream: async (_request, handlers) => {
      for (const [index, event] of delivered.entries()) handlers.onEvent(event, index + 1);
      throw new AgentApiError('network', 'The connection was lost.');
    },
  };
}

describe('a transport that never says the stream opened', () => {
  it('after an event, a failure is an interrupted build of the named project', async () => {
    const client = createAgentClient({ transport: silentOpening(events) });
    const result = await client.generate({ prompt: 'A landing page for a bakery' });
    expect(result).toMatchObject({ outcome: 'interrupted', projectId: 'p1' });
  });

  it('before any event, a failure is still a refusal (nothing says the request was taken)', async () => {
    const client = createAgentClient({ transport: silentOpening([]) });
    await expect(client.generate({ prompt: 'A landing page for a bakery' })).rejects.toMatchObject({ kind: 'network' });
  });
});
