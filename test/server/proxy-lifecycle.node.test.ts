/** `onGeneration`: one record per ended generation, folded as the browser folds it, never the token or the prompt. */
import { describe, expect, it } from 'vitest';
import { createMemoryProxyStore, type GenerationRecord } from 'agent-embed/server';
import { createBodyReader, fakeToken, createScriptedProxy } from './scripted-upstream.js';

const prompt = 'A secret landing page for a bakery';

function setup(stream: string) {
  let clock = Date.parse('2026-11-25T12:00:00Z');
  const records: GenerationRecord[] = [];
  const { proxy } = createScriptedProxy(
    () => {
      clock += 250;
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    },
    {
      authorize: () => ({ externalUserId: 'alice' }),
      store: createMemoryProxyStore({ owners: { 'p-old': 'alice' } }),
      now: () => clock,
      onGeneration: (record) => records.push(record),
    },
  );
  const send = async (path: string, body: unknown) => {
    const response = await proxy(
      new Request(`https://app.example.test${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    await createBodyReader(response.body).rest();
  };
  return { send, records };
}

const event = (data: object) => `data: ${JSON.stringify(data)}\n\n`;

describe('onGeneration', () => {
  it('reports a completed build once, with its counts and timings', async () => {
    const { send, records } = setup(
      event({ type: 'project_created', project_id: 'p-new', app_url: 'https://p-new.example' }) +
        event({ type: 'file_created', path: 'src/App.tsx' }) +
        event({ type: 'file_created', path: 'src/main.tsx' }) +
        event({ type: 'tool_progress', tool: 'write', status: 'running' }) +
        event({ type: 'stream_end', project_id: 'p-new', app_url: 'https://p-new.example' }),
    );
    await send('/agent/generate', { prompt, mode: 'design' });
    expect(records).toEqual([
      {
        external_user_id: 'alice',
        project_id: 'p-new',
        kind: 'generate',
        mode: 'design',
        outcome: 'completed',
        files_created: 2,
        files_modified: 0,
        steps: 1,
        first_event_ms: 250,
        duration_ms: 250,
        started_at: '2026-11-25T12:00:00.000Z',
        ended_at: '2026-11-25T12:00:00.250Z',
      },
    ]);
    expect(JSON.stringify(records)).not.toContain('secret');
    expect(JSON.stringify(records)).not.toContain(fakeToken);
  });

  it('reports a failed follow-up and one out of credits with their outcome', async () => {
    const failed = setup(event({ type: 'error', message: 'Build failed.' }));
    await failed.send('/agent/generate/p-old', { prompt });
    expect(failed.records).toMatchObject([{ kind: 'followUp', mode: null, project_id: 'p-old', outcome: 'failed' }]);
    const credits = setup(event({ type: 'tool_progress', tool: 'write' }) + event({ type: 'credits_exhausted' }));
    await credits.send('/agent/generate/p-old', { prompt });
    expect(credits.records).toMatchObject([{ outcome: 'credits_exhausted', steps: 1 }]);
  });

  it('reports a stream that closed without a terminal event as interrupted', async () => {
    const { send, records } = setup(
      event({ type: 'project_created', project_id: 'p-cut', app_url: 'https://p-cut.example' }),
    );
    await send('/agent/generate', { prompt });
    expect(records).toMatchObject([{ project_id: 'p-cut', outcome: 'interrupted', mode: 'build' }]);
  });
});
