/**
 * Resources through the hooks: a failed conversation load is retried from the hook, and a finished build
 * makes the store load the project list and the project's conversation again.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentProvider, useConversation, useProjects } from 'agent-embed';
import {
  AgentApiError,
  createAgentClient,
  createAgentStore,
  type AgentTransport,
  type ConversationTurn,
} from 'agent-embed/core';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

const turn: ConversationTurn = {
  kind: 'generate',
  prompt: 'A recipe sharing app with ratings',
  mode: 'build',
  at: '2026-11-20T10:00:00Z',
  outcome: { status: 'completed', files_created: 3, files_modified: 0, steps: 2 },
};

describe('useConversation', () => {
  it('a failed load of the proxy record is shown as an error and retried with refresh', async () => {
    let answers = 0;
    const transport: AgentTransport = {
      async json(request) {
        if (request.path !== '/projects/p1/conversation') throw new AgentApiError('not_found', 'Nope', { status: 404 });
        answers++;
        if (answers === 1) throw new AgentApiError('upstream', 'Service unavailable.', { status: 503 });
        return { status: true, turns: [turn] };
      },
      stream: () => Promise.reject(new AgentApiError('not_found', 'Nope', { status: 404 })),
    };
    const store = createAgentStore({ client: createAgentClient({ transport }), storage: null });
    const wrapper = ({ children }: { children: ReactNode }) => <AgentProvider store={store}>{children}</AgentProvider>;
    const { result } = renderHook(() => useConversation('p1'), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.error?.kind).toBe('upstream');
    expect(result.current.data).toEqual([]);

    await act(async () => {
      await expect(result.current.refresh()).resolves.toMatchObject({ ok: true });
    });
    expect(result.current.status).toBe('success');
    expect(result.current.error).toBeUndefined();
    expect(result.current.data.map((entry) => [entry.prompt, entry.outcome?.filesCreated])).toEqual([[turn.prompt, 3]]);
    expect(answers).toBe(2);
    store.destroy();
  });
});

describe('invalidation after a build', () => {
  it('a finished generation loads the project list and its conversation again', async () => {
    const paths: string[] = [];
    const rendered = renderWithMock(<Probe />, {
      store: {},
      provider: { externalUser: { id: 'ada', name: 'Ada', email: 'ada@example.com' } },
      wrapTransport: (transport) => ({
        json: (request) => {
          if (request.method === 'GET') paths.push(request.path);
          return transport.json(request);
        },
        stream: (request, handlers) => transport.stream(request, handlers),
      }),
    });
    const gets = (path: string) => paths.filter((each) => each === path).length;
    await waitFor(() => expect(rendered.getByTestId('projects')).toHaveAttribute('data-state', 'success'));
    expect(rendered.getByTestId('projects')).toHaveTextContent('0');
    expect(gets('/projects')).toBe(1);

    const store = rendered.store!;
    await act(async () => {
      await store.getState().generate({ prompt: 'A recipe sharing app with ratings' });
    });
    await waitFor(() => expect(rendered.getByTestId('projects')).toHaveTextContent('1'));
    expect(gets('/projects')).toBe(2);
    const projectId = Object.values(store.getState().generations).find((each) => each.projectId)?.projectId;
    // Loaded once the project is named (while it builds, or at its end) and again at its end when it was held.
    await waitFor(() => expect(rendered.getByTestId('turns')).toHaveTextContent('1'));
    const conversationLoads = gets(`/projects/${projectId}/conversation`);
    expect(conversationLoads).toBeGreaterThanOrEqual(1);

    // The conversation is held now: the end of the follow-up's build loads it again, with the list.
    await act(async () => {
      await store.getState().followUp(projectId!, { prompt: 'Add a dark mode to every page' });
    });
    await waitFor(() => expect(gets(`/projects/${projectId}/conversation`)).toBeGreaterThan(conversationLoads));
    await waitFor(() => expect(gets('/projects')).toBe(3));
    expect(rendered.getByTestId('turns')).toHaveTextContent('2');
  });
});

function Probe() {
  const projects = useProjects();
  const conversation = useConversation();
  return (
    <>
      <p data-testid="projects" data-state={projects.status}>
        {projects.data?.length ?? '-'}
      </p>
      <p data-testid="turns">{conversation.data.length}</p>
    </>
  );
}
