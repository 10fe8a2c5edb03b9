import type { TurnOutcome } from '../../core/index.js';
import { plural } from '../../locales/plural.js';

/** Texts of `Conversation`. */
export interface ConversationLabels {
  regionLabel: string;
  empty: string;
  /** Who sent the prompt (screen readers). */
  you: string;
  generate: string;
  followUp: string;
  /** The mode of a new project: the same words as the prompt box's picker. */
  modeBuild: string;
  modeDesign: string;
  running: string;
  /** The one-line outcome of a turn, from locale-formatted counts and the same counts as numbers (for plurals). */
  outcome: (outcome: TurnOutcome, counts: TurnCounts<string>, values: TurnCounts<number>) => string;
}

/** What a turn did: files created and modified, agent steps. */
export interface TurnCounts<Value> {
  created: Value;
  modified: Value;
  steps: Value;
}

/** The default (English) texts of `Conversation`. */
export const defaultConversationLabels: ConversationLabels = {
  regionLabel: 'Conversation',
  empty: 'Describe the app you want, and it will be built here.',
  you: 'You',
  generate: 'New app',
  followUp: 'Change',
  modeBuild: 'Build',
  modeDesign: 'Design',
  running: 'Working on it…',
  outcome: (outcome, counts, values) => {
    const created = plural('en', values.created, {
      one: `${counts.created} new file`,
      other: `${counts.created} new files`,
    });
    const files =
      values.modified === 0
        ? created
        : values.created === 0
          ? plural('en', values.modified, {
              one: `${counts.modified} changed file`,
              other: `${counts.modified} changed files`,
            })
          : `${created}, ${counts.modified} changed`;
    switch (outcome.status) {
      case 'completed':
        // Nothing seen (the stream was cut early and the outcome came from the status): no "0 new files".
        if (values.created === 0 && values.modified === 0 && values.steps === 0) return 'Done.';
        return `Done: ${files}, ${plural('en', values.steps, { one: `${counts.steps} step`, other: `${counts.steps} steps` })}.`;
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
