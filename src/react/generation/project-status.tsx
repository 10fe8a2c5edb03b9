'use client';
/** A project's name, status, app address and last update, kept fresh by the shared poller. */
import { safeHttpUrl } from '../shared/safe-url.js';
import { useAgentFormat } from '../provider/use-agent-format.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { useGeneration } from './use-generation.js';
import { useProject } from './use-project.js';
import { cx } from '../shared/class-names.js';

/** Props of `ProjectStatus`. */
export interface ProjectStatusProps {
  /** The project to show; the provider's current generation's project by default. */
  projectId?: string;
  className?: string;
}

/**
 * Shows a project's status. `data-state` is the poller's state (`idle` without a project, then `loading`,
 * `polling`, `paused`, `settled`, `error` or `stopped`); `data-project-status` is the project's own status.
 */
export function ProjectStatus({ projectId, className }: ProjectStatusProps) {
  const text = useAgentLabels().projectStatus;
  const format = useAgentFormat();
  const { generation } = useGeneration(projectId);
  const id = projectId ?? generation?.projectId;
  const snapshot = useProject(id);
  const project = snapshot?.project;
  const appUrl = safeHttpUrl(project?.app_url);
  const projectStatus = project?.project_status;

  return (
    <section
      className={cx('ae-project-status', className)}
      data-state={id === undefined ? 'idle' : (snapshot?.status ?? 'loading')}
      data-project-status={projectStatus}
      aria-label={text.regionLabel}
    >
      <h2 className="ae-title">{text.heading}</h2>
      {id === undefined ? (
        <p className="ae-muted">{text.noProject}</p>
      ) : project === undefined ? (
        snapshot?.error === undefined && <p className="ae-muted">{text.loading}</p>
      ) : (
        <dl className="ae-details">
          <div>
            <dt>{text.nameLabel}</dt>
            <dd>{project.name}</dd>
          </div>
          <div>
            <dt>{text.statusLabel}</dt>
            <dd>
              <span className="ae-badge" data-state={projectStatus}>
                {projectStatus === undefined ? '' : (text.projectStatuses[projectStatus] ?? projectStatus)}
              </span>
            </dd>
          </div>
          <div>
            <dt>{text.appLabel}</dt>
            <dd>
              {appUrl !== undefined ? (
                <a href={appUrl} target="_blank" rel="noopener noreferrer">
                  {text.openApp}
                </a>
              ) : (
                <span className="ae-muted">{text.unsafeUrl}</span>
              )}
            </dd>
          </div>
          <div>
            <dt>{text.updatedLabel}</dt>
            <dd>
              {snapshot?.updatedAt === undefined ? (
                text.never
              ) : (
                <time dateTime={new Date(snapshot.updatedAt).toISOString()}>{format.dateTime(snapshot.updatedAt)}</time>
              )}
            </dd>
          </div>
        </dl>
      )}
      {snapshot?.status === 'paused' && <p className="ae-hint">{text.paused}</p>}
      {snapshot?.error !== undefined && (
        <p className="ae-field-error">
          {text.errorPrefix} {snapshot.error.message}
        </p>
      )}
    </section>
  );
}
