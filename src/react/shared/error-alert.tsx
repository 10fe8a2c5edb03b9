'use client';
import { forwardRef, useId, type ReactNode } from 'react';
import { agentApiMessages, type AgentApiError } from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { useAgentFormat } from '../provider/use-agent-format.js';
import { cx } from './class-names.js';
import { errorCopy, type ErrorContext } from './error-copy.js';
import { Icon } from './icons.js';
import { slotRank, useErrorSlot, useToldSentence } from './error-slots.js';
import { useRetryCountdown } from './use-retry-countdown.js';

/** Props of `ErrorAlert`. */
export interface ErrorAlertProps {
  /** Nothing is rendered without an error. */
  error: AgentApiError | undefined;
  /** The alert's heading (what failed). */
  title: string;
  /** What the failed call was about, for words that fit (a missing project reads differently from a missing connection). */
  context?: ErrorContext;
  /** Words of the caller's instead of the error's own, where its usual next step is closed (a used-up quota). */
  text?: string | undefined;
  /**
   * The slot (`error-slots`) of the sentence `text` says, when another place could say it too (a used-up quota: the
   * prompt box's hint): told here, it is not said there, and that place points at this alert's text instead.
   */
  textSlot?: string | undefined;
  /** Shows a "Try again" button; during a rate limit it counts down and is enabled at zero. */
  onRetry?: (() => void) | undefined;
  /** Another next step (a link, a button), shown under the text. */
  action?: ReactNode;
  className?: string;
}

/**
 * The one error box of the components: a focusable `role="alert"` with a title, end-user words with the
 * next step (`labels.errors`), field errors, a live countdown for a rate limit, and, only with the provider's
 * `errorDetails`, the API's own message inside a closed "Details" disclosure for the agency's staff. `data-kind` carries the error kind. An
 * error another alert already shows (the same one, or an account-wide one) is named here in one line.
 */
export const ErrorAlert = forwardRef<HTMLDivElement, ErrorAlertProps>(function ErrorAlert(
  { error, title, context, text, textSlot, onRetry, action, className },
  ref,
) {
  const allLabels = useAgentLabels();
  // The API's own words are operator words: shown only where the agency asked for them (its staff, its support).
  const showDetails = useAgentContext().errorDetails;
  const labels = allLabels.errors;
  const format = useAgentFormat();
  const secondsLeft = useRetryCountdown(error);
  const shownHere = useErrorSlot(error);
  const textId = useId();
  // The API's field messages are its own English words (naming wire fields): the screen says those it knows (the spec's
  // one, the prompt's hint) in the end user's language, and the general "check what you entered" for the others.
  const fieldMessages = error?.fieldErrors === undefined ? [] : Object.values(error.fieldErrors).flat();
  const fieldErrors = fieldMessages.some((message) => message === agentApiMessages.promptTooShort)
    ? [allLabels.generatePanel.promptTooShort]
    : [];
  // Known field errors already say what to fix; the general sentence would say it twice.
  const allKnown =
    fieldMessages.length > 0 && fieldMessages.every((message) => message === agentApiMessages.promptTooShort);
  const copy =
    error === undefined || (allKnown && error.kind === 'validation')
      ? undefined
      : (text ?? errorCopy(error, labels, context, secondsLeft, format));
  useToldSentence(shownHere && copy !== undefined && copy === text ? textSlot : undefined, slotRank.nextStep, textId);
  if (error === undefined) return null;
  // Shown in full by another alert already: here it only names what failed, so the failure reads once.
  if (!shownHere)
    return (
      <div ref={ref} className={cx('ae-alert-elsewhere', className)} data-kind={error.kind} tabIndex={-1}>
        <Icon name="alert" />
        {title}
      </div>
    );
  const waiting = secondsLeft !== undefined && secondsLeft > 0;
  return (
    <div
      ref={ref}
      className={cx('ae-alert', className)}
      role="alert"
      tabIndex={-1}
      data-kind={error.kind}
      data-waiting={waiting || undefined}
    >
      <Icon name={error.kind === 'rate_limited' ? 'clock' : 'alert'} className="ae-alert-icon" />
      <div className="ae-alert-body">
        <p className="ae-alert-title">{title}</p>
        {copy !== undefined && (
          <p id={textId} className="ae-alert-text">
            {copy}
          </p>
        )}
        {fieldErrors.length > 0 && (
          <ul className="ae-alert-list">
            {fieldErrors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        )}
        {(onRetry !== undefined || action !== undefined) && (
          <div className="ae-actions">
            {onRetry !== undefined && (
              <button type="button" className="ae-button" disabled={waiting} onClick={onRetry}>
                {waiting ? labels.retryIn(format.number(secondsLeft)) : labels.retry}
              </button>
            )}
            {action}
          </div>
        )}
        {showDetails && fieldErrors.length === 0 && error.kind !== 'aborted' && (
          <details className="ae-alert-details">
            <summary>{labels.details}</summary>
            <p>{error.status === undefined ? error.message : `${error.status} · ${error.message}`}</p>
          </details>
        )}
      </div>
    </div>
  );
});
