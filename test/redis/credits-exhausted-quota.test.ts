/**
 * On a real Redis, across two proxy instances: a generation whose stream ends with `credits_exhausted` before any
 * `file_created` is given back to the end user's quota, once; one that wrote a file first stays counted.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAgentProxy } from 'agent-embed/server';
import { useTestRedis } from './redis-server.js';

const redis = useTestRedis();

const data = (event: unknown) => `data: ${JSON.stringify(event)}\n\n`;
const creditsOut = data({ type: 'credits_exhausted', message: 'Not enough credits.' });
const built =
  data({ type: 'project_created', project_id: 'p-q', app_url: 'https://p-q.example' }) +
  data({ type: 'stream_end', project_id: 'p-q', app_url: 'https://p-q.example' });

/** Two instances sharing one key prefix, whose upstream streams the next scripted text (then a finished build). */
function twoInstances(streams: string[]) {
  const keyPrefix = `credits-${randomUUID()}:`;
  return [0, 1].map(() =>
    createAgentProxy({
      apiBaseUrl: 'https://agent.example.test/api/v1',
      apiToken: 'test-token-credits',
      authorize: () => ({ externalUserId: 'alice' }),
      store: redis.newStore({ keyPrefix }),
      rateLimit: false,
      quota: { generations: 1, per: 'day' },
      fetch: async () => new Response(streams.shift() ?? built, { headers: { 'content-type': 'text/event-stream' } }),
    }),
  );
}

const generate = () =>
  new Request('https://app.example.test/agent/generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'A landing page for a bakery' }),
  });

describe('credits_exhausted first on Redis', () => {
  it('gives the generation back, so the user builds again on the other instance', async () => {
    const [first, second] = twoInstances([
      `: ping\n\n${data({ type: 'project_created', project_id: 'p-q', app_url: 'https://p-q.example' })}${creditsOut}`,
    ]);
    if (first === undefined || second === undefined) throw new Error('two instances');
    expect(await (await first(generate())).text()).toContain('credits_exhausted');
    expect(await second.usage('alice')).toMatchObject({ used: 0, limit: 1 });
    expect((await second(generate())).status).toBe(200);
    expect(await first.usage('alice')).toMatchObject({ used: 1, limit: 1 });
    expect((await first(generate())).status).toBe(429);
  });

  it('keeps counted a generation that wrote a file before the credits ran out', async () => {
    const [first, second] = twoInstances([
      data({ type: 'project_created', project_id: 'p-q', app_url: 'https://p-q.example' }) +
        data({ type: 'file_created', path: 'index.html' }) +
        creditsOut,
    ]);
    if (first === undefined || second === undefined) throw new Error('two instances');
    await (await first(generate())).text();
    expect(await second.usage('alice')).toMatchObject({ used: 1, limit: 1 });
    expect((await second(generate())).status).toBe(429);
  });
});
