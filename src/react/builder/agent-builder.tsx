'use client';
/** The one-line embed: every component composed into one responsive builder. */
import { AppPreview } from '../generation/app-preview.js';
import { CodehostConnect, type CodehostConnectProps } from '../integrations/codehost-connect.js';
import { DeployButton } from '../integrations/deploy-button.js';
import { GeneratePanel } from '../generation/generate-panel.js';
import { LiveBuildLog } from '../generation/live-build-log.js';
import { PlanList } from '../integrations/plan-list.js';
import { ProjectStatus } from '../generation/project-status.js';
import { RepoPicker } from '../integrations/repo-picker.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { useGeneration } from '../generation/use-generation.js';
import { cx } from '../shared/class-names.js';

/** Props of `AgentBuilder`; everything is optional. */
export interface AgentBuilderProps {
  /** The deployment provider of the deploy button (default `vercel`). */
  provider?: string;
  /** How the code-host install flow leaves the page, and where it comes back. */
  codehost?: Pick<CodehostConnectProps, 'mode' | 'returnUrl' | 'navigate' | 'openWindow'>;
  /** Repositories per page in the picker (1 to 100). */
  repositoriesPerPage?: number;
  /** Shows the subscription plans below the builder. */
  showPlans?: boolean;
  /** Called by the build log's "buy credits" button when credits run out. */
  onBuyCredits?: () => void;
  className?: string;
}

/**
 * Generate, watch, preview, deploy, connect the code host, pick a repository and push: the whole flow for
 * the provider's current project. `data-state` is the current generation's status.
 */
export function AgentBuilder({
  provider = 'vercel',
  codehost,
  repositoriesPerPage,
  showPlans = false,
  onBuyCredits,
  className,
}: AgentBuilderProps) {
  const text = useAgentLabels().agentBuilder;
  const { status } = useGeneration();
  return (
    <div className={cx('ae-builder', className)} data-state={status} role="region" aria-label={text.regionLabel}>
      <div className="ae-builder-column" role="group" aria-label={text.buildLabel}>
        <GeneratePanel />
        <LiveBuildLog {...(onBuyCredits === undefined ? {} : { onBuyCredits })} />
      </div>
      <div className="ae-builder-column" role="group" aria-label={text.resultLabel}>
        <ProjectStatus />
        <AppPreview />
      </div>
      <div className="ae-builder-ship" role="group" aria-label={text.shipLabel}>
        <DeployButton provider={provider} />
        <CodehostConnect {...codehost} />
        <RepoPicker {...(repositoriesPerPage === undefined ? {} : { perPage: repositoriesPerPage })} />
      </div>
      {showPlans && (
        <div className="ae-builder-plans" role="group" aria-label={text.plansLabel}>
          <PlanList />
        </div>
      )}
    </div>
  );
}
