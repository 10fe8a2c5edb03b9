/**
 * The project list as the screen shows it. The list is the proxy's answer of a moment; the store knows more about the
 * projects it builds or watches (their generation, their status poll). A row reads that through the project's own view,
 * so a row and the rest of the screen never tell two stories about one project.
 */
import type { ProjectSummary } from '../wire/proxy-resources.js';
import { timestampOf, type Project } from '../wire/resources.js';
import type { GenerationKind } from '../wire/generation-reducer.js';
import { phaseOfProjectStatus, selectProjectView, type ProjectPhase, type ProjectViewSource } from './project-view.js';

/** One project of the list. */
export interface ProjectRow {
  projectId: string;
  name: string | undefined;
  /** `undefined` when neither the list nor the store says where the project stands. */
  phase: ProjectPhase | undefined;
  /** What this store's latest generation of the project was (a failed change leaves the app built before). */
  kind: GenerationKind | undefined;
  /** When the project last changed, as the list said, or when this store started its build. */
  updatedAt: number | undefined;
}

/** A project's row: the list's summary (if it has one), under what the store knows of the project now. */
export function selectProjectRow(state: ProjectViewSource, projectId: string, summary?: ProjectSummary): ProjectRow {
  const listedPhase = phaseOfProjectStatus(summary?.project_status);
  const updated = timestampOf(summary?.updated_at);
  const known = state.generations[projectId] !== undefined || state.projects[projectId]?.project !== undefined;
  if (!known)
    return { projectId, name: summary?.name ?? undefined, phase: listedPhase, kind: undefined, updatedAt: updated };
  const view = selectProjectView(state, projectId);
  return {
    projectId,
    name: view.name ?? summary?.name ?? undefined,
    phase: view.phase === 'idle' ? listedPhase : view.phase,
    kind: view.phase === 'idle' ? undefined : view.kind,
    updatedAt: updated ?? view.generation?.startedAt,
  };
}

/**
 * The projects this store builds or built that the list does not name yet (it was loaded before), newest first; not one
 * that is gone (the server does not know it: offering it again would only lead back to "not found").
 */
export function selectUnlistedProjectIds(state: ProjectViewSource, listed: readonly ProjectSummary[]): string[] {
  const names = new Set(listed.map((summary) => summary.project_id));
  return Object.values(state.generations)
    .filter(
      (generation) =>
        generation.projectId === generation.key &&
        !names.has(generation.key) &&
        selectProjectView(state, generation.key).phase !== 'gone',
    )
    .sort((a, b) => b.startedAt - a.startedAt)
    .map((generation) => generation.key);
}

const filled = (value: unknown, before: string | null) => (typeof value === 'string' && value !== '' ? value : before);

/**
 * The project list with a project's row as its status answer tells it (name, status, app address: one cache for one
 * project's summary), or the same list when the answer changes nothing there (or the list does not have the project).
 */
export function withProjectStatus(list: ProjectSummary[], projectId: string, project: Project): ProjectSummary[] {
  const row = list.find((item) => item.project_id === projectId);
  if (row === undefined) return list;
  const told = {
    ...row,
    name: filled(project.name, row.name),
    project_status: filled(project.project_status, row.project_status),
    app_url: filled(project.app_url, row.app_url),
  };
  if (told.name === row.name && told.project_status === row.project_status && told.app_url === row.app_url) return list;
  return list.map((item) => (item === row ? told : item));
}
