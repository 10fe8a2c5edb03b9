'use client';
/** Live view of a generation: container progress, files (windowed), agent steps and how it ended. */
import { useRef } from 'react';
import { isGenerationRunning, type GeneratedFile, type GenerationState, type ToolStep } from '../../core/index.js';
import type { LiveBuildLogLabels } from './live-build-log.labels.js';
import { safeHttpUrl } from '../shared/safe-url.js';
import type { AgentFormat } from '../provider/agent-format.js';
import { useAgentFormat } from '../provider/use-agent-format.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { useRowWindow } from '../shared/use-row-window.js';
import { useGeneration } from './use-generation.js';
import { cx } from '../shared/class-names.js';

/** Props of `LiveBuildLog`. */
export interface LiveBuildLogProps {
  /** The project to show; the provider's current generation by default. */
  projectId?: string;
  /** Called by the "buy credits" button when credits run out. */
  onBuyCredits?: () => void;
  /** Where the "buy credits" link goes when there is no `onBuyCredits` (http/https only). */
  buyCreditsUrl?: string;
  className?: string;
}

const rowHeight = 32;

function FileList({ files, labels }: { files: readonly GeneratedFile[]; labels: LiveBuildLogLabels }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { start, end, totalHeight } = useRowWindow(scrollRef, {
    count: files.length,
    rowHeight,
    overscan: 10,
    fallbackHeight: rowHeight * 10,
  });
  return (
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
              <span className="ae-file-path">{file.path}</span>
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

function ToolSteps({
  tools,
  total,
  labels,
  format,
}: {
  tools: readonly ToolStep[];
  total: number;
  labels: LiveBuildLogLabels;
  format: AgentFormat;
}) {
  return (
    <div className="ae-tools">
      <p className="ae-label">{labels.toolsLabel}</p>
      {total > tools.length && <p className="ae-hint">{labels.toolsOmitted(format.number(total - tools.length))}</p>}
      <ol className="ae-tool-list" aria-label={labels.toolsLabel}>
        {tools.map((step) => (
          <li key={step.id} className="ae-tool" data-status={step.status}>
            <span className="ae-tool-name">{step.tool}</span>
            {step.message !== '' && <span className="ae-tool-message">{step.message}</span>}
          </li>
        ))}
      </ol>
    </div>
  );
}

function Outcome({
  generation,
  labels,
  onBuyCredits,
  buyCreditsUrl,
}: {
  generation: GenerationState;
  labels: LiveBuildLogLabels;
  onBuyCredits: (() => void) | undefined;
  buyCreditsUrl: string | undefined;
}) {
  const { status, error } = generation;
  switch (status) {
    case 'idle':
    case 'submitting':
    case 'provisioning':
    case 'generating':
      return null;
    case 'completed': {
      const appUrl = safeHttpUrl(generation.appUrl);
      return (
        <div className="ae-outcome" data-outcome={status}>
          <p>{labels.completed}</p>
          {appUrl !== undefined ? (
            <a className="ae-button ae-button-primary" href={appUrl} target="_blank" rel="noopener noreferrer">
              {labels.openApp}
            </a>
          ) : generation.appUrl !== undefined ? (
            <p className="ae-hint">{labels.unsafeUrl}</p>
          ) : null}
        </div>
      );
    }
    case 'credits_exhausted': {
      const href = safeHttpUrl(buyCreditsUrl);
      return (
        <div className="ae-outcome" data-outcome={status}>
          <p className="ae-outcome-title">{labels.creditsExhausted}</p>
          {error !== undefined && error.message !== labels.creditsExhausted && <p>{error.message}</p>}
          <p className="ae-hint">{labels.creditsExhaustedHint}</p>
          {onBuyCredits !== undefined ? (
            <button type="button" className="ae-button ae-button-primary" onClick={onBuyCredits}>
              {labels.buyCredits}
            </button>
          ) : href !== undefined ? (
            <a className="ae-button ae-button-primary" href={href} target="_blank" rel="noopener noreferrer">
              {labels.buyCredits}
            </a>
          ) : null}
        </div>
      );
    }
    case 'failed':
      return (
        <div className="ae-outcome" data-outcome={status}>
          <p className="ae-outcome-title">{labels.failed}</p>
          {error !== undefined && <p>{error.message}</p>}
        </div>
      );
    case 'recovering':
      return (
        <div className="ae-outcome" data-outcome={status}>
          <span className="ae-spinner" aria-hidden="true" />
          <p>{labels.recovering}</p>
        </div>
      );
    case 'interrupted':
      return (
        <div className="ae-outcome" data-outcome={status}>
          <p className="ae-outcome-title">{labels.interrupted}</p>
          {error !== undefined && <p>{error.message}</p>}
        </div>
      );
    case 'aborted':
      return (
        <div className="ae-outcome" data-outcome={status}>
          <p>{labels.aborted}</p>
        </div>
      );
    default:
      return status satisfies never;
  }
}

/** Shows a generation as it happens and how it ended. */
export function LiveBuildLog({ projectId, onBuyCredits, buyCreditsUrl, className }: LiveBuildLogProps) {
  const labels = useAgentLabels();
  const text = labels.liveBuildLog;
  const format = useAgentFormat();
  const { generation, status } = useGeneration(projectId);
  const running = isGenerationRunning(status);
  const container = generation?.container;
  // Follow-ups have no container stage, and a resumed generation has no progress to show.
  const showProgress =
    generation?.kind === 'generate' &&
    container !== undefined &&
    (status === 'submitting' || status === 'provisioning' || container.percentage > 0 || container.ready);

  return (
    <section
      className={cx('ae-build-log', className)}
      data-state={status}
      aria-label={text.regionLabel}
      aria-busy={running}
    >
      <div className="ae-header">
        <h2 className="ae-title">{text.heading}</h2>
        <span className="ae-badge" data-state={status}>
          {labels.status[status]}
        </span>
      </div>
      {/* Announces state changes only: its text changes with the status, not with every file. */}
      <div className="ae-visually-hidden" role="log" aria-live="polite">
        {text.announcements[status]}
      </div>
      {generation === undefined ? (
        <p className="ae-muted">{text.idle}</p>
      ) : (
        <>
          {showProgress && container !== undefined && (
            <div className="ae-progress">
              <div
                className="ae-progress-track"
                role="progressbar"
                aria-label={text.progressLabel}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={container.percentage}
                aria-valuetext={text.progressValue(format.percent(container.percentage))}
              >
                <div className="ae-progress-bar" style={{ width: `${container.percentage}%` }} />
              </div>
              {/* Once ready, the last progress message is history: one line says where things stand. */}
              {container.ready ? (
                <p className="ae-ready">{text.containerReady}</p>
              ) : (
                container.message !== undefined && <p className="ae-hint">{container.message}</p>
              )}
            </div>
          )}
          <Outcome generation={generation} labels={text} onBuyCredits={onBuyCredits} buyCreditsUrl={buyCreditsUrl} />
          {generation.files.length > 0 && (
            <div className="ae-files">
              <p className="ae-label">
                {text.fileCount(
                  format.number(generation.files.length),
                  format.number(generation.modifiedCount),
                  generation.files.length,
                )}
              </p>
              <FileList files={generation.files} labels={text} />
            </div>
          )}
          {generation.tools.length > 0 && (
            <ToolSteps tools={generation.tools} total={generation.toolCount} labels={text} format={format} />
          )}
          {generation.unknownEventCount > 0 && (
            <p className="ae-hint">{text.unknownEvents(format.number(generation.unknownEventCount))}</p>
          )}
        </>
      )}
    </section>
  );
}
