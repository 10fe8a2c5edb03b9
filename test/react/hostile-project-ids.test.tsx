/**
 * Project ids that are names every plain object has (`constructor`, `toString`, `__proto__`): the store keys its
 * records by project id, so such an id from an answer (an upstream naming its project so) is never taken as one; the
 * build still shows and ends, and nothing crashes. An id of the API's shape (`control_id`) names the project.
 */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppPreview, Conversation, GeneratePanel, LiveBuildLog, ProjectList, ProjectStatus } from 'agent-embed';
import { agentIdPattern, type AgentEvent, type AgentTransport } from 'agent-embed/core';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };

/** The mock's project is called `alias` on the wire the browser sees (as an upstream naming it so would). */
function renamed(alias: string) {
  return (inner: AgentTransport): AgentTransport => {
    let real: string | undefined;
    const toReal = (path: string) => (real === undefined ? path : path.split(`/${alias}`).join(`/${real}`));
    const rename = (value: unknown): unknown =>
      JSON.parse(
        JSON.stringify(value ?? null)
          .split(real ?? '\u0000')
          .join(alias),
      );
    return {
      json: async (request) => rename(await inner.json({ ...request, path: toReal(request.path) })),
      stream: (request, handlers) =>
        inner.stream(
          { ...request, path: toReal(request.path) },
          {
            ...handlers,
            onEvent: (event: AgentEvent, id?: number) => {
              const named = (event as { project_id?: unknown }).project_id;
              if (real === undefined && typeof named === 'string') real = named;
              handlers.onEvent(rename(event) as AgentEvent, id);
            },
          },
        ),
    };
  };
}

describe('project ids that are names every object has', () => {
  for (const alias of ['control_id', 'constructor', 'toString', '__proto__']) {
    it(`a project named "${alias}" builds and shows without crashing`, async () => {
      // Only an id of the API's shape names a project: never a name every object has.
      expect(agentIdPattern.test(alias)).toBe(alias === 'control_id');
      const { user } = renderWithMock(
        <>
          <GeneratePanel />
          <LiveBuildLog />
          <ProjectStatus />
          <AppPreview />
          <Conversation />
          <ProjectList />
        </>,
        { provider: { externalUser: ada }, store: {}, wrapTransport: renamed(alias) },
      );
      await user.type(screen.getByLabelText('Describe the app you want'), 'A portfolio site for a ceramic artist');
      await user.click(screen.getByRole('button', { name: 'Generate' }));
      await waitFor(() =>
        expect(screen.getByRole('region', { name: 'Build progress' })).toHaveAttribute('data-state', 'completed'),
      );
      await waitFor(() =>
        expect(screen.getByRole('region', { name: 'Your projects' })).toHaveAttribute('data-state', 'success'),
      );
      expect(screen.getByTitle('Preview of the generated app')).toBeInTheDocument();
    });
  }
});
