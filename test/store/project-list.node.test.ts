/** The project-list slice: loading the end user's projects from the proxy and opening one as the current project. */
import { describe, expect, it } from 'vitest';
import {
  AgentApiError,
  createAgentClient,
  createAgentStore,
  resourceSpecs,
  selectResource,
  type AgentTransport,
  type ProjectSummary,
  type TransportRequest,
} from 'agent-embed/core';
import { createMemoryStorage, project, settle } from './fakes.js';

const summary = (projectId: string, projectStatus: string | null): ProjectSummary => ({
  project_id: projectId,
  name: `Project ${projectId}`,
  app_url: `https://${projectId}.apps.example.test`,
  project_status: projectStatus,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-21T10:00:00Z',
});

/** A transport with the proxy's routes: `/projects` answers `list` (or throws it), streams are recorded. */
function proxyTransport(list: ProjectSummary[] | AgentApiError) {
  const requests: TransportRequest[] = [];
  const transport: AgentTransport = {
    async json(request) {
      requests.push(request);
      if (request.path === '/projects') {
        if (list instanceof AgentApiError) throw list;
        return { status: true, projects: list };
      }
      const projectId = request.path.split('/').pop() ?? '';
      return project(projectId, 'ready');
    },
    stream(request) {
      requests.push(request);
      return new Promise<void>(() => {});
    },
  };
  return { transport, requests };
}

function setup(list: ProjectSummary[] | AgentApiError) {
  const { transport, requests } = proxyTransport(list);
  const storage = createMemoryStorage();
  const store = createAgentStore({
    client: createAgentClient({ transport }),
    storage,
    scheduleFlush: (flush) => {
      const handle = setTimeout(flush, 0);
      return () => clearTimeout(handle);
    },
  });
  const state = () => store.getState();
  const loadProjects = () => state().fetchResource(resourceSpecs.projects);
  const projects = () => selectResource(state(), resourceSpecs.projects);
  return { store, requests, storage, state, loadProjects, projects };
}

describe('project list', () => {
  it('loads the projects, newest first as the proxy sends them', async () => {
    const { loadProjects, projects } = setup([summary('p2', 'ready'), summary('p1', 'failed')]);
    expect(projects()).toEqual({ status: 'idle', data: undefined, error: undefined, updatedAt: undefined });
    const loading = loadProjects();
    expect(projects().status).toBe('loading');
    const result = await loading;
    expect(result.ok).toBe(true);
    expect(projects().status).toBe('success');
    expect(projects().data?.map((item) => item.project_id)).toEqual(['p2', 'p1']);
  });

  it('is unavailable, not an error, when the transport has no proxy route (404)', async () => {
    const { loadProjects, projects } = setup(new AgentApiError('not_found', 'Not found.', { status: 404 }));
    await expect(loadProjects()).resolves.toEqual({ ok: true, data: null });
    expect(projects()).toEqual({ status: 'success', data: null, error: undefined, updatedAt: expect.any(Number) });
  });

  it('keeps other failures as an error and never rejects', async () => {
    const { loadProjects, projects } = setup(new AgentApiError('upstream', 'Bad gateway.', { status: 502 }));
    await expect(loadProjects()).resolves.toMatchObject({ ok: false, error: { kind: 'upstream' } });
    expect(projects()).toMatchObject({ status: 'error', error: { message: 'Bad gateway.' } });
  });

  it('opens a project: current, settled, ready for a follow-up, persisted as the last project', async () => {
    const { state, storage, requests, store, loadProjects } = setup([summary('p1', 'ready')]);
    await loadProjects();
    await expect(state().openProject('p1')).resolves.toEqual({ ok: true, data: { projectId: 'p1' } });
    expect(state().currentKey).toBe('p1');
    expect(state().generations.p1).toMatchObject({
      key: 'p1',
      projectId: 'p1',
      kind: 'followUp',
      status: 'completed',
      name: 'Project p1',
      appUrl: 'https://p1.apps.example.test',
    });
    expect(JSON.parse(storage.getItem('agent-embed:last-project') ?? '{}')).toMatchObject({
      projectId: 'p1',
      status: 'completed',
    });
    void state().followUp('p1', { prompt: 'Add a dark mode please' });
    expect(requests.at(-1)).toMatchObject({ method: 'POST', path: '/agent/generate/p1' });
    store.destroy();
  });

  it('opens a project the proxy saw building by following its events from the start, never a POST', async () => {
    const { state, requests, store, loadProjects } = setup([summary('p3', 'generating')]);
    await loadProjects();
    await state().openProject('p3');
    await settle();
    expect(state().generations.p3?.status).toBe('recovering');
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(0);
    expect(requests.at(-1)).toMatchObject({ method: 'GET', path: '/projects/p3/events' });
    store.destroy();
  });

  it('opens an unknown project id as idle and refuses what is not an id', async () => {
    const { state } = setup([]);
    await state().openProject('p9');
    expect(state().generations.p9).toMatchObject({ status: 'idle', projectId: 'p9', name: undefined });
    await expect(state().openProject('../etc')).resolves.toMatchObject({ ok: false, error: { kind: 'validation' } });
  });
});
