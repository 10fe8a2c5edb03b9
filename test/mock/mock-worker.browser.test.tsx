/**
 * The in-browser mock in a real module worker (Chromium, bundled by Vite as an agency's or Storybook's bundler would):
 * a page's client reaches the mock and its proxy only through `createWorkerMockTransport`.
 */
import { createAgentClient } from 'agent-embed/core';
import { createWorkerMockTransport } from 'agent-embed/mock';
import { afterEach, describe, expect, it } from 'vitest';

const workers: Worker[] = [];
afterEach(() => {
  for (const worker of workers.splice(0)) worker.terminate();
});

function startWorker(): Worker {
  const worker = new Worker(new URL('./mock-worker-fixture.ts', import.meta.url), { type: 'module' });
  workers.push(worker);
  return worker;
}

describe('createWorkerMockTransport in Chromium', () => {
  it('streams a whole build of 3,000 files from the worker, then lists the project its proxy recorded', async () => {
    const client = createAgentClient({ transport: createWorkerMockTransport(startWorker()) });
    const paths = new Set<string>();
    const result = await client.generate(
      { prompt: 'A recipe box with tags and a shopping list' },
      { onEvent: (event) => (event.type === 'file_created' ? paths.add(event.path ?? '') : undefined) },
    );
    expect(result.outcome).toBe('completed');
    expect(paths.size).toBe(3000);
    const projects = await client.projects.list();
    expect(projects.map((project) => project.project_id)).toEqual([result.projectId]);
  });

  it('fails requests as a broken network does when the worker cannot start', async () => {
    // A script that is not there: the worker fails to load, as one blocked or broken would.
    const worker = new Worker(new URL('./no-such-worker.js', import.meta.url));
    workers.push(worker);
    const client = createAgentClient({ transport: createWorkerMockTransport(worker) });
    await expect(client.projects.list()).rejects.toMatchObject({ code: 'network' });
  });
});
