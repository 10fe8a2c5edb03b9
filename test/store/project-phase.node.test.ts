/**
 * A project's phase is read from its status one way, wherever it shows: the project list's row and the project's view
 * (ProjectStatus, the builder) agree on a status the spec does not name (an open string: a project still in the works,
 * as the poller reads it), on the statuses it names, and on none at all.
 */
import { describe, expect, it } from 'vitest';
import { selectProjectRow, selectProjectView, type ProjectSummary } from 'agent-embed/core';

const at = '2026-12-06T10:00:00.000Z';

function polled(projectStatus: string | null) {
  const project = {
    status: true as const,
    project_id: 'p1',
    app_url: null,
    project_status: projectStatus,
    name: 'Shop',
  };
  const state = {
    generations: {},
    currentKey: undefined,
    projects: { p1: { status: 'polling' as const, project, error: undefined, updatedAt: 1 } },
  } as unknown as Parameters<typeof selectProjectView>[0];
  const summary: ProjectSummary = {
    project_id: 'p1',
    name: 'Shop',
    app_url: null,
    project_status: projectStatus,
    created_at: at,
    updated_at: at,
  };
  return { view: selectProjectView(state, 'p1'), row: selectProjectRow(state, 'p1', summary) };
}

describe("a project's phase from its status", () => {
  it.each([
    ['queued', 'generating'],
    ['deploying', 'generating'],
    ['ready', 'ready'],
    ['failed', 'failed'],
    ['provisioning', 'provisioning'],
  ])('status %s: the view and the list row both say %s', (status, phase) => {
    const { view, row } = polled(status);
    expect(view.phase).toBe(phase);
    expect(row.phase).toBe(phase);
  });

  it('no status at all: neither claims one', () => {
    const { view, row } = polled(null);
    expect(view.phase).toBe('idle');
    expect(row.phase).toBeUndefined();
  });
});
