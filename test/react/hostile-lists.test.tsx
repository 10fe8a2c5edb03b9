/** A project list answered with odd entries (a proxy other than the library's may send anything): no crash. */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectList } from 'agent-embed';
import type { AgentTransport } from 'agent-embed/core';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const at = '2024-05-01T10:00:00.000Z';

function answering(path: string, body: unknown) {
  return (inner: AgentTransport): AgentTransport => ({
    json: (request) =>
      request.method === 'GET' && request.path === path ? Promise.resolve(body) : inner.json(request),
    stream: (request, handlers) => inner.stream(request, handlers),
  });
}

const entry = (overrides: Record<string, unknown>) => ({
  project_id: 'p1',
  name: 'Shop',
  app_url: null,
  project_status: 'ready',
  created_at: at,
  updated_at: at,
  ...overrides,
});

describe('audit: hostile project list answers', () => {
  const cases: [string, unknown[]][] = [
    ['a name that is an object', [entry({ name: { html: '<b>x</b>' } })]],
    ['an entry that is null', [null]],
    ['a project id "constructor"', [entry({ project_id: 'constructor' })]],
    ['a project id "__proto__"', [entry({ project_id: '__proto__' })]],
  ];
  for (const [label, projects] of cases) {
    it(`${label}: the list renders (no crash)`, async () => {
      renderWithMock(<ProjectList />, {
        provider: { externalUser: ada },
        wrapTransport: answering('/projects', { status: true, projects }),
      });
      const list = await screen.findByRole('region', { name: 'Your projects' });
      await waitFor(() => expect(list.getAttribute('data-state')).not.toBe('loading'));
      expect(screen.getByRole('region', { name: 'Your projects' })).toBeInTheDocument();
    });
  }
});

describe('a project list entry with a blank or null field', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['name ""', { name: '' }],
    ['name "   "', { name: '   ' }],
    ['name null', { name: null }],
    ['project_status null', { project_status: null }],
    ['updated_at ""', { updated_at: '' }],
    ['updated_at "not a date"', { updated_at: 'not a date' }],
  ];
  for (const [label, overrides] of cases) {
    it(`${label}: the project is named ("Untitled app" at least), nothing reads null or Invalid Date`, async () => {
      renderWithMock(<ProjectList />, {
        provider: { externalUser: ada },
        wrapTransport: answering('/projects', { status: true, projects: [entry(overrides)] }),
      });
      const list = await screen.findByRole('region', { name: 'Your projects' });
      await waitFor(() => expect(list.getAttribute('data-state')).not.toBe('loading'));
      expect(list.textContent).not.toMatch(/null|undefined|NaN|Invalid Date/);
      const names = list.querySelectorAll('.ae-project-item-name');
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect((name.textContent ?? '').trim()).not.toBe('');
    });
  }
});
