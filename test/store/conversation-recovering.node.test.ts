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

it('keeps the conversation in storage: written after the publishes that changed it, once per task, read back by a new store', async () => {
  const transport = createMockTransport({ speed: 'instant', rateLimit: false });
  const values = new Map<string, string>();
  const writes: string[] = [];
  const storage = {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => {
      writes.push(key);
      values.set(key, value);
    },
    removeItem: (key: string) => void values.delete(key),
  };
  const options = { client: createAgentClient({ transport }), storage, storageKey: 'kept' };
  store = createAgentStore(options);
  const result = await store.getState().generate({ prompt: 'A recipe box with tags and a shopping list' });
  expect(result.outcome).toBe('completed');
  // The turn was placed, moved to its project and given its outcome in the same task's publishes: nothing is
  // written until that task has ended, and then once.
  expect(writes.filter((key) => key === 'kept:conversations')).toHaveLength(0);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(writes.filter((key) => key === 'kept:conversations')).toHaveLength(1);
  const saved = JSON.parse(values.get('kept:conversations') ?? '{}') as Record<string, { outcome?: unknown }[]>;
  expect(saved[result.projectId!]).toEqual([
    expect.objectContaining({
      prompt: 'A recipe box with tags and a shopping list',
      outcome: expect.objectContaining({ status: 'completed' }),
    }),
  ]);

  store.destroy();
  store = createAgentStore({ ...options, storage });
  expect(store.getState().conversations[result.projectId!]).toEqual(saved[result.projectId!]);
});
