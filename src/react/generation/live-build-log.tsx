'use client';
/** Live view of a generation: container progress, files (windowed), agent steps and how it ended. */
import { visibleText } from '../shared/outside-text.js';
import { ownLabel } from '../shared/outside-values.js';
import { forwardRef, useMemo, useRef } from 'react';
import { AgentApiError, type GeneratedFile, type ProjectView, type ToolStep } from '../../core/index.js';
import type { LiveBuildLogLabels } from './live-build-log.labels.js';
import { BuyCreditsAction } from '../shared/buy-credits-action.js';
import { ErrorAlert } from '../shared/error-alert.js';
import { errorCopy, quotaCopy } from '../shared/error-copy.js';
import { goneSentenceSlotKey, outcomeSlotKey, quotaSlotKey, slotRank, useFailureSlot } from '../shared/error-slots.js';
import { ExternalLink } from '../shared/external-link.js';
import { FileFontSample } from '../shared/file-font-sample.js';
import { useAgentFormat } from '../provider/use-agent-format.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { useAgentContext } from '../provider/agent-context.js';
import { useRowWindow } from '../shared/use-row-window.js';
import { useRetryCountdown } from '../shared/use-retry-countdown.js';
import { useProjectView } from './use-project-view.js';
import { useUsedUpQuota } from '../usage/use-usage.js';
import { cx } from '../shared/class-names.js';
import type { WithRootProps } from '../shared/root-props.js';
import { FormattedText } from '../shared/formatted-text.js';
import { phaseWords } from '../shared/phase-words.js';

/** Props of `LiveBuildLog`: its own, plus any attribute of its root `section`. */
export type LiveBuildLogProps = WithRootProps<
  {
    /** The project to show; the provider's current generation by default. */
    projectId?: string;
    /** Called by the "buy credits" button when credits run out. */
    onBuyCredits?: (() => void) | undefined;
    /** Where the "buy credits" link goes when there is no `onBuyCredits` (http/https only). */
    buyCreditsUrl?: string | undefined;
  },
  'section'
>;

const rowHeight = 32;
// Rows rendered beyond each edge of the view, for scrolling: four rows (128 px) cover a wheel's or a key's step. The
// list mounts with the view's rows plus these below, in the frame that shows the first files: at 4x CPU throttling
// that frame took 57-65 ms with ten rows of margin (107 elements restyled, 178 layout objects).
const overscanRows = 4;

function FileList({ files, labels }: { files: readonly GeneratedFile[]; labels: LiveBuildLogLabels }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { start, end, totalHeight } = useRowWindow(scrollRef, {
    count: files.length,
    rowHeight,
    overscan: overscanRows,
    fallbackHeight: rowHeight * 10,
  });
  return (
    // A scrolling region must be reachable by keyboard to scroll it (axe: scrollable-region-focusable).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div ref={scrollRef} className="ae-file-scroll" role="region" aria-label={labels.filesLabel} tabIndex={0}>
      <ul className="ae-file-list" style={{ height: totalHeight }}>
        {files.slice(start, end).map((file, offset) => {
          const index = start + offset;
          return (
            <li
              key={file.path}
              className="ae-file"
              data-action={file.action}
              aria-setsize={files.length}
              aria-posinset={index + 1}
              style={{ height: rowHeight, transform: `translateY(${index * rowHeight}px)` }}
            >
              <bdi className="ae-file-path">{visibleText(file.path)}</bdi>
              <span className="ae-file-action">
                {file.action === 'modified' ? labels.fileModified : labels.fileCreated}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * A tool id as words: known tools get their own label; any other reads as `other` when given (the build log's
 * `otherTool`: an id is not words in every language), else as its id in words (`write_files` → "Write files").
 */
export function toolWords(tool: string, names: Record<string, string>, other?: string): string {
  const known = ownLabel(names, tool);
  if (known !== undefined) return known;
  if (other !== undefined) return other;
  const words = tool
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? tool : words.charAt(0).toUpperCase() + words.slice(1);
}

// The newest steps the log shows (the store keeps `toolLimit`, 200 by default), all in view: the newest is the last
// row, never below an inner scroll. In a burst most rows change at each frame, so their number is the frame's cost:
// at 4x CPU throttling a replay's frames took 51-58 ms (median) with 50 rows and 16-20 ms with 12.
const shownToolSteps = 10;

function ToolSteps({
  tools,
  total,
  labels,
}: {
  tools: readonly ToolStep[];
  total: number;
  labels: LiveBuildLogLabels;
}) {
  const shown = tools.length > shownToolSteps ? tools.slice(-shownToolSteps) : tools;
  return (
    <div className="ae-tools">
      <p className="ae-label">{labels.toolsLabel}</p>
      {total > shown.length && (
        <p className="ae-hint">
          <FormattedText>
            {(f) => labels.toolsOmitted(f.number(total - shown.length), total - shown.length)}
          </FormattedText>
        </p>
      )}
      <ol className="ae-tool-list" aria-label={labels.toolsLabel}>
        {/* Rows are kept by position: a burst changes their text, not the elements (no style work for new ones). */}
        {shown.map((step, slot) => (
          <li key={slot} className="ae-tool" data-status={step.status}>
            <span className="ae-tool-name">{toolWords(step.tool, labels.toolNames, labels.otherTool)}</span>
            {/* The agent's own words, as it wrote them (the library cannot translate them), running their own way. */}
            {step.message !== '' && <bdi className="ae-tool-message">{visibleText(step.message)}</bdi>}
          </li>
        ))}
      </ol>
    </div>
  );
}

function Outcome({
  view,
  labels,
  onBuyCredits,
  buyCreditsUrl,
}: {
  view: ProjectView;
  labels: LiveBuildLogLabels;
  onBuyCredits: (() => void) | undefined;
  buyCreditsUrl: string | undefined;
}) {
  const { phase, generation } = view;
  const { store } = useAgentContext();
  const { phase: phaseLabels, errors: errorLabels } = useAgentLabels();
  const format = useAgentFormat();
  const quota = useUsedUpQuota();
  // A build that ended badly is told here, with its next step; other places (the preview's stage) only mention it.
  useFailureSlot(outcomeSlotKey(view), slotRank.nextStep);
  // Stable across renders, so that its alert keeps one slot; built only for a failure (an error captures a stack:
  // at every mount it cost 1.4-2.4 ms of the click's task at 4x CPU throttling).
  const failed = phase === 'failed';
  const fallbackError = useMemo(
    () => (failed ? new AgentApiError('upstream', labels.failed) : undefined),
    [failed, labels.failed],
  );
  // A status poll refused for too many requests waits its Retry-After: the wait is said, not hidden.
  const wait = useRetryCountdown(view.snapshot?.error);
  const pollWait = !!wait && <p className="ae-hint">{labels.checkingIn(format.number(wait))}</p>;
  switch (phase) {
    case 'provisioning':
    case 'generating':
      // Nothing streams here: the build runs elsewhere (another tab, an earlier visit) and only its status poll is
      // known, so the log says it is building instead of an empty progress.
      if (view.busy) return null;
      return (
        <div className="ae-outcome" data-phase={phase}>
          <span className="ae-spinner" aria-hidden="true" />
          <p>{labels.buildingElsewhere}</p>
        </div>
      );
    case 'idle':
    case 'submitting':
      return null;
    case 'ready':
      return (
        <div className="ae-outcome" data-phase={phase}>
          <p>{labels.completed}</p>
          <ExternalLink
            className="ae-button ae-button-primary"
            href={view.appUrl}
            fallback={view.unsafeAppUrl && <p className="ae-hint">{labels.unsafeUrl}</p>}
          >
            {labels.openApp}
          </ExternalLink>
        </div>
      );
    case 'credits_exhausted':
      return (
        <div className="ae-outcome" data-phase={phase}>
          <p className="ae-outcome-title">{labels.creditsExhausted}</p>
          <p className="ae-hint">{labels.creditsExhaustedHint}</p>
          <BuyCreditsAction onBuyCredits={onBuyCredits} url={buyCreditsUrl} label={labels.buyCredits} primary />
        </div>
      );
    case 'failed': {
      const followUp = generation?.kind === 'followUp';
      return (
        <ErrorAlert
          error={view.error ?? fallbackError}
          title={followUp ? labels.changeFailed : labels.failed}
          // "Try again" sends the same prompt once more, a new request made by this click (the store's `retry`); not
          // offered once the quota is used up, as the prompt box's Generate is not: the next step is then when more come.
          text={quota === undefined ? undefined : quotaCopy(quota, errorLabels, format)}
          // Said here, the prompt box does not say it again: its Generate, held for the quota, points at it.
          textSlot={quota === undefined ? undefined : quotaSlotKey}
          onRetry={
            !generation?.prompt || view.busy || quota !== undefined
              ? undefined
              : () => {
                  // The button goes with the failure: a keyboard user stays in the log, which tells the new build.
                  const log = document.activeElement?.closest<HTMLElement>('.ae-build-log');
                  void store.getState().retry(view.key);
                  if (log) requestAnimationFrame(() => log.focus());
                }
          }
          className="ae-outcome"
        />
      );
    }
    case 'recovering':
      return (
        <div className="ae-outcome" data-phase={phase}>
          <span className="ae-spinner" aria-hidden="true" />
          <p>{labels.recovering}</p>
          {pollWait}
        </div>
      );
    case 'stopped':
      return (
        <div className="ae-outcome" data-phase={phase}>
          <p className="ae-outcome-title">{labels.stopped}</p>
          <p className="ae-hint">{view.projectId === undefined ? labels.stoppedUnnamedHint : labels.stoppedHint}</p>
          {pollWait}
        </div>
      );
    case 'interrupted':
      return (
        <div className="ae-outcome" data-phase={phase}>
          <p className="ae-outcome-title">{labels.interrupted}</p>
        </div>
      );
    case 'gone':
      // In the end user's words, with the next step (the API's own message is in the alert's Details).
      return view.error === undefined ? null : (
        <ErrorAlert
          error={view.error}
          title={phaseLabels.gone}
          context="project"
          text={errorCopy(view.error, errorLabels, 'project')}
          // Said here, the prompt box's held Send follow-up points at it rather than saying it again.
          textSlot={goneSentenceSlotKey(view)}
          className="ae-outcome"
        />
      );
    default:
      return phase satisfies never;
  }
}

/** Shows a generation as it happens and how it ended; every state comes from the project's one view. */
export const LiveBuildLog = forwardRef<HTMLElement, LiveBuildLogProps>(function LiveBuildLog(
  { projectId, onBuyCredits, buyCreditsUrl, className, ...rest },
  ref,
) {
  const labels = useAgentLabels();
  const text = labels.liveBuildLog;
  const format = useAgentFormat();
  // Given a project this store has no generation of, the log follows its status (the shared poller).
  const view = useProjectView(projectId, { watch: 'alone' });
  const { generation, phase, progress } = view;
  const files = generation?.files ?? [];
  // Progress only while the stream reports (stopped or reconnecting, the outcome box says where things are).
  const showProgress = (view.busy && phase !== 'recovering') || (progress.stage === 'done' && phase === 'ready');

  return (
    <section
      ref={ref}
      className={cx('ae-build-log', className)}
      data-state={generation?.status ?? 'idle'}
      data-phase={phase}
      aria-label={text.regionLabel}
      aria-busy={view.busy}
      // Focus lands here when a control of its own goes away (Try again, once the new build starts).
      tabIndex={-1}
      {...rest}
    >
      <FileFontSample />
      <div className="ae-header">
        <h2 className="ae-title">{text.heading}</h2>
        {phase !== 'idle' && (
          <span className="ae-badge" data-phase={phase}>
            {phaseWords(view, labels)}
          </span>
        )}
      </div>
      {/* Announces state changes only: its text changes with the phase, not with every file. */}
      <div className="ae-visually-hidden" role="log" aria-live="polite">
        {text.announcements[phase]}
      </div>
      {phase === 'idle' ? (
        <p className="ae-muted">{text.idle}</p>
      ) : generation === undefined ? (
        <Outcome view={view} labels={text} onBuyCredits={onBuyCredits} buyCreditsUrl={buyCreditsUrl} />
      ) : (
        <>
          {showProgress && (
            <div className="ae-progress" data-stage={progress.stage}>
              <div
                className="ae-progress-track"
                role="progressbar"
                aria-label={text.progressLabel}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={progress.value}
                aria-valuetext={format.ready ? text.progressValue(format.percent(progress.value)) : undefined}
              >
                <div className="ae-progress-bar" style={{ transform: `scaleX(${progress.value / 100})` }} />
              </div>
              <p className="ae-hint">{text.stages[progress.stage]}</p>
            </div>
          )}
          <Outcome view={view} labels={text} onBuyCredits={onBuyCredits} buyCreditsUrl={buyCreditsUrl} />
          {files.length > 0 && (
            <div className="ae-files">
              <p className="ae-label">
                <FormattedText>
                  {(f) => text.fileCount(f.number(view.filesCreated), f.number(view.filesModified), files.length)}
                </FormattedText>
              </p>
              <FileList files={files} labels={text} />
            </div>
          )}
          {generation.tools.length > 0 && (
            <ToolSteps tools={generation.tools} total={generation.toolCount} labels={text} />
          )}
          {generation.unknownEventCount > 0 && (
            <p className="ae-hint">
              <FormattedText>
                {(f) => text.unknownEvents(f.number(generation.unknownEventCount), generation.unknownEventCount)}
              </FormattedText>
            </p>
          )}
        </>
      )}
    </section>
  );
});
