'use client';
/** The signed-in end user's projects, newest first; opening one makes it the current project. */
import { forwardRef } from 'react';
import type { ProjectSummary } from '../../core/index.js';
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
      ) : data.length === 0 ? (
        <p className="ae-muted">{text.empty}</p>
      ) : (
        <ProjectItems projects={projects} items={data} onOpen={onOpen} />
      )}
    </section>
  );
});

/** Projects as buttons that open them, each with its status and last update. */
export function ProjectItems({
  projects,
  items,
  onOpen,
}: {
  projects: UseProjectsResult;
  items: readonly ProjectSummary[];
  onOpen?: ((projectId: string) => void) | undefined;
}) {
  const labels = useAgentLabels();
  const text = labels.projectList;
  const statusName = (project: ProjectSummary) =>
    project.project_status === null
      ? ''
      : (labels.projectStatus.projectStatuses[project.project_status] ?? labels.phase.generating);
  return (
    <ul className="ae-project-items">
      {items.map((project) => {
        const updated = Date.parse(project.updated_at);
        return (
          <li key={project.project_id}>
            <button
              type="button"
              className="ae-project-item"
              aria-current={project.project_id === projects.currentProjectId ? 'true' : undefined}
              onClick={() => {
                void projects.open(project.project_id).then((result) => {
                  if (result.ok) onOpen?.(project.project_id);
                });
              }}
            >
              <span className="ae-project-item-name">{project.name ?? text.untitled}</span>
              <span className="ae-project-item-meta">
                <FormattedText>
                  {(f) => text.updated(statusName(project), Number.isFinite(updated) ? f.dateTime(updated) : '')}
                </FormattedText>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
