/**
 * Issue 24: at most one React commit per frame means every commit of the build log comes from a store publish.
 * The file list's row window used to set its measured view as a new object each time it measured, so mounting
 * the list (and every resize while it grew) rendered and committed once more with the same store state.
 */
import { Profiler } from 'react';
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveBuildLog, type AgentStore } from 'agent-embed';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

describe('LiveBuildLog commits', () => {
  it('commits only after the store published: the row window adds no commit of its own', async () => {
    // 'N' for each store notification, 'C' for each commit of the log.
    const sequence: string[] = [];
    const rendered = renderWithMock(
      <Profiler id="log" onRender={() => sequence.push('C')}>
        <LiveBuildLog />
      </Profiler>,
      { mock: { credits: 1000, scenario: { files: 300 } }, store: {} },
    );
    const store: AgentStore = rendered.store!;
    store.subscribe(() => sequence.push('N'));
    const log = rendered.container.querySelector('.ae-build-log')!;
    await store.getState().generate({ prompt: 'A very large enterprise application' });
    await waitFor(() => expect(log).toHaveAttribute('data-state', 'completed'));
    expect(rendered.container.querySelectorAll('.ae-file').length).toBeGreaterThan(0);
    // The mount's commit, then no commit without a notification before it.
    expect(sequence[0]).toBe('C');
    expect(sequence.join('')).not.toMatch(/CC/);
    expect(sequence.filter((entry) => entry === 'C').length).toBeGreaterThan(3);
  });
});
