/**
 * The conversation while a build is recovered: the proxy records a turn whose stream it lost as `interrupted` until
 * a status poll settles it, but the browser is still following that build. The turn must not say it ended while
 * the build log says it is reconnecting.
 */
import { afterEach, expect, it } from 'vitest';
import {
  createAgentClient,
  createAgentStore,
  isGenerationRunning,
  resourceSpecs,
  type AgentStore,
} from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';

let store: AgentStore | undefined;
afterEach(() => store?.destroy());

it('a turn whose stream dropped stays running while its build is recovered, whatever the proxy recorded', async () => {
  const transport = createMockTransport({ speed: 'instant', rateLimit: false });
  // The build freezes after 6 events and its stream closes: the proxy records the turn as interrupted.
  transport.api.admin.injectFault({ kind: 'pause_after', events: 6, drop: true });
  store = createAgentStore({
    client: createAgentClient({ transport }),
    storage: null,
    pollIntervalMs: 10_000,
    maxPollIntervalMs: 10_000,
  });
  void store.getState().generate({ prompt: 'A recipe box with tags and a shopping list' });
  const recovering = () =>
    Object.values(store!.getState().generations).find((generation) => generation.status === 'recovering');
  await expect.poll(recovering).toBeDefined();
  const { projectId } = recovering()!;
  const recorded = await createAgentClient({ transport }).projects.conversation(projectId!);
  expect(recorded.at(-1)?.outcome?.status).toBe('interrupted');

  await store.getState().fetchResource(resourceSpecs.conversation(projectId!));
  // Keyed by its project once named.
  expect(isGenerationRunning(store.getState().generations[projectId!]!.status)).toBe(true);
  const turns = store.getState().conversations[projectId!]!;
  expect(turns).toHaveLength(1);
  expect(turns[0]!.outcome).toBeUndefined();
});
