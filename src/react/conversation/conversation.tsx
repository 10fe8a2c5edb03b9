'use client';
/** The conversation of a project: each prompt the end user sent, when, and what came of it. */
import { forwardRef } from 'react';
import type { ConversationEntry } from '../../core/index.js';
import { useProjectView } from '../generation/use-project-view.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { cx } from '../shared/class-names.js';
import type { WithRootProps } from '../shared/root-props.js';
import { outcomeSlotKey, slotRank, useFailureSlot } from '../shared/error-slots.js';
import type { ConversationLabels } from './conversation.labels.js';
import { useConversation } from './use-conversation.js';
import { FormattedText } from '../shared/formatted-text.js';

/** Props of `Conversation`: its own, plus any attribute of its root `section`. */
export type ConversationProps = WithRootProps<
  {
    /** The project whose conversation to show; the provider's current one by default. */
    projectId?: string;
  },
  'section'
>;

function Turn({
  turn,
  text,
  showOutcome,
}: {
  turn: ConversationEntry;
  text: ConversationLabels;
  showOutcome: boolean;
}) {
  const { outcome } = turn;
  return (
    <li className="ae-turn" data-outcome={outcome?.status ?? 'running'}>
      <div className="ae-turn-prompt">
        <span className="ae-visually-hidden">{text.you}: </span>
        <p dir="auto">{turn.prompt}</p>
      </div>
      <p className="ae-turn-meta">
        <span>{turn.kind === 'generate' ? text.generate : text.followUp}</span>
        {turn.kind === 'generate' && turn.mode !== undefined && (
          <span>{turn.mode === 'design' ? text.modeDesign : text.modeBuild}</span>
        )}
        {turn.at > 0 && (
          <time dateTime={new Date(turn.at).toISOString()}>
            <FormattedText>{(f) => f.time(turn.at)}</FormattedText>
          </time>
        )}
      </p>
      {showOutcome && (
        <p className="ae-turn-outcome">
          {outcome === undefined ? (
            <>
              <span className="ae-spinner" aria-hidden="true" /> {text.running}
            </>
          ) : (
            <FormattedText>
              {(f) =>
                text.outcome(
                  outcome,
                  {
                    created: f.number(outcome.filesCreated),
                    modified: f.number(outcome.filesModified),
                    steps: f.number(outcome.steps),
                  },
                  { created: outcome.filesCreated, modified: outcome.filesModified, steps: outcome.steps },
                )
              }
            </FormattedText>
          )}
        </p>
      )}
    </li>
  );
}

/** Lists the prompts of a project and their outcomes, oldest first. `data-state` is `empty` or `ready`. */
export const Conversation = forwardRef<HTMLElement, ConversationProps>(function Conversation(
  { projectId, className, ...rest },
  ref,
) {
  const text = useAgentLabels().conversation;
  const turns = useConversation(projectId).data;
  // How the latest build ended badly, if it did: the build log tells it with its next step when it is on
  // screen, and then the latest turn does not say it a second time.
  const view = useProjectView(projectId);
  const last = turns[turns.length - 1];
  const badEnding = last?.outcome?.status === view.phase ? outcomeSlotKey(view) : undefined;
  const toldHere = useFailureSlot(badEnding, slotRank.mention);
  return (
    <section
      ref={ref}
      className={cx('ae-conversation', className)}
      aria-label={text.regionLabel}
      data-state={turns.length === 0 ? 'empty' : 'ready'}
      {...rest}
    >
      {turns.length === 0 ? (
        <p className="ae-muted">{text.empty}</p>
      ) : (
        <ol className="ae-turns">
          {turns.map((turn, index) => (
            <Turn key={turn.id} turn={turn} text={text} showOutcome={toldHere || index < turns.length - 1} />
          ))}
        </ol>
      )}
    </section>
  );
});
