import { fireEvent, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AgentProvider,
  GeneratePanel,
  LiveBuildLog,
  ProjectStatus,
  appearanceStyle,
  defaultLabels,
  previewSandbox,
  safeHttpUrl,
  useAgentClient,
  useAgentFormat,
  useAgentLabels,
  useAgentStore,
  useGeneration,
} from 'agent-embed';
import { type AgentApiError, createAgentClient, createAgentStore } from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { de } from 'agent-embed/locales/de';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

describe('AgentProvider', () => {
  it('renders a themed root: appearance variables as custom properties, colour scheme and locale', () => {
    const { container } = renderWithMock(<p>inside</p>, {
      provider: {
        appearance: { colorPrimary: '#0a7', borderRadius: 12, fontFamily: 'Inter, sans-serif', spacingUnit: '0.3rem' },
        colorScheme: 'dark',
        locale: 'de-DE',
        locales: { de },
        className: 'agency-embed',
      },
    });
    const root = container.querySelector('[data-agent-embed]') as HTMLElement;
    expect(root).toHaveAttribute('data-color-scheme', 'dark');
    expect(root).toHaveAttribute('lang', 'de-DE');
    expect(root).toHaveClass('agency-embed');
    expect(root.style.getPropertyValue('--agent-embed-color-primary')).toBe('#0a7');
    expect(root.style.getPropertyValue('--agent-embed-border-radius')).toBe('12px');
    expect(root.style.getPropertyValue('--agent-embed-font-family')).toBe('Inter, sans-serif');
    expect(root.style.getPropertyValue('--agent-embed-spacing-unit')).toBe('0.3rem');
    expect(within(root).getByText('inside')).toBeInTheDocument();
  });

  it('defaults to colorScheme auto and no inline variables', () => {
    const { container } = renderWithMock(null);
    const root = container.querySelector('[data-agent-embed]') as HTMLElement;
    expect(root).toHaveAttribute('data-color-scheme', 'auto');
    expect(root.getAttribute('style') ?? '').toBe('');
    expect(appearanceStyle({ colorText: '#111', fontSize: 14 })).toEqual({
      '--agent-embed-color-text': '#111',
      '--agent-embed-font-size': '14px',
    });
  });

  it('overrides labels per component and keeps the defaults for the rest', () => {
    renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
      </>,
      {
        provider: {
          labels: {
            generatePanel: { submit: 'Bauen', promptLabel: 'Beschreibung' },
            liveBuildLog: { idle: 'Noch nichts' },
          },
        },
      },
    );
    expect(screen.getByRole('button', { name: 'Bauen' })).toBeInTheDocument();
    expect(screen.getByLabelText('Beschreibung')).toBeInTheDocument();
    expect(screen.getByText('Noch nichts')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: defaultLabels.generatePanel.modeBuild })).toBeInTheDocument();
  });

  it('formats numbers and dates with the locale', async () => {
    const { result } = renderHook(() => useAgentFormat(), {
      wrapper: ({ children }) => (
        <AgentProvider transport={createMockTransport({ speed: 'instant' })} locale="de-DE">
          {children}
        </AgentProvider>
      ),
    });
    expect(result.current.number(12345)).toBe('12.345');
    expect(result.current.percent(40)).toMatch(/^40\s?%$/);
    expect(result.current.dateTime(Date.UTC(2025, 3, 1, 12, 0, 0))).toContain('2025');
  });

  it('accepts a baseUrl, a client or a prebuilt store', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            status: true,
            project_id: 'p1',
            app_url: 'https://p1.example.test',
            project_status: 'ready',
            name: 'One',
          }),
          { headers: { 'content-type': 'application/json' } },
        ),
    );
    vi.stubGlobal('fetch', fetch);
    try {
      render(
        <AgentProvider baseUrl="/api/agent">
          <ProjectStatus projectId="p1" />
        </AgentProvider>,
      );
      await screen.findByText('One');
      expect(fetch).toHaveBeenCalledWith(
        '/api/agent/agent/project/p1',
        expect.objectContaining({ method: 'GET', credentials: 'same-origin' }),
      );
    } finally {
      vi.unstubAllGlobals();
    }
    cleanupRendered();

    const client = createAgentClient({ transport: createMockTransport({ speed: 'instant' }) });
    const fromClient = renderHook(() => useAgentClient(), {
      wrapper: ({ children }) => <AgentProvider client={client}>{children}</AgentProvider>,
    });
    expect(fromClient.result.current).toBe(client);

    const store = createAgentStore({ client, storage: null });
    const fromStore = renderHook(() => useAgentStore((state) => state.generate), {
      wrapper: ({ children }) => <AgentProvider store={store}>{children}</AgentProvider>,
    });
    expect(fromStore.result.current).toBe(store.getState().generate);
  });

  it('creates its store once, however often it re-renders', () => {
    const transport = createMockTransport({ speed: 'instant' });
    const seen = new Set<unknown>();
    function Probe() {
      seen.add(useAgentStore((state) => state.generate));
      return null;
    }
    const { rerender } = render(
      <AgentProvider transport={transport} colorScheme="light">
        <Probe />
      </AgentProvider>,
    );
    rerender(
      <AgentProvider transport={transport} colorScheme="dark">
        <Probe />
      </AgentProvider>,
    );
    expect(seen.size).toBe(1);
  });

  it('calls onError once per new error', async () => {
    const onError = vi.fn<(error: AgentApiError) => void>();
    const { user, transport } = renderWithMock(<GeneratePanel />, { provider: { onError } });
    transport.api.admin.expireToken(transport.api.token);
    await user.type(screen.getByLabelText('Describe the app you want'), 'A quiz app for a classroom');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await screen.findByRole('alert');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toMatchObject({ kind: 'token_expired', message: 'API token has expired.' });
  });

  it('hooks explain themselves outside a provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useAgentLabels())).toThrow('must be used inside <AgentProvider>');
    vi.restoreAllMocks();
  });

  it('useGeneration exposes the current generation and its actions', async () => {
    const transport = createMockTransport({ speed: 'instant', rateLimit: false });
    const { result } = renderHook(() => useGeneration(), {
      wrapper: ({ children }) => <AgentProvider transport={transport}>{children}</AgentProvider>,
    });
    expect(result.current.status).toBe('idle');
    const outcome = await result.current.generate({ prompt: 'A markdown notes app' });
    await waitFor(() => expect(result.current.status).toBe('completed'));
    expect(result.current.generation?.projectId).toBe(outcome.projectId);
    result.current.reset();
    await waitFor(() => expect(result.current.status).toBe('idle'));
  });
});

describe('LiveBuildLog at thousands of files', () => {
  it('keeps DOM rows bounded (windowed) while listing every file', async () => {
    const { store, container } = renderWithMock(<LiveBuildLog />, {
      mock: { credits: 10_000, scenario: { files: 4000 } },
      store: {},
    });
    await store!.getState().generate({ prompt: 'A very large enterprise application' });
    const log = screen.getByRole('region', { name: 'Build progress' });
    await waitFor(() => expect(log).toHaveAttribute('data-state', 'completed'));
    expect(within(log).getByText('4,000 new files')).toBeInTheDocument();
    const rows = container.querySelectorAll('.ae-file');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(40);
    expect(rows[0]).toHaveAttribute('aria-setsize', '4000');
    expect(rows[0]).toHaveAttribute('aria-posinset', '1');
    // The live region still says one thing.
    expect(within(log).getByRole('log')).toHaveTextContent(/^Your app is ready\.$/);

    // Scrolled to row 2,001, the window follows: the rows around it, and still a bounded number.
    const list = screen.getByRole('region', { name: 'Generated files' });
    list.scrollTop = 2000 * 32;
    fireEvent.scroll(list);
    await waitFor(() => expect(container.querySelector('.ae-file')).toHaveAttribute('aria-posinset', '1997'));
    const scrolled = [...container.querySelectorAll('.ae-file')];
    expect(scrolled.length).toBeLessThanOrEqual(40);
    expect(scrolled.map((row) => row.getAttribute('aria-posinset'))).toContain('2001');
    expect(scrolled.at(-1)).toHaveStyle({
      transform: `translateY(${(Number(scrolled.at(-1)?.getAttribute('aria-posinset')) - 1) * 32}px)`,
    });
  });
});

describe('LiveBuildLog at hundreds of agent steps', () => {
  it('shows the newest 10 steps, oldest first, and says how many earlier ones it leaves out', async () => {
    const script = () =>
      Array.from({ length: 120 }, (_, index) => ({
        type: 'tool' as const,
        tool: `step_${index + 1}`,
        message: `Step ${index + 1}`,
        status: 'completed',
      }));
    const { store, container } = renderWithMock(<LiveBuildLog />, { mock: { scenario: { script } }, store: {} });
    await store!.getState().generate({ prompt: 'An app built in many small steps' });
    const log = screen.getByRole('region', { name: 'Build progress' });
    await waitFor(() => expect(log).toHaveAttribute('data-state', 'completed'));
    const steps = [...container.querySelectorAll('.ae-tool-message')].map((step) => step.textContent);
    expect(steps).toEqual(Array.from({ length: 10 }, (_, index) => `Step ${111 + index}`));
    expect(within(log).getByText('110 earlier steps not shown')).toBeInTheDocument();
  });
});

describe('URL and sandbox rules', () => {
  it('only absolute http(s) URLs pass', () => {
    expect(safeHttpUrl('https://app.example.test/x')).toBe('https://app.example.test/x');
    expect(safeHttpUrl('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000/');
    for (const value of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      '//evil.example',
      '/relative',
      'ftp://x',
      '',
      undefined,
      42,
    ]) {
      expect(safeHttpUrl(value)).toBeUndefined();
    }
  });

  it('drops allow-same-origin for an app on the page’s own origin', () => {
    expect(previewSandbox('https://apps.example.test/a', 'https://agency.example.test')).toContain('allow-same-origin');
    expect(previewSandbox('https://agency.example.test/apps/a', 'https://agency.example.test')).toBe(
      'allow-scripts allow-forms allow-popups',
    );
  });
});

describe('styles.css', () => {
  // The file the build ships as agent-embed/styles.css.
  const css = readFileSync(resolve(process.cwd(), 'src/react/styles.css'), 'utf8');

  it('is one cascade layer, every selector scoped under [data-agent-embed], nothing global', () => {
    const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, '');
    expect(withoutComments.trim().startsWith('@layer agent-embed {')).toBe(true);
    expect(withoutComments).not.toMatch(/:root|(^|[\s,}])(html|body)[\s,{.:[]/m);
    const selectors = [...withoutComments.matchAll(/([^{};]+)\{/g)]
      .map((match) => match[1]!.trim())
      .filter((selector) => !selector.startsWith('@') && !/^(to|from|\d+%)$/.test(selector));
    expect(selectors.length).toBeGreaterThan(20);
    for (const group of selectors) {
      for (const selector of group.split(/,(?![^(]*\))/)) expect(selector.trim()).toMatch(/^\[data-agent-embed\]/);
    }
  });

  it('has light and dark palettes, auto via prefers-color-scheme, and respects reduced motion', () => {
    expect(css).toContain("[data-agent-embed][data-color-scheme='dark']");
    expect(css).toMatch(
      /@media \(prefers-color-scheme: dark\)\s*\{\s*\[data-agent-embed\]\[data-color-scheme='auto'\]/,
    );
    expect(css).toContain('@media (prefers-reduced-motion: reduce)');
    for (const name of [
      'color-primary',
      'color-background',
      'color-text',
      'color-muted',
      'color-danger',
      'color-success',
      'border-radius',
      'font-family',
      'font-size',
      'spacing-unit',
    ]) {
      expect(css).toContain(`var(--agent-embed-${name},`);
    }
  });
});
