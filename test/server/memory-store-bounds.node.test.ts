import { describe, expect, it } from 'vitest';
import type { ConversationTurn } from 'agent-embed/core';
import { createMemoryProxyStore } from 'agent-embed/server';

const turn = (prompt: string): ConversationTurn => ({
  kind: 'generate',
  prompt,
  mode: 'build',
  at: new Date(0).toISOString(),
  outcome: null,
});
const outcome = { status: 'completed', files_created: 1, files_modified: 0, steps: 0 } as const;

describe('createMemoryProxyStore keeps every structure bounded', () => {
  it('forgets the least recently used projects beyond maxProjects', async () => {
    const store = createMemoryProxyStore({ maxProjects: 3 });
    for (const id of ['p1', 'p2', 'p3', 'p4']) {
      await store.setProjectOwner(id, 'alice');
      await store.beginGeneration(id, 'alice', turn(`prompt ${id}`));
    }
    expect(await store.getProjectOwner('p1')).toBeUndefined();
    expect(await store.getProjectOwner('p4')).toBe('alice');
    expect((await store.listProjects('alice')).map((project) => project.project_id)).toEqual(['p4', 'p3', 'p2']);
  });

  it('counts a read as a use, whether or not the project was the last one used', async () => {
    const store = createMemoryProxyStore({ maxProjects: 3 });
    for (const id of ['p1', 'p2', 'p3']) await store.setProjectOwner(id, 'alice');
    // p1 read, then p2, then p1 again (no longer the last used): p3 is now the least recently used.
    for (const id of ['p1', 'p2', 'p1', 'p1']) expect(await store.getProjectOwner(id)).toBe('alice');
    await store.setProjectOwner('p4', 'alice');
    expect(await store.getProjectOwner('p3')).toBeUndefined();
    // p2 is the least recently used now; p1, read last, stays.
    await store.setProjectOwner('p5', 'alice');
    expect(await store.getProjectOwner('p2')).toBeUndefined();
    expect(await store.getProjectOwner('p1')).toBe('alice');
  });

  it('keeps the newest events of a generation, the newest turns, and drops ended logs after the retention', async () => {
    let clock = 0;
    const store = createMemoryProxyStore({
      maxEventsPerGeneration: 3,
      maxTurnsPerProject: 2,
      eventRetentionMs: 1_000,
      now: () => clock,
    });
    for (const prompt of ['one', 'two', 'three']) await store.beginGeneration('p', 'alice', turn(prompt));
    expect((await store.getConversation('p')).map((entry) => entry.prompt)).toEqual(['two', 'three']);
    for (let id = 1; id <= 5; id++) await store.appendEvent('p', 3, { id, data: `{"n":${id}}` });
    expect((await store.readEvents('p', 0))?.events.map((event) => event.id)).toEqual([3, 4, 5]);
    expect((await store.readEvents('p', 3))?.events.map((event) => event.id)).toEqual([4, 5]);
    await store.endGeneration('p', 3, outcome);
    expect((await store.getConversation('p')).at(-1)?.outcome).toEqual(outcome);
    clock = 999;
    expect((await store.readEvents('p', 0))?.ended).toBe(true);
    clock = 1_001;
    expect(await store.readEvents('p', 0)).toBeUndefined();
  });

  it('ignores events of a generation that is no longer the latest', async () => {
    const store = createMemoryProxyStore();
    const first = await store.beginGeneration('p', 'alice', turn('first'));
    const second = await store.beginGeneration('p', 'alice', turn('second'));
    await store.appendEvent('p', first, { id: 1, data: '{}' });
    expect(await store.readEvents('p', 0)).toEqual({ generation: second, events: [], ended: false });
  });
});
