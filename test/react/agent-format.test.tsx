import { Profiler } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAgentFormat } from 'agent-embed';
import type { AgentEvent, AgentTransport } from 'agent-embed/core';
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
    const page = await freshPage();
    page.render(
      <page.AgentProvider transport={page.createMockTransport({ speed: 'instant' })} locale="fr">
        <p>content</p>
      </page.AgentProvider>,
    );
    expect(created).toEqual([]);
    await page.waitFor(() => expect(created).toEqual(['NumberFormat']));
  });

  it('loads it once per page: a later provider creates no formatter of its own', async () => {
    const page = await freshPage();
    const tree = (
      <page.AgentProvider transport={page.createMockTransport({ speed: 'instant' })}>
        <p>content</p>
      </page.AgentProvider>
    );
    const first = page.render(tree);
    await page.waitFor(() => expect(created).toEqual(['NumberFormat']));
    first.unmount();
    page.render(tree);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(created).toEqual(['NumberFormat']);
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
      const page = await freshPage();
      page.render(
        <page.AgentProvider transport={page.createMockTransport({ speed: 'instant' })} locale="de">
          <p>content</p>
        </page.AgentProvider>,
      );
      await page.waitFor(() => expect(atTaskEnd).toHaveLength(3));
      expect(atTaskEnd).toEqual([['Collator'], ['Collator', 'maximize'], ['Collator', 'maximize', 'NumberFormat']]);
    } finally {
      Object.defineProperty(Locale.prototype, 'maximize', maximize);
      vi.restoreAllMocks();
    }
  });

  it('creates none once it has unmounted', async () => {
    const page = await freshPage();
    const view = page.render(
      <page.AgentProvider transport={page.createMockTransport({ speed: 'instant' })}>
        <p>content</p>
      </page.AgentProvider>,
    );
    view.unmount();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(created).toEqual([]);
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

/**
 * The page's locale data is loaded once per page, so each test gets fresh modules (React, Testing Library and
 * agent-embed together): a page where nothing has loaded it yet.
 */
async function freshPage() {
  vi.resetModules();
  const [testing, embed, core, mock] = await Promise.all([
    import('@testing-library/react'),
    import('agent-embed'),
    import('agent-embed/core'),
    import('agent-embed/mock'),
  ]);
  // Shows a number that can wait, as the components do, and whether the format may be used yet.
  function Shown({ value }: { value: number }) {
    const format = embed.useAgentFormat();
    return <p data-ready={String(format.ready)}>{format.ready ? format.number(value) : 'pending'}</p>;
  }
  const page = {
    ...testing,
    ...embed,
    ...core,
    ...mock,
    Shown,
    shown: () => testing.screen.getByText(/pending|\d/),
  };
  return page;
}

type Page = Awaited<ReturnType<typeof freshPage>>;

/**
 * A store resumed on a build that is generating: its stream sends the files `start` gives it, then stays open; `send`
 * sends one more. Rendered in `wrap` (the log by default).
 */
function resumeBuild(page: Page, start: string[], wrap = (log: React.ReactNode) => log) {
  const saved = JSON.stringify({ projectId: 'p-1', status: 'generating', kind: 'generate', mode: 'build' });
  let onEvent: ((event: AgentEvent) => void) | undefined;
  const send = (path: string) => onEvent?.({ type: 'file_created', path, action: 'created' } as AgentEvent);
  const transport: AgentTransport = {
    json: () => new Promise(() => {}),
    stream: async (_request, handlers) => {
      handlers.onOpen?.();
      onEvent = handlers.onEvent;
      for (const path of start) send(path);
      return new Promise(() => {});
    },
  };
  const store = page.createAgentStore({
    client: page.createAgentClient({ transport }),
    storage: { getItem: () => saved, setItem: () => {}, removeItem: () => {} },
  });
  const view = page.render(
    <page.AgentProvider store={store} locale="en">
      {wrap(<page.LiveBuildLog />)}
    </page.AgentProvider>,
  );
  const count = () => view.container.querySelector('.ae-files .ae-label');
  return { store, view, send, count };
}

describe('AgentProvider and its locale-data worker', () => {
  it('lets a worker load the locale data: values that can wait show once it has answered, and it is stopped', async () => {
    useWorkers();
    const page = await freshPage();
    const view = page.render(
      <page.AgentProvider transport={page.createMockTransport({ speed: 'instant' })} locale="fr">
        <page.Shown value={12345} />
      </page.AgentProvider>,
    );
    await page.waitFor(() => expect(workers).toHaveLength(1));
    expect(workers[0]?.received).toEqual(['fr']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Nothing formatted in the page while the worker loads the data: the value waits.
    expect(created).toEqual([]);
    expect(page.shown()).toHaveTextContent('pending');
    await workers[0]?.answer();
    await page.waitFor(() => expect(page.shown().textContent).toBe(new NumberFormat('fr').format(12345)));
    expect(workers[0]?.terminated).toBe(true);
    expect(blobs.size).toBe(0);
    view.unmount();

    // Loaded once per page: the next provider shows its values at once, with no worker.
    page.render(
      <page.AgentProvider transport={page.createMockTransport({ speed: 'instant' })} locale="de">
        <page.Shown value={12345} />
      </page.AgentProvider>,
    );
    expect(page.shown()).toHaveTextContent('12.345');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(workers).toHaveLength(1);
  });

  it('loads it in the page where no worker starts (a policy), then shows the values', async () => {
    useWorkers({ throws: true });
    const page = await freshPage();
    page.render(
      <page.AgentProvider transport={page.createMockTransport({ speed: 'instant' })}>
        <page.Shown value={7} />
      </page.AgentProvider>,
    );
    expect(page.shown()).toHaveTextContent('pending');
    await page.waitFor(() => expect(page.shown()).toHaveTextContent('7'));
    expect(workers).toEqual([]);
    expect(created[0]).toBe('NumberFormat');
  });

  it('loads it in the page where the worker fails, then shows the values', async () => {
    useWorkers();
    const page = await freshPage();
    page.render(
      <page.AgentProvider transport={page.createMockTransport({ speed: 'instant' })}>
        <page.Shown value={7} />
      </page.AgentProvider>,
    );
    await page.waitFor(() => expect(workers).toHaveLength(1));
    workers[0]?.fail();
    expect(workers[0]?.terminated).toBe(true);
    await page.waitFor(() => expect(page.shown()).toHaveTextContent('7'));
  });

  it('stops the worker and formats nothing once it has unmounted', async () => {
    useWorkers();
    const page = await freshPage();
    const view = page.render(
      <page.AgentProvider transport={page.createMockTransport({ speed: 'instant' })}>
        <page.Shown value={7} />
      </page.AgentProvider>,
    );
    await page.waitFor(() => expect(workers).toHaveLength(1));
    view.unmount();
    expect(workers[0]?.terminated).toBe(true);
    await workers[0]?.answer();
    expect(created).toEqual([]);
  });

  it('shows the values that waited in the store’s next publish while a build streams: no commit of their own', async () => {
    useWorkers();
    const page = await freshPage();
    let commits = 0;
    const { store, send, count } = resumeBuild(page, ['src/first.ts'], (log) => (
      <Profiler id="log" onRender={() => void commits++}>
        {log}
      </Profiler>
    ));
    await page.screen.findByText('src/first.ts');
    await workers[0]?.answer();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Answered, but no publish yet: nothing committed for it.
    const before = commits;
    expect(count()?.querySelector('.ae-format-pending')).not.toBeNull();
    page.act(() => send('src/second.ts'));
    await page.waitFor(() => expect(count()).toHaveTextContent('2 new files'));
    expect(count()?.querySelector('.ae-format-pending')).toBeNull();
    expect(commits - before).toBe(1);
    store.destroy();
  });

  it('shows them 500 ms after the worker answers when a streaming build publishes nothing more', async () => {
    useWorkers();
    const page = await freshPage();
    // The build stays open and quiet after its first file: no publish will come.
    const { store, count } = resumeBuild(page, ['src/only.ts']);
    await page.screen.findByText('src/only.ts');
    await workers[0]?.answer();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(count()?.querySelector('.ae-format-pending')).not.toBeNull();
    await page.waitFor(() => expect(count()?.querySelector('.ae-format-pending')).toBeNull(), { timeout: 2000 });
    expect(count()).toHaveTextContent('1 new file');
    store.destroy();
  });

  it('starts one worker for providers that mount while it loads, and shows the values of each once it answers', async () => {
    useWorkers();
    const page = await freshPage();
    const first = page.render(
      <page.AgentProvider transport={page.createMockTransport({ speed: 'instant' })} locale="en">
        <page.Shown value={1000} />
      </page.AgentProvider>,
    );
    const second = page.render(
      <page.AgentProvider transport={page.createMockTransport({ speed: 'instant' })} locale="en">
        <page.Shown value={2000} />
      </page.AgentProvider>,
    );
    const third = page.render(
      <page.AgentProvider transport={page.createMockTransport({ speed: 'instant' })} locale="en">
        <page.Shown value={3000} />
      </page.AgentProvider>,
    );
    await page.waitFor(() => expect(workers).toHaveLength(1));
    // One that leaves does not stop the load the others wait for.
    third.unmount();
    expect(workers[0]?.terminated).toBe(false);
    await workers[0]?.answer();
    await page.waitFor(() => expect(first.container).toHaveTextContent('1,000'));
    expect(second.container).toHaveTextContent('2,000');
    expect(workers).toHaveLength(1);
    expect(workers[0]?.terminated).toBe(true);
  });

  it('stops the page’s load when every provider waiting for it has unmounted, and a later one starts it again', async () => {
    useWorkers();
    const page = await freshPage();
    const tree = () => (
      <page.AgentProvider transport={page.createMockTransport({ speed: 'instant' })}>
        <page.Shown value={7} />
      </page.AgentProvider>
    );
    const first = page.render(tree());
    const second = page.render(tree());
    await page.waitFor(() => expect(workers).toHaveLength(1));
    first.unmount();
    second.unmount();
    expect(workers[0]?.terminated).toBe(true);
    page.render(tree());
    await page.waitFor(() => expect(workers).toHaveLength(2));
    await workers[1]?.answer();
    await page.waitFor(() => expect(page.shown()).toHaveTextContent('7'));
  });

  it('renders a resumed build’s first rows with nothing loaded in the page: its counts show once the worker answers', async () => {
    useWorkers();
    const page = await freshPage();
    const resumed = resumeBuild(
      page,
      Array.from({ length: 1200 }, (_, index) => `src/file-${index + 1}.ts`),
    );
    const files = await page.screen.findByText(/src\/file-1\.ts/);
    expect(files).toBeInTheDocument();
    const count = resumed.count();
    // The count keeps its place, hidden, in plain digits: formatting it now would load the data in this render.
    expect(count?.querySelector('.ae-format-pending')).not.toBeNull();
    expect(created).toEqual([]);
    await workers[0]?.answer();
    await page.waitFor(() => expect(count).toHaveTextContent('1,200 new files'));
    expect(count?.querySelector('.ae-format-pending')).toBeNull();
    resumed.store.destroy();
  });
});
