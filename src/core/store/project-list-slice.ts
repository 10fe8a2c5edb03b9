/**
 * Opening one of the end user's projects (listed by the `projects` resource) as the current project.
 */
import { AgentApiError } from '../wire/errors.js';
import type { ProjectSummary } from '../wire/proxy-resources.js';
import { agentIdPattern } from '../wire/routes.js';
import { resourceSpecs, selectResource, type ResourcesSlice } from './resources.js';
import type { IntegrationResult, SliceContext } from './slice-context.js';

/** The action of the project-list slice. */
export interface ProjectListSlice {
  /**
   * Makes a project the current one (settled and ready for a follow-up, or followed live when the proxy saw
   * it building), refreshes its status poll and keeps it as the last project.
   */
  openProject(projectId: string): Promise<IntegrationResult<{ projectId: string }>>;
}

/** Creates the project-list slice; `open` is the generations slice's. */
export function createProjectListSlice(
  context: SliceContext<ResourcesSlice>,
  open: (projectId: string, summary: ProjectSummary | undefined) => void,
): ProjectListSlice {
  return {
    openProject(projectId) {
      if (context.signal.aborted)
        return Promise.resolve({ ok: false, error: new AgentApiError('aborted', 'The store was destroyed.') });
      if (!agentIdPattern.test(projectId))
        return Promise.resolve({ ok: false, error: new AgentApiError('validation', 'That is not a project id.') });
      open(
        projectId,
        selectResource(context.get(), resourceSpecs.projects).data?.find((item) => item.project_id === projectId),
      );
      context.log('action', `Open project ${projectId}`);
      return Promise.resolve({ ok: true, data: { projectId } });
    },
  };
}
