/**
 * The project-list slice: the signed-in end user's projects from the agency proxy (newest first), and
 * opening one as the current project. A transport without the proxy's route answers 404: `unavailable`.
 */
import { AgentApiError } from '../wire/errors.js';
import type { ProjectSummary } from '../wire/proxy-resources.js';
import { agentIdPattern } from '../wire/routes.js';
import { createSliceRunner, type IntegrationResult, type SliceContext } from './slice-context.js';

/** Where the project list is; `unavailable` when the transport has no proxy in front of the API. */
export type ProjectListStatus = 'idle' | 'loading' | 'ready' | 'unavailable' | 'error';

/** The end user's projects, as last loaded. */
export interface ProjectListState {
  status: ProjectListStatus;
  items: ProjectSummary[];
  error: AgentApiError | undefined;
}

/** State and actions of the project-list slice. */
export interface ProjectListSlice {
  projectList: ProjectListState;
  /** Loads the end user's projects (one request however many callers). */
  loadProjects(): Promise<IntegrationResult<ProjectSummary[]>>;
  /**
   * Makes a project the current one (settled and ready for a follow-up, or followed live when the proxy saw
   * it building), refreshes its status poll and keeps it as the last project.
   */
  openProject(projectId: string): Promise<IntegrationResult<{ projectId: string }>>;
}

/** Creates the project-list slice; `open` is the generations slice's. */
export function createProjectListSlice(
  context: SliceContext<ProjectListSlice>,
  open: (projectId: string, summary: ProjectSummary | undefined) => void,
): ProjectListSlice {
  const { client, get, set } = context;
  const run = createSliceRunner(context.signal);
  const patch = (next: Partial<ProjectListState>) => set({ projectList: { ...get().projectList, ...next } });
  return {
    projectList: { status: 'idle', items: [], error: undefined },
    loadProjects: () =>
      run({
        key: 'load:projects',
        record: 'projects',
        call: (signal) => client.projects.list({ signal }),
        start: () => patch({ status: 'loading' }),
        succeed: (items) => patch({ status: 'ready', items, error: undefined }),
        fail: (error) =>
          error.status === 404
            ? patch({ status: 'unavailable', items: [], error: undefined })
            : patch({ status: 'error', error }),
      }),
    openProject(projectId) {
      if (context.signal.aborted)
        return Promise.resolve({ ok: false, error: new AgentApiError('aborted', 'The store was destroyed.') });
      if (!agentIdPattern.test(projectId))
        return Promise.resolve({ ok: false, error: new AgentApiError('validation', 'That is not a project id.') });
      open(
        projectId,
        get().projectList.items.find((item) => item.project_id === projectId),
      );
      context.log('action', `Open project ${projectId}`);
      return Promise.resolve({ ok: true, data: { projectId } });
    },
  };
}
