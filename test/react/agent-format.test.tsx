import { render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

  it('loads the locale data before a resumed build’s replay is requested', async () => {
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
    await waitFor(() => expect(createdAtReplay).toHaveLength(1));
    expect(createdAtReplay[0]).toEqual(['/projects/p-1/events', 'NumberFormat']);
    store.destroy();
  });
});
