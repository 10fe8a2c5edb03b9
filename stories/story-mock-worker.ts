/**
 * The stories' mocks, off the page: one worker per page hosts a mock Agent API and its proxy per story, each at an
 * origin of its own (stories/story-mocks.ts), so the worker's modules load once per page (about 400 ms from Storybook's
 * dev server), not once per story. stories/story-agent.tsx starts it.
 */
import { serveFetchInWorker } from 'agent-embed/core';
import { createMockSiteFetch, createMockTransport, type MockTransportOptions } from 'agent-embed/mock';
import { storyMockBaseUrl, storyMocksUrl } from './story-mocks.js';

const mocks = new Map<string, { fetch: typeof fetch; dispose: () => void }>();
let created = 0;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

serveFetchInWorker(async (input, init) => {
  const url = new URL(String(input));
  if (url.href === storyMocksUrl && init?.method === 'POST') {
    const options = JSON.parse(String(init.body)) as MockTransportOptions;
    const baseUrl = storyMockBaseUrl(++created);
    const transport = createMockTransport({ ...options, baseUrl });
    mocks.set(new URL(baseUrl).origin, {
      fetch: createMockSiteFetch(transport),
      dispose: () => transport.api.dispose(),
    });
    return json(201, { baseUrl });
  }
  const mock = mocks.get(url.origin);
  if (mock === undefined) return json(404, { message: 'No story mock here: it was stopped, or never started.' });
  if (init?.method === 'DELETE' && url.pathname === '/') {
    mocks.delete(url.origin);
    mock.dispose();
    return json(200, { ok: true });
  }
  return mock.fetch(input, init);
});
