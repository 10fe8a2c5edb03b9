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

  it('lists a user’s newest 200 projects, as the Redis store does', async () => {
    const store = createMemoryProxyStore();
    for (let index = 1; index <= 205; index++) {
      const at = Date.UTC(2026, 0, 1, 0, 0, index);
      await store.noteProject(`p${index}`, 'alice', { name: `Project ${index}` }, at);
    }
    const listed = (await store.listProjects('alice')).map((project) => project.project_id);
    expect(listed).toHaveLength(200);
    expect(listed[0]).toBe('p205');
    expect(listed.at(-1)).toBe('p6');
  });
});

describe('createMemoryProxyStore never lets a project’s records outlive its owner', () => {
  it('forgets a project whole when its owner is forgotten, so a user later given its id finds nothing of the first', async () => {
    const store = createMemoryProxyStore({ maxProjects: 3 });
    await store.setProjectOwner('p-bob', 'bob');
    await store.beginGeneration('p-bob', 'bob', turn('Bob’s private prompt'));
    await store.noteProject('p-bob', 'bob', { name: 'Bob’s shop', project_status: 'ready' }, 1);
    await store.appendEvent('p-bob', 1, { id: 1, data: '{"type":"file_created","path":"bob.ts"}' });
    // Bob keeps his list open, which keeps his project's record in use while its owner entry ages.
    for (const id of ['p-c1', 'p-c2', 'p-c3']) {
      await store.listProjects('bob');
      await store.setProjectOwner(id, 'carol');
      await store.beginGeneration(id, 'carol', turn('Carol’s prompt'));
    }
    expect(await store.getProjectOwner('p-bob')).toBeUndefined();
    expect(await store.listProjects('bob')).toEqual([]);
    expect(await store.getConversation('p-bob')).toEqual([]);
    expect(await store.readEvents('p-bob', 0)).toBeUndefined();

    // A broken or hostile upstream names the same id for Alice's build.
    await store.setProjectOwner('p-bob', 'alice');
    await store.beginGeneration('p-bob', 'alice', turn('Alice’s prompt'));
    expect((await store.getConversation('p-bob')).map((entry) => entry.prompt)).toEqual(['Alice’s prompt']);
    expect((await store.listProjects('alice')).map((project) => project.name)).toEqual([null]);
    expect(await store.listProjects('bob')).toEqual([]);
  });

  it('never updates another user’s record: a user’s note on an id makes a record of their own', async () => {
    const store = createMemoryProxyStore();
    await store.beginGeneration('p-x', 'bob', turn('Bob’s prompt'));
    await store.noteProject('p-x', 'bob', { name: 'Bob’s shop' }, 1);
    await store.noteProject('p-x', 'alice', { project_status: 'ready' }, 2);
    expect(await store.listProjects('bob')).toEqual([]);
    expect(await store.listProjects('alice')).toMatchObject([
      { project_id: 'p-x', name: null, project_status: 'ready' },
    ]);
    expect(await store.getConversation('p-x')).toEqual([]);
  });

  it('lists a project as long as it is kept, however many users come after: the lists are the projects’ own', async () => {
    const store = createMemoryProxyStore({ maxProjects: 5 });
    await store.setProjectOwner('p-alice', 'alice');
    await store.beginGeneration('p-alice', 'alice', turn('Alice’s prompt'));
    for (let user = 1; user <= 40; user++) {
      // Alice's project stays in use (her page polls it and reads its conversation); she never opens her list.
      await store.getProjectOwner('p-alice');
      await store.getConversation('p-alice');
      await store.setProjectOwner(`p-${user}`, `user-${user}`);
      await store.beginGeneration(`p-${user}`, `user-${user}`, turn('A prompt long enough'));
    }
    expect((await store.listProjects('alice')).map((project) => project.project_id)).toEqual(['p-alice']);
    let listed = 0;
    for (let user = 1; user <= 40; user++) listed += (await store.listProjects(`user-${user}`)).length;
    expect(listed).toBe(4);
  });
});

describe("the memory store's event logs, shared fairly between end users", () => {
  const event = (id: number, bytes: number) => ({ id, data: 'x'.repeat(bytes) });

  it("one user's builds push out only that user's own logs, never another user's", async () => {
    const store = createMemoryProxyStore({ maxEventLogs: 3, maxEventLogsPerUser: 2 });
    await store.beginGeneration('bob-1', 'bob', turn('bob builds'));
    await store.appendEvent('bob-1', 1, event(1, 10));
    for (let index = 1; index <= 10; index++) {
      const generation = await store.beginGeneration(`alice-${index}`, 'alice', turn(`alice ${index}`));
      await store.appendEvent(`alice-${index}`, generation, event(1, 10));
    }
    expect((await store.readEvents('bob-1', 0))?.events.map((kept) => kept.id)).toEqual([1]);
    // Alice keeps her two most recent logs.
    for (let index = 1; index <= 8; index++) expect(await store.readEvents(`alice-${index}`, 0)).toBeUndefined();
    expect(await store.readEvents('alice-9', 0)).toBeDefined();
    expect(await store.readEvents('alice-10', 0)).toBeDefined();
  });

  it('keeps the bytes of all logs under maxEventBytes, the least recently used logs going first', async () => {
    const store = createMemoryProxyStore({ maxEventBytes: 100 });
    for (const id of ['p1', 'p2', 'p3']) await store.beginGeneration(id, `owner-${id}`, turn(id));
    await store.appendEvent('p1', 1, event(1, 40));
    await store.appendEvent('p2', 1, event(1, 40));
    // p1 is used again (read), so p2 is the least recently used when p3's event passes the bound.
    expect(await store.readEvents('p1', 0)).toBeDefined();
    await store.appendEvent('p3', 1, event(1, 40));
    expect(await store.readEvents('p2', 0)).toBeUndefined();
    expect((await store.readEvents('p1', 0))?.events).toHaveLength(1);
    expect((await store.readEvents('p3', 0))?.events).toHaveLength(1);
  });

  it("a project's new generation frees its earlier log's bytes and its place among its owner's logs", async () => {
    const store = createMemoryProxyStore({ maxEventBytes: 100, maxEventLogsPerUser: 2 });
    await store.beginGeneration('p1', 'alice', turn('first'));
    await store.appendEvent('p1', 1, event(1, 80));
    const second = await store.beginGeneration('p1', 'alice', turn('second'));
    await store.beginGeneration('p2', 'alice', turn('another'));
    await store.appendEvent('p2', 1, event(1, 80));
    // 80 bytes are kept, not 160: p1's new, empty log stays, and so does p2.
    expect(await store.readEvents('p1', 0)).toEqual({ generation: second, events: [], ended: false });
    expect((await store.readEvents('p2', 0))?.events).toHaveLength(1);
  });
});
