'use client';
/**
 * Deploys a project to a provider. Without a connection (or with an expired one) a dialog asks for the
 * provider token: a password field read on submit, gone with the dialog once accepted (kept to be corrected
 * after a refusal), never held in React state.
 */
import { statusKey, statusLabel, textOf } from '../shared/outside-values.js';
import { forwardRef, useId } from 'react';
import { safeHttpUrl, type Deployment } from '../../core/index.js';
import { ErrorAlert } from '../shared/error-alert.js';
import { Icon } from '../shared/icons.js';
import { AddressLink } from '../shared/external-link.js';
import { TokenDialog } from './deploy-token-dialog.js';
import { useRetryCountdown } from '../shared/use-retry-countdown.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { useExternalUser } from '../provider/use-agent-store.js';
import { useDeployment } from './use-deployment.js';
import { useAppProject } from './use-app-project.js';
import { cx } from '../shared/class-names.js';
import type { WithRootProps } from '../shared/root-props.js';
import { useControllable } from '../shared/use-controllable.js';
import { useLatestCallback } from '../shared/use-latest-callback.js';

/** Props of `DeployButton`: its own, plus any attribute of its root `section`. */
export type DeployButtonProps = WithRootProps<
  {
    /** The provider's path value, e.g. `vercel` or `netlify`. */
    provider: string;
    /** The project to deploy; the provider's current generation's project by default. */
    projectId?: string;
    /** Called once per successful deployment. */
    onDeployed?: (deployment: Deployment) => void;
    /** Whether the connect dialog is open, controlled (with `onDialogOpenChange`). */
    dialogOpen?: boolean;
    /** Opens the connect dialog on first render, showing a connect under way in the store or its refusal. */
    defaultDialogOpen?: boolean;
    /** Called when the connect dialog opens or closes. */
    onDialogOpenChange?: (open: boolean) => void;
  },
  'section'
>;

/**
 * What the component shows, as `data-state`: the deploy's once one was asked for (`deploying`, `deployed`, `failed`),
 * else the connection's (`signed_out`, `loading`, `missing`, `expired`, `connected`, `unknown_provider`, `error`).
 */
export type DeployButtonState =
  | 'signed_out'
  | 'loading'
  | 'missing'
  | 'expired'
  | 'connected'
  | 'unknown_provider'
  | 'error'
  | 'deploying'
  | 'deployed'
  | 'failed';

const deployShown = { pending: 'deploying', success: 'deployed', error: 'failed' } as const;

function viewState(
  { connectionStatus: status, deployment }: ReturnType<typeof useDeployment>,
  signedIn: boolean,
): DeployButtonState {
  if (!signedIn) return 'signed_out';
  if (deployment.status !== 'idle') return deployShown[deployment.status];
  switch (status) {
    case 'idle':
    case 'loading':
      return 'loading';
    case 'missing':
    case 'expired':
    case 'connected':
    case 'unknown_provider':
    case 'error':
      return status;
    default:
      return status satisfies never;
  }
}

/** A deploy button with the provider connection it needs. */
export const DeployButton = forwardRef<HTMLElement, DeployButtonProps>(function DeployButton(props, ref) {
  const {
    provider,
    projectId,
    onDeployed,
    dialogOpen: dialogOpenProp,
    defaultDialogOpen = false,
    onDialogOpenChange,
    className,
    ...rest
  } = props;
  const text = useAgentLabels().deployButton;
  const providerName = text.providerNames[provider] ?? provider;
  const app = useAppProject(projectId);
  const targetProject = app.projectId;
  const connection = useDeployment(provider, targetProject);
  const { connectionStatus, deployment, live, connect, deploy, refresh } = connection;
  const signedIn = useExternalUser() !== undefined;
  const state = viewState(connection, signedIn);
  const [dialogOpen, setDialogOpen] = useControllable(dialogOpenProp, defaultDialogOpen, onDialogOpenChange);
  const callOnDeployed = useLatestCallback(onDeployed);
  const headingId = useId();

  const deploying = deployment.status === 'pending';
  // A 429 holds the deploy button until its countdown (shown in the alert) reaches zero.
  const waitSeconds = useRetryCountdown(deployment.error);
  const canDeploy =
    signedIn &&
    targetProject !== undefined &&
    !app.building &&
    !deploying &&
    !(waitSeconds !== undefined && waitSeconds > 0) &&
    connectionStatus !== 'unknown_provider' &&
    connectionStatus !== 'loading' &&
    connectionStatus !== 'idle';
  // What was published stays on screen beside a later deploy's failure: the live deployment, not the latest run.
  const site = live;
  const deployed = site !== undefined;
  // Only a status the labels know is shown: an unknown one would be the API's raw word, in English.
  const statusName = statusLabel(text.deploymentStatuses, site?.status);
  const deploymentUrl = safeHttpUrl(site?.url);

  function startDeploy() {
    void deploy().then((result) => {
      if (result.ok) callOnDeployed(result.data);
    });
  }

  return (
    <section
      ref={ref}
      className={cx('ae-deploy', className)}
      data-state={state}
      data-connection={connectionStatus}
      aria-labelledby={headingId}
      {...rest}
    >
      <h2 id={headingId} className="ae-title">
        <Icon name="rocket" />
        {text.heading(providerName)}
      </h2>
      {!signedIn ? (
        <p className="ae-muted">{text.signedOut}</p>
      ) : (
        <>
          <ConnectionSummary connection={connection} providerName={providerName} onRetry={() => void refresh()} />
          {connectionStatus === 'connected' && (targetProject === undefined || app.building) && (
            <p className="ae-hint">{targetProject === undefined ? (app.gone ?? text.noProject) : text.building}</p>
          )}
          {(connectionStatus === 'missing' || connectionStatus === 'expired') && (
            <div className="ae-actions">
              <button type="button" className="ae-button ae-button-primary" onClick={() => setDialogOpen(true)}>
                <Icon name="plug" />
                {text.connect(providerName)}
              </button>
            </div>
          )}
          {connectionStatus === 'connected' && (
            <div className="ae-actions">
              {/* Once deployed, the site is the result; deploying again is there, but no longer the next step. */}
              <button
                type="button"
                className={cx('ae-button', !deployed && 'ae-button-primary')}
                disabled={!canDeploy}
                onClick={startDeploy}
              >
                <Icon name="rocket" />
                {deployed ? text.redeploy : text.deploy(providerName)}
              </button>
              <button type="button" className="ae-button ae-button-quiet" onClick={() => setDialogOpen(true)}>
                {text.reconnect}
              </button>
            </div>
          )}
        </>
      )}
      <div role="status" className="ae-deploy-progress">
        {deploying && (
          <span className="ae-inline-status">
            <span className="ae-spinner" aria-hidden="true" />
            {text.deploying(providerName)}
          </span>
        )}
        {site !== undefined && (
          <div className="ae-outcome" data-outcome="completed">
            <p className="ae-outcome-title">
              <Icon name="check" />
              <span>{text.deployed}</span>
              {statusName !== undefined && (
                <span className="ae-badge" data-status={statusKey(site?.status)}>
                  {statusName}
                </span>
              )}
            </p>
            {deploymentUrl !== undefined ? (
              <AddressLink className="ae-deploy-url" url={deploymentUrl} label={text.openDeployment} />
            ) : (
              site.url !== null && site.url !== undefined && <p className="ae-muted">{text.unsafeUrl}</p>
            )}
          </div>
        )}
      </div>
      {/* The deploy button stays beside it: the alert needs no retry of its own. */}
      <ErrorAlert
        error={deployment.error}
        // Beside a live site, what failed is the new version, not the site.
        title={site === undefined ? text.failedTitle : text.redeployFailedTitle}
        context="deployment"
      />
      {signedIn && (
        <TokenDialog
          open={dialogOpen}
          onOpenChange={setDialogOpen}
          providerName={providerName}
          connecting={connection.connecting}
          onToken={async (token) => {
            const result = await connect(token);
            if (!result.ok) return false;
            setDialogOpen(false);
            return true;
          }}
        />
      )}
    </section>
  );
});

function ConnectionSummary({
  connection,
  providerName,
  onRetry,
}: {
  connection: ReturnType<typeof useDeployment>;
  providerName: string;
  onRetry: () => void;
}) {
  const text = useAgentLabels().deployButton;
  const status = connection.connectionStatus;
  switch (status) {
    case 'idle':
    case 'loading':
      return <p className="ae-muted">{text.loading(providerName)}</p>;
    case 'connected': {
      const account = connection.data;
      // The heading names the provider already; an account name that repeats it in brackets says it twice.
      const email = textOf(account?.provider_account_email);
      const name = textOf(account?.provider_account_name).replace(` (${providerName})`, '') || email;
      return (
        <p className="ae-connection">
          <Icon name="check" className="ae-success-icon" />
          <span className="ae-connection-text">
            <span className="ae-truncate">{name === '' ? text.connected : text.connectedAs(name)}</span>
            {email !== '' && email !== name && (
              <span className="ae-muted ae-truncate" title={email}>
                {email}
              </span>
            )}
          </span>
        </p>
      );
    }
    case 'expired':
      return <p className="ae-warning">{text.expired(providerName)}</p>;
    case 'missing':
      return <p className="ae-muted">{text.connectFirst(providerName)}</p>;
    case 'unknown_provider':
      return <p className="ae-note">{text.unknownProviderHint}</p>;
    case 'error':
      return (
        <ErrorAlert
          error={connection.error}
          title={text.loadErrorTitle}
          context="deploymentConnection"
          onRetry={onRetry}
        />
      );
    default:
      return status satisfies never;
  }
}
