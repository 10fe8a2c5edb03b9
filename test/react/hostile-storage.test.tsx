/** A tampered saved project in sessionStorage never crashes the embed on reload. */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GeneratePanel, LiveBuildLog, ProjectStatus } from 'agent-embed';
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
