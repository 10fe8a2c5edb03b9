/** Odd conversation records (a proxy's answer, or saved turns in sessionStorage) never crash the conversation. */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from 'agent-embed';
import type { AgentTransport } from 'agent-embed/core';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const at = '2024-05-01T10:00:00.000Z';

function conversationAnswer(turns: unknown[]) {
  return (inner: AgentTransport): AgentTransport => ({
    json: (request) =>
      request.method === 'GET' && /^\/projects\/[^/]+\/conversation$/.test(request.path)
        ? Promise.resolve({ status: true, project_id: 'p1', turns })
        : inner.json(request),
    stream: (request, handlers) => inner.stream(request, handlers),
  });
}

const turn = (overrides: Record<string, unknown>) => ({
  kind: 'generate',
  prompt: 'A todo app with tags',
  mode: 'build',
  at,
  outcome: null,
  ...overrides,
});

describe('audit: hostile conversation answers', () => {
  const cases: [string, unknown[]][] = [
    ['a turn that is null', [null]],
    ['a prompt that is an object', [turn({ prompt: { html: '<img src=x>' } })]],
  ];
  for (const [label, turns] of cases) {
    it(`${label}: the conversation renders (no crash)`, async () => {
      const { store } = renderWithMock(<Conversation projectId="p1" />, {
        provider: { externalUser: ada },
        store: {},
        wrapTransport: conversationAnswer(turns),
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(screen.getByRole('region', { name: 'Conversation' })).toBeInTheDocument();
      // The load settles (kept what could be read, or an error to retry): never left loading by a thrown TypeError.
      expect(store!.getState().resources['conversation:p1']?.status).not.toBe('loading');
    });
  }
});

describe('audit: tampered saved conversation', () => {
  it('a saved turn whose time is out of the Date range does not crash the conversation', async () => {
    sessionStorage.setItem(
      'agent-embed:last-project:ada:conversations',
      JSON.stringify({ p1: [{ id: 't1', kind: 'generate', prompt: 'A todo app with tags', at: 1e300 }] }),
    );
    renderWithMock(<Conversation projectId="p1" />, { provider: { externalUser: ada } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Conversation' })).toBeInTheDocument());
  });
});
