/** A tampered saved project in sessionStorage never crashes the embed on reload. */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DeployButton, GeneratePanel, LiveBuildLog, ProjectStatus, RepoPicker } from 'agent-embed';
import { createAgentClient, createAgentStore } from 'agent-embed/core';
import { createMockTransport } from 'agent-embed/mock';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

describe('audit: tampered saved project', () => {
  it('a saved error code "__proto__" does not crash the build log', async () => {
    sessionStorage.setItem(
      'agent-embed:last-project',
      JSON.stringify({
        projectId: 'p1',
        status: 'failed',
        kind: 'generate',
        mode: 'build',
        errorKind: 'upstream',
        errorCode: '__proto__',
        errorMessage: 'x',
      }),
    );
    renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
        <ProjectStatus />
      </>,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByRole('region', { name: 'Build progress' })).toBeInTheDocument();
  });
});

describe('audit: tampered publish records', () => {
  it('records that do not read as this page wrote them are left out, never rendered', async () => {
    const repository = { owner: 'ada', name: 'site' };
    sessionStorage.setItem(
      'agent-embed:last-project',
      JSON.stringify({ projectId: 'p1', status: 'completed', kind: 'generate', mode: 'build' }),
    );
    sessionStorage.setItem(
      'agent-embed:last-project:publish',
      JSON.stringify({
        mutations: {
          'repository-push:p1': { status: 'success', variables: null, data: {} },
          'repository-link:p1': { status: 'success', variables: 'ada/site', data: {} },
        },
        resources: {
          'linked-repository:p1': { status: 'success', data: { repository: null, answer: {} } },
          'deployment:vercel:p1': { status: 'success', data: 'https://evil.example/' },
          'linked-repository:p2': { status: 'success', data: { repository, answer: null } },
        },
      }),
    );
    const transport = createMockTransport({ speed: 'instant', rateLimit: false });
    const store = createAgentStore({ client: createAgentClient({ transport }), storage: sessionStorage });
    expect(Object.keys(store.getState().resources)).toEqual([]);
    expect(Object.keys(store.getState().mutations)).toEqual([]);
    store.destroy();
    transport.api.dispose();
    renderWithMock(
      <>
        <DeployButton provider="vercel" projectId="p1" />
        <RepoPicker projectId="p1" />
      </>,
      { provider: { externalUser: { id: 'ada', name: 'Ada' } } },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByRole('region', { name: 'Publish to the web' })).toBeInTheDocument();
    expect(document.body.textContent).not.toContain('evil.example');
    expect(document.body.textContent).not.toContain('null');
  });
});
