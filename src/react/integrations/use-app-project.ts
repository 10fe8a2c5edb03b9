'use client';
/**
 * The project that deploy, link and push act on, read from the project view as every other part reads it: the
 * given one, or the one whose app is on screen (AppPreview shows it), so the parts that ship an app never disagree
 * with the parts that show it.
 */
import { useProjectView } from '../generation/use-project-view.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { errorCopy } from '../shared/error-copy.js';

/** The project an integration acts on, and whether a build is changing its app right now. */
export interface AppProject {
  /** `undefined` until there is an app (a first build that has not completed, or none). */
  projectId: string | undefined;
  /** A build (a follow-up, a recovery) is changing the app: shipping waits for it, records stay readable. */
  building: boolean;
  /** Why there is nothing to ship when the project is gone, in the end user's words (then `projectId` is undefined). */
  gone: string | undefined;
}

/** The project deploy, link and push act on: `projectId`, or the current project once it has an app. */
export function useAppProject(projectId?: string): AppProject {
  const view = useProjectView(projectId);
  const errors = useAgentLabels().errors;
  const gone = view.phase === 'gone' && view.error !== undefined ? errorCopy(view.error, errors, 'project') : undefined;
  // The app on screen: a ready project's, or while a follow-up changes it, the one built before (its preview).
  const target =
    gone !== undefined ? undefined : (projectId ?? (view.previewUrl !== undefined ? view.projectId : undefined));
  return { projectId: target, building: target !== undefined && view.building, gone };
}
