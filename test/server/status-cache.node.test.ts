/**
 * The proxy's status cache never outlives the start of a build: a browser that stopped watching a follow-up polls
 * the status, and a status cached before the follow-up would tell it the project is ready while it builds.
 */
import { expect, it } from 'vitest';
import { createMemoryProxyStore } from 'agent-embed/server';
import { createScriptedProxy, createScriptedStream, json, type UpstreamCall } from './scripted-upstream.js';

const appOrigin = 'https://app.example.test';
const basePath = '/api/agent';

it('forgets a cached status when a follow-up of the project starts', async () => {
  const stream = createScriptedStream();
  let projectStatus = 'ready';
  const answer = (call: UpstreamCall) =>
    call.method === 'POST'
      ? stream.response()
      : json({
          status: true,
          project_id: 'p-alice',
          app_url: 'https://p-alice.example',
          project_status: projectStatus,
          name: 'App',
        });
  const { proxy, upstream } = createScriptedProxy(answer, {
    basePath,
    authorize: () => ({ externalUserId: 'alice' }),
    store: createMemoryProxyStore({ owners: { 'p-alice': 'alice' } }),
    appUrl: appOrigin,
    statusCacheMs: 60_000,
  });
  const poll = async () =>
    (await (await proxy(new Request(`${appOrigin}${basePath}/agent/project/p-alice`))).json()) as {
      project_status: string;
    };
  expect(await poll()).toMatchObject({ project_status: 'ready' });
  expect(await poll()).toMatchObject({ project_status: 'ready' });
  expect(upstream.calls).toHaveLength(1);

  const followUp = await proxy(
    new Request(`${appOrigin}${basePath}/agent/generate/p-alice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Add a dark mode toggle please' }),
    }),
  );
  expect(followUp.status).toBe(200);
  projectStatus = 'generating';
  // The browser stopped watching: its poll reaches the upstream, which says the project builds.
  await expect.poll(async () => (await poll()).project_status).toBe('generating');
  expect(upstream.calls.filter((call) => call.method === 'GET')).toHaveLength(2);
  stream.close();
});
