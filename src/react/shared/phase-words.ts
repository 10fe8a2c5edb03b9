/** A project's phase in the end user's words, one reading for every badge that names it. */
import type { ProjectView } from '../../core/index.js';
import type { AgentLabels } from '../provider/labels.js';

/**
 * The badge of a project's phase: "Last change failed" when a change failed beside the app built before (which is
 * still there, on the stage and to ship), the phase's own label otherwise.
 */
export function phaseWords(view: Pick<ProjectView, 'kind' | 'phase'>, labels: AgentLabels): string {
  return view.kind === 'followUp' && view.phase === 'failed'
    ? labels.agentBuilder.changeFailed
    : labels.phase[view.phase];
}
