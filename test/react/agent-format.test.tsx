import { render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AgentProvider, createAgentFormat } from 'agent-embed';
import { createAgentClient, createAgentStore, type AgentTransport } from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';
import { cleanupRendered } from './render-with-mock.js';

// Counts the formatters created: a page's first one loads the locale data, the cost these tests keep out of renders.
const { NumberFormat, DateTimeFormat } = Intl;
const created: string[] = [];

beforeEach(() => {
  created.length = 0;
  Intl.NumberFormat = function (...args: ConstructorParameters<typeof NumberFormat>) {
    created.push('NumberFormat');
    return new NumberFormat(...args);
  } as unknown as typeof NumberFormat;
  Intl.DateTimeFormat = function (...args: ConstructorParameters<typeof DateTimeFormat>) {
    created.push('DateTimeFormat');
    return new DateTimeFormat(...args);
  } as unknown as typeof DateTimeFormat;
});

afterEach(() => {
  Intl.NumberFormat = NumberFormat;
  Intl.DateTimeFormat = DateTimeFormat;
  cleanupRendered();
  vi.unstubAllGlobals();
  workers.length = 0;
  blobs.clear();
});

describe('createAgentFormat', () => {
  it('creates no formatter until one is used, then each once', () => {
    const format = createAgentFormat('de-DE');
    expect(created).toEqual([]);
    expect(format.number(12345)).toBe('12.345');
    expect(format.number(678)).toBe('678');
    expect(created).toEqual(['NumberFormat']);
    expect(format.percent(40)).toMatch(/^40\s?%$/);
    expect(format.dateTime(Date.UTC(2025, 3, 1, 12))).toContain('2025');
    format.dateTime(0);
    format.time(0);
    format.time(1);
    expect(created).toEqual(['NumberFormat', 'NumberFormat', 'DateTimeFormat', 'DateTimeFormat']);
  });

  it('formats in the default locale when the tag is not a valid one', () => {
    const format = createAgentFormat('not a locale!');
    expect(format.locale).toBe('not a locale!');
    expect(format.number(12345.5)).toBe(new NumberFormat().format(12345.5));
    expect(format.time(0)).toBe(new DateTimeFormat(undefined, { timeStyle: 'short' }).format(0));
  });
});

describe('AgentProvider and the locale data', () => {
  it('creates no formatter while it mounts, then the first in a task of its own', async () => {
    render(
      <AgentProvider transport={createMockTransport({ speed: 'instant' })} locale="fr">
        <p>content</p>
      </AgentProvider>,
    );
    expect(created).toEqual([]);
    await waitFor(() => expect(created).toEqual(['NumberFormat']));
  });

  it('loads it in three tasks: a collator, the locale’s likely subtags, then the first number', async () => {
    // What each task held: the log as it stood once the task's own code and microtasks had run.
    const log: string[] = [];
    const atTaskEnd: string[][] = [];
    const note = (entry: string) => {
      log.push(entry);
      void Promise.resolve().then(() => atTaskEnd.push([...log]));
    };
    const { Collator, Locale } = Intl;
    const maximize = Object.getOwnPropertyDescriptor(Locale.prototype, 'maximize')!;
    vi.spyOn(Intl, 'Collator').mockImplementation(function (...args: ConstructorParameters<typeof Collator>) {
      note('Collator');
      return new Collator(...args);
    } as unknown as typeof Collator);
    Object.defineProperty(Locale.prototype, 'maximize', {
      ...maximize,
      value(this: Intl.Locale) {
        note('maximize');
        return (maximize.value as () => Intl.Locale).call(this);
      },
    });
    const counted = Intl.NumberFormat;
    Intl.NumberFormat = function (...args: ConstructorParameters<typeof NumberFormat>) {
      note('NumberFormat');
      return new counted(...args);
    } as unknown as typeof NumberFormat;
    try {
      render(
        <AgentProvider transport={createMockTransport({ speed: 'instant' })} locale="de">
          <p>content</p>
        </AgentProvider>,
      );
      await waitFor(() => expect(atTaskEnd).toHaveLength(3));
      expect(atTaskEnd).toEqual([['Collator'], ['Collator', 'maximize'], ['Collator', 'maximize', 'NumberFormat']]);
    } finally {
      Object.defineProperty(Locale.prototype, 'maximize', maximize);
      vi.restoreAllMocks();
    }
  });

  it('creates none once it has unmounted', async () => {
    const view = render(
      <AgentProvider transport={createMockTransport({ speed: 'instant' })}>
        <p>content</p>
      </AgentProvider>,
    );
    view.unmount();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(created).toEqual([]);
  });

  it('loads it in the page, in the task after a resumed build’s replay is requested, where a worker could', async () => {
    useWorkers();
    const saved = JSON.stringify({ projectId: 'p-1', status: 'generating', kind: 'generate', mode: 'build' });
    const createdAtReplay: string[][] = [];
    const transport: AgentTransport = {
      json: () => new Promise(() => {}),
      stream: (request) => {
        createdAtReplay.push([request.path, ...created]);
        return new Promise(() => {});
      },
    };
    const store = createAgentStore({
      client: createAgentClient({ transport }),
      storage: { getItem: () => saved, setItem: () => {}, removeItem: () => {} },
    });
    render(
      <AgentProvider store={store}>
        <p>content</p>
      </AgentProvider>,
    );
    await waitFor(() => expect(created).toEqual(['NumberFormat']));
    expect(createdAtReplay).toEqual([['/projects/p-1/events']]);
    expect(workers).toEqual([]);
    store.destroy();
  });
});

// A stand-in for the browser's dedicated workers: runs the blob's program, with its own `Intl` (the page's is counted),
// when the test lets it answer.
interface StartedWorker {
  received: unknown[];
  terminated: boolean;
  /** Runs the program on what it was sent: it answers. */
  answer(): Promise<void>;
  fail(): void;
}
const workers: StartedWorker[] = [];
const blobs = new Map<string, Blob>();

function useWorkers(options: { throws?: boolean } = {}): void {
  let next = 0;
  vi.stubGlobal(
    'URL',
    Object.assign(class extends URL {}, {
      createObjectURL: (blob: Blob) => {
        const url = `blob:test/${++next}`;
        blobs.set(url, blob);
        return url;
      },
      revokeObjectURL: (url: string) => void blobs.delete(url),
    }),
  );
  vi.stubGlobal(
    'Worker',
    class {
      onmessage: ((message: MessageEvent) => void) | null = null;
      onerror: ((event: Event) => void) | null = null;
      constructor(url: string) {
        if (options.throws) throw new DOMException('Refused by the page’s policy.', 'SecurityError');
        const blob = blobs.get(url);
        const worker: StartedWorker = {
          received: [],
          terminated: false,
          answer: async () => {
            const self: { onmessage?: (message: { data: unknown }) => void } = {};
            const post = (data: unknown) =>
              void Promise.resolve().then(
                () => worker.terminated || this.onmessage?.(new MessageEvent('message', { data })),
              );
            new Function('self', 'postMessage', 'Intl', await blob!.text())(self, post, { NumberFormat });
            for (const data of worker.received) self.onmessage?.({ data });
            await new Promise((resolve) => setTimeout(resolve, 0));
          },
          fail: () => this.onerror?.(new Event('error')),
        };
        workers.push(worker);
        this.terminate = () => void (worker.terminated = true);
        this.postMessage = (data: unknown) => void worker.received.push(data);
      }
      terminate(): void {}
      postMessage(_data: unknown): void {}
    },
  );
}

describe('AgentProvider and its locale-data worker', () => {
  it('lets a worker load the locale data, formats the first number once it has answered, and stops it', async () => {
    useWorkers();
    render(
      <AgentProvider transport={createMockTransport({ speed: 'instant' })} locale="fr">
        <p>content</p>
      </AgentProvider>,
    );
    await waitFor(() => expect(workers).toHaveLength(1));
    expect(workers[0]?.received).toEqual(['fr']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(created).toEqual([]);
    await workers[0]?.answer();
    expect(created).toEqual(['NumberFormat']);
    expect(workers[0]?.terminated).toBe(true);
    expect(blobs.size).toBe(0);
  });

  it('loads it in the page where no worker starts, or where the worker fails', async () => {
    useWorkers({ throws: true });
    const first = render(
      <AgentProvider transport={createMockTransport({ speed: 'instant' })}>
        <p>content</p>
      </AgentProvider>,
    );
    await waitFor(() => expect(created).toEqual(['NumberFormat']));
    expect(workers).toEqual([]);
    first.unmount();
    vi.unstubAllGlobals();
    created.length = 0;

    useWorkers();
    render(
      <AgentProvider transport={createMockTransport({ speed: 'instant' })}>
        <p>content</p>
      </AgentProvider>,
    );
    await waitFor(() => expect(workers).toHaveLength(1));
    workers[0]?.fail();
    expect(workers[0]?.terminated).toBe(true);
    await waitFor(() => expect(created).toEqual(['NumberFormat']));
  });

  it('stops the worker and formats nothing once it has unmounted', async () => {
    useWorkers();
    const view = render(
      <AgentProvider transport={createMockTransport({ speed: 'instant' })}>
        <p>content</p>
      </AgentProvider>,
    );
    await waitFor(() => expect(workers).toHaveLength(1));
    view.unmount();
    expect(workers[0]?.terminated).toBe(true);
    await workers[0]?.answer();
    expect(created).toEqual([]);
  });
});
