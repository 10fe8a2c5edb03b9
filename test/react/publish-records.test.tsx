/**
 * The Publish sheet's story survives a full page navigation (the code-host install) and a reload: a second
 * store over the same storage, as the next page builds it, offers the deployment, the link and the push
 * through the hooks, and reads the connections back from the API.
 */
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentProvider, useCodehost, useDeployment, useRepositoryActions, type AgentStore } from 'agent-embed';
import { createAgentClient, createAgentStore, mutationKeys, selectMutation } from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';
import { createMemoryStorage } from '../store/fakes.js';

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const disposers: (() => void)[] = [];

afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

/** One mock API (the server) and one storage (the tab), and a store per page. */
function tab() {
  const transport = createMockTransport({ speed: 'instant', rateLimit: false, externalUser: ada });
  const storage = createMemoryStorage();
  disposers.push(() => transport.api.dispose());
  const page = () => {
    const store = createAgentStore({
      client: createAgentClient({ transport }),
      storage,
      scheduleFlush: (flush) => (flush(), () => {}),
    });
    disposers.push(() => store.destroy());
    return store;
  };
  return { transport, storage, page };
}

/** Connects the code host as the browser would: start, then the mock's callback (the install page). */
async function connectCodehost(store: AgentStore, transport: ReturnType<typeof createMockTransport>) {
  const started = await store.getState().startCodehostConnect({
    external_user_id: 'ada',
    external_user_name: ada.name,
    external_user_email: ada.email,
    return_url: new URL('/app', window.location.href).href,
  });
  if (!started.ok) throw started.error;
  const state = new URL(started.data.redirect_url).searchParams.get('state')!;
  await transport.api.fetch(
    new Request(new URL(`/__mock/codehost/callback?state=${state}`, started.data.redirect_url)),
  );
}

/** A finished build on this page; its project id. */
async function build(store: AgentStore): Promise<string> {
  const result = await store.getState().generate({ prompt: 'A recipe sharing app with ratings' });
  expect(result.outcome).toBe('completed');
  return result.projectId!;
}

function hooksOn(store: AgentStore, projectId: string) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AgentProvider store={store} externalUser={ada}>
      {children}
    </AgentProvider>
  );
  return renderHook(
    () => ({
      deployment: useDeployment('vercel', projectId),
      codehost: useCodehost({ refreshOnReturn: false }),
      repository: useRepositoryActions(projectId),
    }),
    { wrapper },
  );
}

describe('the Publish story across pages', () => {
  it('a deployment, a link and a push are offered again on the next page; connections are read back from the API', async () => {
    const { transport, storage, page } = tab();
    const first = page();
    const projectId = await build(first);
    await first.getState().connectDeployment('vercel', 'ada', 'ada-account:token');
    const deployed = await first.getState().deploy('vercel', projectId, 'ada');
    expect(deployed.ok).toBe(true);
    await connectCodehost(first, transport);
    const listed = await first.getState().loadRepositories('ada', { perPage: 5 });
    const [owner, name] = (listed.ok ? listed.data.items[0]!.full_name : '').split('/') as [string, string];
    expect((await first.getState().linkRepository(projectId, 'ada', { owner, name })).ok).toBe(true);
    expect((await first.getState().pushRepository(projectId, 'ada')).ok).toBe(true);
    first.destroy();

    // The next page: nothing in memory, the same tab's storage and the same server.
    const second = page();
    const { result } = hooksOn(second, projectId);
    const url = deployed.ok ? deployed.data.url : undefined;
    expect(result.current.deployment.deployment).toMatchObject({ status: 'success', data: { url } });
    expect(result.current.repository.link).toMatchObject({ status: 'success', variables: { owner, name } });
    expect(result.current.repository.push).toMatchObject({ status: 'success', data: { repo_created: false } });
    // Only what the Publish sheet tells is kept: no token submission, no install start.
    expect(result.current.deployment.connecting.status).toBe('idle');
    expect(result.current.codehost.start.status).toBe('idle');
    expect(result.current.repository.linked).toEqual({ owner, name });
    await waitFor(() => expect(result.current.deployment.connectionStatus).toBe('connected'));
    await waitFor(() => expect(result.current.codehost.connectionStatus).toBe('connected'));
    expect(storage.values.size).toBeGreaterThan(0);
  });

  it('keeps only what succeeded: a failed deploy and a failed push are not offered on the next page', async () => {
    const { page } = tab();
    const first = page();
    const projectId = await build(first);
    // No provider connection: the deploy fails; no code host: the push fails.
    expect((await first.getState().deploy('vercel', projectId, 'ada')).ok).toBe(false);
    expect((await first.getState().pushRepository(projectId, 'ada', { owner: 'ada', name: 'site' })).ok).toBe(false);
    expect(selectMutation(first.getState(), mutationKeys.deploy('vercel', projectId)).status).toBe('error');
    first.destroy();

    const second = page();
    const { result } = hooksOn(second, projectId);
    expect(result.current.deployment.deployment.status).toBe('idle');
    expect(result.current.repository.push.status).toBe('idle');
    expect(result.current.repository.linked).toBeUndefined();
  });

  it('a push that named a repository is the linked one when nothing was linked here', async () => {
    const { transport, page } = tab();
    const first = page();
    const projectId = await build(first);
    await connectCodehost(first, transport);
    const pushed = await first.getState().pushRepository(projectId, 'ada', { owner: 'ada-lovelace', name: 'new-site' });
    expect(pushed).toMatchObject({ ok: true, data: { repo_created: true } });
    first.destroy();

    const { result } = hooksOn(page(), projectId);
    expect(result.current.repository.link.status).toBe('idle');
    expect(result.current.repository.linked).toEqual({ owner: 'ada-lovelace', name: 'new-site' });
  });
});
