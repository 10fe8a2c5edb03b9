import type { TurnOutcome } from '../../core/index.js';

/** Texts of `Conversation`. */
export interface ConversationLabels {
  regionLabel: string;
  empty: string;
  /** Who sent the prompt (screen readers). */
  you: string;
  generate: string;
  followUp: string;
  modeBuild: string;
  modeDesign: string;
  running: string;
  /** The one-line outcome of a turn, from locale-formatted counts. */
  outcome: (outcome: TurnOutcome, counts: { created: string; modified: string; steps: string }) => string;
}

const plural = (count: string, one: string, many: string) => `${count} ${count === '1' ? one : many}`;

/** The default (English) texts of `Conversation`. */
export const defaultConversationLabels: ConversationLabels = {
  regionLabel: 'Conversation',
  empty: 'Describe the app you want, and it will be built here.',
  you: 'You',
  generate: 'New app',
  followUp: 'Change',
  modeBuild: 'Full app',
  modeDesign: 'Design only',
  running: 'Working on it…',
  outcome: (outcome, counts) => {
    const files =
      counts.modified === '0'
        ? plural(counts.created, 'new file', 'new files')
        : counts.created === '0'
          ? plural(counts.modified, 'changed file', 'changed files')
          : `${plural(counts.created, 'new file', 'new files')}, ${counts.modified} changed`;
    switch (outcome.status) {
      case 'completed':
        // Nothing seen (the stream was cut early and the outcome came from the status): no "0 new files".
        if (counts.created === '0' && counts.modified === '0' && counts.steps === '0') return 'Done.';
        return `Done: ${files}, ${plural(counts.steps, 'step', 'steps')}.`;
      case 'credits_exhausted':
        return `Stopped when the credits ran out, after ${files}.`;
      case 'failed':
        return `The build failed after ${files}.`;
      case 'interrupted':
        return 'The connection was lost before the build ended.';
      case 'stopped':
        return `You stopped watching after ${files}. The build may have gone on.`;
      default:
        return outcome.status satisfies never;
    }
  },
};
