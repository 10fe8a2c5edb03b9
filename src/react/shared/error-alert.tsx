'use client';
import { forwardRef, type ReactNode } from 'react';
import type { AgentApiError } from '../../core/index.js';
import { cx } from './class-names.js';

/** Props of `ErrorAlert`. */
export interface ErrorAlertProps {
  /** Nothing is rendered without an error. */
  error: AgentApiError | undefined;
  /** The alert's heading (what failed). */
  title: string;
  /** The next step the person can take (a retry button, a link), shown under the text. */
  action?: ReactNode;
  className?: string;
}

/**
 * The one error box of the components: a focusable `role="alert"` with a title, the error's text and its
 * field errors. `data-kind` carries the error kind for styling.
 */
export const ErrorAlert = forwardRef<HTMLDivElement, ErrorAlertProps>(function ErrorAlert(
  { error, title, action, className },
  ref,
) {
  if (error === undefined) return null;
  const fieldErrors = error.fieldErrors === undefined ? [] : Object.values(error.fieldErrors).flat();
  return (
    <div ref={ref} className={cx('ae-alert', className)} role="alert" tabIndex={-1} data-kind={error.kind}>
      <p className="ae-alert-title">{title}</p>
      <p>{error.message}</p>
      {fieldErrors.length > 0 && (
        <ul>
          {fieldErrors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
      {action}
    </div>
  );
});
