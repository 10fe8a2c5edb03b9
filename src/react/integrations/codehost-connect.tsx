'use client';
/**
 * Connects the end user's code host: starts the install flow, sends the user to the installation page
 * (http/https addresses only), and shows the connected account when they come back.
 */
import { statusKey, statusLabel, textOf } from '../shared/outside-values.js';
import { forwardRef, useEffect, useId, useRef, useState } from 'react';
import { safeHttpUrl, timestampOf } from '../../core/index.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { useExternalUser } from '../provider/use-agent-store.js';
import { useCodehost } from './use-codehost.js';
import { cx } from '../shared/class-names.js';
import type { WithRootProps } from '../shared/root-props.js';
import { ErrorAlert } from '../shared/error-alert.js';
import { Icon } from '../shared/icons.js';
import { Skeleton } from '../shared/skeleton.js';
import { FormattedText } from '../shared/formatted-text.js';

/** Props of `CodehostConnect`: its own, plus any attribute of its root `section`. */
export type CodehostConnectProps = WithRootProps<
  {
    /** Where the service sends the user back after the installation; the current page by default. */
    returnUrl?: string;
    /** 'redirect' (default) leaves the page for the installation; 'popup' opens it in a window, falling back to a redirect when blocked. */
    mode?: 'redirect' | 'popup';
    /** Follows the installation address (default `window.location.assign`). Only http/https addresses reach it. */
    navigate?: (url: string) => void;
    /** Opens the popup (default `window.open`); return null when it was blocked. */
    openWindow?: (url: string, name: string) => Window | null;
    /** How loud its connect button is: 'secondary' beside another primary action (the builder's Publish sheet). */
    emphasis?: 'primary' | 'secondary';
  },
  'section'
>;

/** The name of the installation popup; a page opened under it tells its opener that the user is back. */
export const codehostPopupName = 'agent-embed-codehost';

/** The message a returning popup posts to its opener. */
export const codehostReturnMessage = 'agent-embed:codehost-returned';

/**
 * What the component shows, as `data-state`: `signed_out`, `loading`, `missing`, `starting`,
 * `redirecting`, `popup` (waiting for the popup), `connected`, `expired`, `inactive` or `error`.
 */
export type CodehostConnectState =
  | 'signed_out'
  | 'loading'
  | 'missing'
  | 'starting'
  | 'redirecting'
  | 'popup'
  | 'connected'
  | 'expired'
  | 'inactive'
  | 'error';

type Phase = 'idle' | 'redirecting' | 'popup';

function viewState(
  { connectionStatus: status, start }: ReturnType<typeof useCodehost>,
  phase: Phase,
  signedIn: boolean,
): CodehostConnectState {
  if (!signedIn) return 'signed_out';
  if (start.status === 'pending') return 'starting';
  if (phase !== 'idle' && status !== 'connected') return phase;
  switch (status) {
    case 'idle':
    case 'loading':
      return 'loading';
    case 'missing':
    case 'connected':
    case 'expired':
    case 'inactive':
    case 'error':
      return status;
    default:
      return status satisfies never;
  }
}

function Time({ value }: { value: string | null | undefined }) {
  const time = timestampOf(value);
  // No time in the answer, or one that is not a date: a dash, never the raw text.
  return typeof value !== 'string' || time === undefined ? (
    <>—</>
  ) : (
    <time dateTime={value}>
      <FormattedText>{(f) => f.dateTime(time)}</FormattedText>
    </time>
  );
}

function defaultNavigate(url: string): void {
  window.location.assign(url);
}

function defaultOpenWindow(url: string, name: string): Window | null {
  return window.open(url, name, 'popup,width=1024,height=760');
}

/** The code-host connection of the signed-in end user, with the install flow. */
export const CodehostConnect = forwardRef<HTMLElement, CodehostConnectProps>(function CodehostConnect(
  {
    returnUrl,
    mode = 'redirect',
    navigate = defaultNavigate,
    openWindow = defaultOpenWindow,
    emphasis = 'primary',
    className,
    ...rest
  },
  ref,
) {
  const text = useAgentLabels().codehostConnect;
  const signedIn = useExternalUser() !== undefined;
  const codehost = useCodehost();
  const { start, refresh, startConnect } = codehost;
  const [phase, setPhase] = useState<Phase>('idle');
  const phaseCheckedAt = useRef<number | undefined>(undefined);
  const headingId = useId();
  const alertRef = useRef<HTMLDivElement>(null);
  const state = viewState(codehost, phase, signedIn);
  const details = codehost.data ?? undefined;

  useEffect(() => {
    if (typeof window === 'undefined') return undefined;
    // This page is the popup coming back to return_url: tell the opener and close.
    if (window.name === codehostPopupName && window.opener !== null) {
      try {
        (window.opener as Window).postMessage({ type: codehostReturnMessage }, window.location.origin);
        window.close();
      } catch {
        // An opener on another origin cannot be told; the page simply stays open.
      }
    }
    const onMessage = (event: MessageEvent) => {
      if (
        event.origin !== window.location.origin ||
        (event.data as { type?: unknown } | null)?.type !== codehostReturnMessage
      )
        return;
      setPhase('idle');
      void refresh();
    };
    // Back from the installation through the back/forward cache: the page was never unloaded.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setPhase('idle');
    };
    window.addEventListener('message', onMessage);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      window.removeEventListener('message', onMessage);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, [refresh]);

  // Any answer about the connection after leaving for the installation is the news to show.
  const checkedAt = codehost.updatedAt;
  useEffect(() => {
    if (phase !== 'idle' && checkedAt !== phaseCheckedAt.current) setPhase('idle');
  }, [phase, checkedAt]);

  useEffect(() => {
    if (start.error !== undefined) alertRef.current?.focus();
  }, [start.error]);

  async function connect() {
    const pending = startConnect(returnUrl ?? window.location.href);
    setPhase('idle');
    const result = await pending;
    if (!result.ok) return;
    // The store already refused anything else; this is the last gate before leaving the page.
    const url = safeHttpUrl(result.data.redirect_url);
    if (url === undefined) return;
    if (mode === 'popup') {
      let popup: Window | null;
      try {
        popup = openWindow(url, codehostPopupName);
      } catch {
        popup = null;
      }
      if (popup !== null) {
        phaseCheckedAt.current = checkedAt;
        setPhase('popup');
        return;
      }
    }
    phaseCheckedAt.current = checkedAt;
    setPhase('redirecting');
    navigate(url);
  }

  const busy = state === 'starting' || state === 'redirecting';
  const installation = details?.installation_status;
  // A status the labels do not know reads as unknown: the API's raw word would be English in every language.
  const installationName = statusLabel(text.installationStatuses, installation);
  const login = textOf(details?.codehost_login);
  const startError = start.error;

  return (
    <section
      ref={ref}
      className={cx('ae-codehost', className)}
      data-state={state}
      aria-labelledby={headingId}
      aria-busy={busy}
      {...rest}
    >
      <h2 id={headingId} className="ae-title">
        <Icon name="branch" />
        {text.heading}
      </h2>
      {!signedIn && <p className="ae-muted">{text.signedOut}</p>}
      {state === 'loading' && <Skeleton rows={1} label={text.loading} />}
      {state === 'missing' && <p className="ae-muted">{text.disconnected}</p>}
      {state === 'expired' && <p className="ae-warning">{text.expired}</p>}
      {state === 'inactive' && <p className="ae-warning">{text.inactive}</p>}
      {state === 'error' && (
        <ErrorAlert
          error={codehost.error}
          title={text.loadErrorTitle}
          context="codehostConnection"
          onRetry={() => void refresh()}
        />
      )}
      {details !== undefined && (state === 'connected' || state === 'expired' || state === 'inactive') && (
        <div className="ae-connection">
          {state === 'connected' && <Icon name="check" className="ae-success-icon" />}
          <span className="ae-connection-text">
            <span className="ae-truncate">{login === '' ? text.connected : text.connectedAs(login)}</span>
            <span className="ae-meta">
              <span
                className="ae-badge"
                data-status={installationName === undefined ? 'unknown' : statusKey(installation)}
              >
                <span className="ae-visually-hidden">{text.installationLabel}: </span>
                {installationName ?? text.installationUnknown}
              </span>
              <span className="ae-hint">
                {/* Without a login the line above already says "Connected": the date alone, not the word twice. */}
                {login !== '' && `${text.connectedLabel} `}
                <Time value={details.connected_at} />
              </span>
            </span>
          </span>
        </div>
      )}
      <div role="status" className="ae-codehost-progress">
        {state === 'starting' && text.starting}
        {state === 'redirecting' && text.redirecting}
        {state === 'popup' && text.popupOpened}
      </div>
      <ErrorAlert ref={alertRef} error={startError} title={text.errorTitle} context="codehostConnection" />
      {signedIn && state !== 'loading' && state !== 'error' && (
        <div className="ae-actions">
          {state !== 'connected' && (
            <button
              type="button"
              className={cx('ae-button', emphasis === 'primary' && 'ae-button-primary')}
              disabled={busy}
              onClick={() => void connect()}
            >
              <Icon name="plug" />
              {state === 'expired' || state === 'inactive' ? text.reconnect : text.connect}
            </button>
          )}
          {(state === 'connected' || state === 'popup') && (
            <button type="button" className="ae-button ae-button-quiet" onClick={() => void refresh()}>
              <Icon name="refresh" />
              {text.refresh}
            </button>
          )}
        </div>
      )}
    </section>
  );
});
