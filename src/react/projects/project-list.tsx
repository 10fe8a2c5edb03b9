'use client';
/** The signed-in end user's projects, newest first; opening one makes it the current project. */
import { forwardRef, useMemo } from 'react';
import { useStore } from 'zustand';
import { selectProjectRow, selectUnlistedProjectIds, type ProjectSummary } from '../../core/index.js';
import { OutsideText } from '../shared/outside-text.js';
import { phaseWords } from '../shared/phase-words.js';
import { useAgentContext } from '../provider/agent-context.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { cx } from '../shared/class-names.js';
import type { WithRootProps } from '../shared/root-props.js';
import { ErrorAlert } from '../shared/error-alert.js';
import { Skeleton } from '../shared/skeleton.js';
import { useFreshProjects, type UseProjectsResult } from './use-projects.js';
import { FormattedText } from '../shared/formatted-text.js';

/** Props of `ProjectList`: its own, plus any attribute of its root `section`. */
export type ProjectListProps = WithRootProps<
  {
    /** Called after a project was opened (e.g. to close the sheet it sits in). */
    onOpen?: (projectId: string) => void;
  },
  'section'
>;

const noProjects: readonly ProjectSummary[] = [];

/**
 * Lists the end user's projects from the agency proxy (`GET {basePath}/projects`), loaded when mounted.
 * Opening one shows its status, preview and conversation, ready for a follow-up. `data-state` is the list's
 * status (`loading`, `success`, `unavailable`, `error`).
 */
export const ProjectList = forwardRef<HTMLElement, ProjectListProps>(function ProjectList(
  { onOpen, className, ...rest },
  ref,
) {
  const text = useAgentLabels().projectList;
  const projects = useFreshProjects();
  const { data } = projects;
  const state = data === null ? 'unavailable' : projects.status;
  const rows = useListedProjects(data);

  return (
    <section
      ref={ref}
      className={cx('ae-project-list', className)}
      aria-label={text.regionLabel}
      data-state={state}
      {...rest}
    >
      <h2 className="ae-title">{text.heading}</h2>
      {state === 'error' ? (
        <ErrorAlert error={projects.error} title={text.errorTitle} onRetry={() => void projects.refresh()} />
      ) : data === null ? (
        <p className="ae-muted">{text.unavailable}</p>
      ) : data === undefined ? (
        <Skeleton rows={3} label={text.loading} />
      ) : rows.length === 0 ? (
        <p className="ae-muted">{text.empty}</p>
      ) : (
        <ProjectItems projects={projects} rows={rows} onOpen={onOpen} />
      )}
    </section>
  );
});

/** A project of the list to show: its id, and the list's summary of it, if the list named it. */
export interface ListedProject {
  projectId: string;
  summary: ProjectSummary | undefined;
}

/**
 * The projects to list: the ones this store built since the list was loaded first (the list is a moment's answer),
 * then the list's, at most `limit` in all. None where the proxy cannot list projects (`null`): every place that lists
 * them then says so, rather than offering only this store's builds.
 */
export function useListedProjects(list: readonly ProjectSummary[] | null | undefined, limit?: number): ListedProject[] {
  const { store } = useAgentContext();
  const items = list ?? noProjects;
  // Joined, so the selector's answer is a string that changes only when the projects do, not with every event.
  const unlisted = useStore(store, (state) => selectUnlistedProjectIds(state, items).join('\n'));
  return useMemo(() => {
    if (list === null) return [];
    const built = unlisted === '' ? [] : unlisted.split('\n').map((projectId) => ({ projectId, summary: undefined }));
    const listed = items.map((summary) => ({ projectId: summary.project_id, summary }));
    return [...built, ...listed].slice(0, limit);
  }, [unlisted, list, items, limit]);
}

/**
 * Projects as buttons that open them, each with its status and last update. A row reads what the store knows of its
 * project (its build, its status poll) over the list's answer, so it says what the project's own view says.
 */
export function ProjectItems({
  projects,
  rows,
  onOpen,
}: {
  projects: UseProjectsResult;
  rows: readonly ListedProject[];
  onOpen?: ((projectId: string) => void) | undefined;
}) {
  return (
    <ul className="ae-project-items">
      {rows.map(({ projectId, summary }) => (
        <li key={projectId}>
          <ProjectItem
            projectId={projectId}
            summary={summary}
            current={projectId === projects.currentProjectId}
            onOpen={() => {
              void projects.open(projectId).then((result) => {
                if (result.ok) onOpen?.(projectId);
              });
            }}
          />
        </li>
      ))}
    </ul>
  );
}

function ProjectItem({
  projectId,
  summary,
  current,
  onOpen,
}: {
  projectId: string;
  summary: ProjectSummary | undefined;
  current: boolean;
  onOpen: () => void;
}) {
  const { store } = useAgentContext();
  const labels = useAgentLabels();
  const text = labels.projectList;
  // Plain values, so a row renders again only when what it shows changes.
  const name = useStore(store, (state) => selectProjectRow(state, projectId, summary).name);
  const phase = useStore(store, (state) => selectProjectRow(state, projectId, summary).phase);
  const kind = useStore(store, (state) => selectProjectRow(state, projectId, summary).kind);
  const updatedAt = useStore(store, (state) => selectProjectRow(state, projectId, summary).updatedAt);
  return (
    <button
      type="button"
      className="ae-project-item"
      aria-current={current ? 'true' : undefined}
      data-phase={phase}
      onClick={onOpen}
    >
      <span className="ae-project-item-name">
        {name === undefined ? text.untitled : <OutsideText>{name}</OutsideText>}
      </span>
      {(phase !== undefined || updatedAt !== undefined) && (
        <span className="ae-project-item-meta">
          <FormattedText>
            {(f) => {
              // Both, joined as the labels join them; either alone, without a separator beside nothing.
              const status = phase === undefined ? '' : phaseWords({ kind, phase }, labels);
              const time = updatedAt === undefined ? '' : f.dateTime(updatedAt);
              return status === '' || time === '' ? status || time : text.updated(status, time);
            }}
          </FormattedText>
        </span>
      )}
    </button>
  );
}
