'use client';
/** A project's name, status, app address and last update, kept fresh by the shared poller. */
import { forwardRef } from 'react';
import { OutsideText } from '../shared/outside-text.js';
import { ExternalLink } from '../shared/external-link.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { phaseWords } from '../shared/phase-words.js';
import { useProjectView } from './use-project-view.js';
import { cx } from '../shared/class-names.js';
import type { WithRootProps } from '../shared/root-props.js';
import { FormattedText } from '../shared/formatted-text.js';
import { errorCopy } from '../shared/error-copy.js';
import { outcomeSlotKey, slotRank, useFailureSlot } from '../shared/error-slots.js';
import { useAgentFormat } from '../provider/use-agent-format.js';

/** Props of `ProjectStatus`: its own, plus any attribute of its root `section`. */
export type ProjectStatusProps = WithRootProps<
  {
    /** The project to show; the provider's current generation's project by default. */
    projectId?: string;
  },
  'section'
>;

/**
 * Shows a project's status. `data-state` is the poller's state (`idle` without a project, then `loading`,
 * `polling`, `paused`, `settled`, `error` or `stopped`); `data-project-status` is the project's own status.
 */
export const ProjectStatus = forwardRef<HTMLElement, ProjectStatusProps>(function ProjectStatus(
  { projectId, className, ...rest },
  ref,
) {
  const labels = useAgentLabels();
  const format = useAgentFormat();
  const text = labels.projectStatus;
  const view = useProjectView(projectId, { watch: true });
  const { snapshot, phase } = view;
  const updatedAt = snapshot?.updatedAt;
  // A project that is gone is told with its next step by the build log when one is on screen: the badge says it here.
  const toldHere = useFailureSlot(outcomeSlotKey(view), slotRank.mention);
  const id = view.projectId;

  return (
    <section
      ref={ref}
      className={cx('ae-project-status', className)}
      data-state={id === undefined ? 'idle' : (snapshot?.status ?? 'loading')}
      data-phase={phase}
      data-project-status={snapshot?.project?.project_status}
      aria-label={text.regionLabel}
      {...rest}
    >
      <h2 className="ae-title">{text.heading}</h2>
      {id === undefined ? (
        <p className="ae-muted">{text.noProject}</p>
      ) : (
        <dl className="ae-details">
          {/* No name is on its way once the project answered without one, or polling stopped on an error. */}
          {(view.name !== undefined || (snapshot?.project === undefined && snapshot?.status !== 'error')) && (
            <div>
              <dt>{text.nameLabel}</dt>
              <dd>
                {view.name === undefined ? (
                  <span className="ae-muted">{text.loading}</span>
                ) : (
                  <OutsideText>{view.name}</OutsideText>
                )}
              </dd>
            </div>
          )}
          <div>
            <dt>{text.statusLabel}</dt>
            <dd>
              <span className="ae-badge" data-phase={phase}>
                {phaseWords(view, labels)}
              </span>
            </dd>
          </div>
          {(view.hasApp || view.unsafeAppUrl) && (
            <div>
              <dt>{text.appLabel}</dt>
              <dd>
                <ExternalLink href={view.appUrl} fallback={<span className="ae-muted">{text.unsafeUrl}</span>}>
                  {text.openApp}
                </ExternalLink>
              </dd>
            </div>
          )}
          <div>
            <dt>{text.updatedLabel}</dt>
            <dd>
              {updatedAt === undefined ? (
                text.never
              ) : (
                <time dateTime={new Date(updatedAt).toISOString()}>
                  <FormattedText>{(f) => f.dateTime(updatedAt)}</FormattedText>
                </time>
              )}
            </dd>
          </div>
        </dl>
      )}
      {snapshot?.status === 'paused' && <p className="ae-hint">{text.paused}</p>}
      {snapshot?.error !== undefined && toldHere && (
        <p className="ae-field-error">
          {/* End-user words: the API's own message ("API token has expired.") is the agency's, not theirs. */}
          {text.errorPrefix} {errorCopy(snapshot.error, labels.errors, 'project', undefined, format)}
        </p>
      )}
    </section>
  );
});
