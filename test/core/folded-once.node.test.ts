/**
 * Events are interpreted once: a caller that applies each event to its own draft (the store, its generation) passes
 * it as `folded`, and the client reads its result from that draft instead of folding the events a second time.
 */
import { expect, it } from 'vitest';
import {
  applyGenerationAction,
  createAgentClient,
  createGenerationDraft,
  createHttpTransport,
  reduceGenerationEvent,
  type AgentEvent,
} from 'agent-embed/core';

const appUrl = 'https://p1.apps.test/';
const events: AgentEvent[] = [
  { type: 'project_created', project_id: 'p1', app_url: appUrl },
  { type: 'file_created', path: 'src/App.tsx', action: 'created' },
  { type: 'stream_end', project_id: 'p1', app_url: appUrl },
];

function clientOver(stream: AgentEvent[]) {
  const body = stream.map((event, index) => `id: ${index + 1}\ndata: ${JSON.stringify(event)}\n\n`).join('');
  const fetch = async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  return createAgentClient({ transport: createHttpTransport({ baseUrl: 'https://proxy.test/api', fetch }) });
}

function startedDraft() {
  const draft = createGenerationDraft({ kind: 'generate', projectId: undefined, toolLimit: 10 });
  applyGenerationAction(draft, { type: 'started' });
  return draft;
}

it('with `folded`, the result is the caller’s fold: each event reached the reducer once, through the caller', async () => {
  const draft = startedDraft();
  const result = await clientOver(events).generate(
    { prompt: 'A recipe box with tags' },
    { folded: draft, onEvent: (event) => reduceGenerationEvent(draft, event, 0) },
  );
  expect(result).toEqual({ outcome: 'completed', projectId: 'p1', appUrl });
  expect(draft.eventCount).toBe(events.length);
  expect(draft.fileCount).toBe(1);
});

it('the client trusts the caller’s draft: an end the caller did not apply is no end', async () => {
  const draft = startedDraft();
  const result = await clientOver(events).generate(
    { prompt: 'A recipe box with tags' },
    {
      folded: draft,
      onEvent: (event) => {
        if (event.type !== 'stream_end') reduceGenerationEvent(draft, event, 0);
      },
    },
  );
  // The client's own fold would have said completed.
  expect(result.outcome).toBe('interrupted');
  expect(result.projectId).toBe('p1');
});

it('without it, the client folds its own draft', async () => {
  const result = await clientOver(events).generate({ prompt: 'A recipe box with tags' });
  expect(result).toEqual({ outcome: 'completed', projectId: 'p1', appUrl });
});
