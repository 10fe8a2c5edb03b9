/**
 * The repository pages as resources (docs/architecture.md, "Server data: resources"): one resource per end user,
 * page size and page; concurrent loads of a page share one request, a failing next page keeps the pages shown and
 * its retry asks for it alone, and a push that created a repository loads the pages shown again.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentProvider, useRepositories, type AgentStore } from 'agent-embed';
import {
  createAgentClient,
  createAgentStore,
  resourceSpecs,
  selectRepositoryPages,
  selectResource,
  type TransportRequest,
} from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const opened: (() => void)[] = [];

afterEach(() => {
  for (const close of opened.splice(0)) close();
});

/** A store over the mock where Ada has installed the code-host app; every repository page asked for is recorded. */
async function connected() {
  const transport = createMockTransport({ speed: 'instant', rateLimit: false, externalUser: ada });
  const asked: TransportRequest['query'][] = [];
  const client = createAgentClient({
    transport: {
      json: (request) => {
        if (request.path.endsWith('/repositories')) asked.push(request.query);
        return transport.json(request);
      },
      stream: (request, handlers) => transport.stream(request, handlers),
    },
  });
  const store = createAgentStore({ client, storage: null, scheduleFlush: (flush) => (flush(), () => {}) });
  opened.push(() => {
    store.destroy();
    transport.api.dispose();
  });
  const started = await client.codehost.startConnect({
    external_user_id: 'ada',
    external_user_name: 'Ada Lovelace',
    external_user_email: 'ada@example.com',
    return_url: 'http://localhost:3000/',
  });
  await transport.api.fetch(
    new Request(new URL(`/__mock/codehost/callback?state=${started.state}`, started.redirect_url)),
  );
  return { store, asked, admin: transport.api.admin };
}

function hookOn(store: AgentStore, perPage: number) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AgentProvider store={store} externalUser={ada}>
      {children}
    </AgentProvider>
  );
  return renderHook(() => useRepositories({ perPage }), { wrapper });
}

describe('repository pages are resources', () => {
  it('two concurrent loads of the same page send one request and resolve the same answer', async () => {
    const { store, asked } = await connected();
    const [first, second] = await Promise.all([
      store.getState().loadRepositories('ada', { page: 2, perPage: 10 }),
      store.getState().loadRepositories('ada', { page: 2, perPage: 10 }),
    ]);
    expect(asked).toEqual([{ page: 2, per_page: 10 }]);
    expect(first).toBe(second);
    expect(first.ok && first.data.items).toHaveLength(10);
    // The hook of the same page size reads it from the store: two hooks on one page send nothing more.
    const one = hookOn(store, 10);
    const two = hookOn(store, 10);
    await waitFor(() => expect(one.result.current.status).toBe('success'));
    await waitFor(() => expect(two.result.current.status).toBe('success'));
    expect(asked).toEqual([
      { page: 2, per_page: 10 },
      { page: 1, per_page: 10 },
    ]);
  });

  it('page 2 failing keeps page 1 and shows the error; refresh asks for page 2 alone', async () => {
    const { store, asked, admin } = await connected();
    const { result } = hookOn(store, 20);
    await waitFor(() => expect(result.current.status).toBe('success'));
    const pageOne = result.current.data!.loaded.map((repository) => repository.id);
    expect(pageOne).toHaveLength(20);

    admin.injectFault({ kind: 'http_500', route: 'listRepositories' });
    await act(async () => {
      expect((await result.current.goToPage(2)).ok).toBe(false);
    });
    expect(result.current).toMatchObject({ page: 2, status: 'error', error: { status: 500 } });
    expect(result.current.data!.loaded.map((repository) => repository.id)).toEqual(pageOne);
    expect(Object.keys(result.current.data!.pages)).toEqual(['1']);
    expect(selectResource(store.getState(), resourceSpecs.repositories('ada', { page: 1, perPage: 20 })).status).toBe(
      'success',
    );

    await act(async () => {
      expect((await result.current.refresh()).ok).toBe(true);
    });
    expect(asked).toEqual([
      { page: 1, per_page: 20 },
      { page: 2, per_page: 20 },
      { page: 2, per_page: 20 },
    ]);
    expect(result.current).toMatchObject({ page: 2, status: 'success', error: undefined });
    expect(result.current.data!.loaded).toHaveLength(40);
    expect(result.current.data!.loaded.slice(0, 20).map((repository) => repository.id)).toEqual(pageOne);
  });

  it('a push that created a repository loads the pages shown again; a link or a push to an existing one does not', async () => {
    const { store, asked } = await connected();
    const generated = await store.getState().generate({ prompt: 'A recipe sharing app with ratings' });
    const projectId = generated.projectId!;
    const { result } = hookOn(store, 5);
    await waitFor(() => expect(result.current.status).toBe('success'));
    await act(async () => {
      await result.current.goToPage(2);
    });
    const before = result.current.data!.loaded;
    expect(before).toHaveLength(10);
    const [owner, name] = before[0]!.full_name.split('/') as [string, string];

    expect((await store.getState().linkRepository(projectId, 'ada', { owner, name })).ok).toBe(true);
    expect((await store.getState().pushRepository(projectId, 'ada')).ok).toBe(true);
    expect(asked).toHaveLength(2);

    let reloading: boolean | undefined;
    const unsubscribe = store.subscribe((state) => {
      // While the pages load again they stay on screen: no page goes back to loading or empty.
      const pages = selectRepositoryPages(state, 'ada', 5);
      if (pages === undefined || pages.loaded.length < 10) reloading = false;
    });
    const pushed = await store.getState().pushRepository(projectId, 'ada', { owner, name: 'brand-new-site' });
    expect(pushed.ok && pushed.data.repo_created).toBe(true);
    await waitFor(() => expect(result.current.data!.loaded[0]!.name).toBe('brand-new-site'));
    unsubscribe();
    expect(reloading).toBeUndefined();
    expect(asked.slice(2)).toEqual([
      { page: 1, per_page: 5 },
      { page: 2, per_page: 5 },
    ]);
    // The first page now starts with the new repository, and the second page moved up by one.
    expect(result.current.data!.loaded.slice(1, 10).map((repository) => repository.id)).toEqual(
      before.slice(0, 9).map((repository) => repository.id),
    );
    expect(result.current).toMatchObject({ page: 2, status: 'success' });
  });
});
