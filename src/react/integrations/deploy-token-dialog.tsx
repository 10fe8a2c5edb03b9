'use client';
/**
 * DeployButton's token dialog: a password field read once on submit and emptied at once (never React state),
 * kept after a refusal so the end user can correct it, with what was wrong with it under it.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { AgentApiError } from '../../core/index.js';
import type { UseDeploymentResult } from './use-deployment.js';
import { ErrorAlert } from '../shared/error-alert.js';
import { ModalDialog } from '../shared/modal-dialog.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';

/** Props of `TokenDialog`. */
export interface TokenDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  providerName: string;
  connecting: UseDeploymentResult['connecting'];
  /** Sends the token; resolves true when it was accepted. */
  onToken(token: string): Promise<boolean>;
}

/** Asks for the provider's access token. */
export function TokenDialog({ open, onOpenChange, providerName, connecting, onToken }: TokenDialogProps) {
  const text = useAgentLabels().deployButton;
  const tokenRef = useRef<HTMLInputElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const [emptyError, setEmptyError] = useState(false);
  const id = useId();
  const submitting = connecting.status === 'pending';
  const failed = connecting.error;
  // Each opening starts clean: a refusal from before it (or before a mount with the dialog closed) is not its business.
  const [dismissed, setDismissed] = useState(() => (open ? undefined : failed));
  const error = failed !== dismissed ? failed : undefined;
  const tokenErrors = error?.fieldErrors?.token;
  // The API's words about the token are its own English (the agency gets them through onError); the field says ours.
  const fieldMessage = emptyError ? text.tokenRequired : tokenErrors === undefined ? undefined : text.tokenRejected;
  const generalError = error !== undefined && tokenErrors === undefined ? error : undefined;

  function changeOpen(next: boolean) {
    setDismissed(failed);
    setEmptyError(false);
    onOpenChange(next);
  }

  const shownError = useRef<AgentApiError | undefined>(undefined);
  useEffect(() => {
    if (error === undefined || shownError.current === error) return;
    shownError.current = error;
    if (error.fieldErrors?.token !== undefined) tokenRef.current?.focus();
    else alertRef.current?.focus();
  }, [error]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = tokenRef.current;
    if (input === null || submitting) return;
    const token = input.value.trim();
    if (token === '') {
      setEmptyError(true);
      input.focus();
      return;
    }
    setEmptyError(false);
    // Refused, it stays in the field to be corrected, not typed again; accepted, the dialog and its field close.
    void onToken(token);
  }

  const inputId = `${id}-token`;
  const errorId = `${id}-token-error`;
  return (
    <ModalDialog
      open={open}
      onClose={() => changeOpen(false)}
      className="ae-dialog"
      data-connect={connecting.status}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-description`}
    >
      <h2 id={`${id}-title`} className="ae-title">
        {text.dialogTitle(providerName)}
      </h2>
      <p id={`${id}-description`} className="ae-hint">
        {text.dialogDescription(providerName)}
      </p>
      <form className="ae-dialog-form" noValidate onSubmit={submit} aria-busy={submitting}>
        <div className="ae-field">
          <label htmlFor={inputId} className="ae-label">
            {text.tokenLabel(providerName)}
          </label>
          <input
            ref={tokenRef}
            id={inputId}
            name="token"
            className="ae-input"
            type="password"
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="off"
            required
            disabled={submitting}
            aria-invalid={fieldMessage === undefined ? undefined : true}
            aria-describedby={fieldMessage === undefined ? undefined : errorId}
            onChange={() => {
              if (emptyError) setEmptyError(false);
            }}
          />
          {fieldMessage !== undefined && (
            <p id={errorId} className="ae-field-error">
              {fieldMessage}
            </p>
          )}
        </div>
        <ErrorAlert ref={alertRef} error={generalError} title={text.connectErrorTitle} context="deploymentConnection" />
        <div className="ae-actions">
          <button type="submit" className="ae-button ae-button-primary" disabled={submitting}>
            {submitting ? text.submitting : text.submit}
          </button>
          <button type="button" className="ae-button" onClick={() => changeOpen(false)}>
            {text.cancel}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
