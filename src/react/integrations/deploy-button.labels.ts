/** Texts of `DeployButton`. Functions get the provider's display name (from `providerNames`). */
export interface DeployButtonLabels {
  /** Display names of providers by path value; unknown ones are shown as given. */
  providerNames: Record<string, string>;
  heading: (provider: string) => string;
  signedOut: string;
  loading: (provider: string) => string;
  connectedAs: (account: string) => string;
  /** Said instead of `connectedAs` when the answer names no account. */
  connected: string;
  notConnected: (provider: string) => string;
  expired: (provider: string) => string;
  /** Shown under the spec's "provider not found" message. */
  unknownProviderHint: string;
  /** Title of the box shown when the connection could not be checked. */
  loadErrorTitle: string;
  retry: string;
  noProject: string;
  /** Shown while a build changes the app: it is deployed once the build is done. */
  building: string;
  deploy: (provider: string) => string;
  /** The deploy button once the project is deployed. */
  redeploy: string;
  deploying: (provider: string) => string;
  deployed: string;
  /** Display names of deployment statuses; a status without one shows no badge. */
  deploymentStatuses: Record<string, string>;
  /** The reason beside a connect button when no app exists yet. */
  connectFirst: (provider: string) => string;
  openDeployment: string;
  /** Shown instead of a link when the deployment address is not http(s). */
  unsafeUrl: string;
  failedTitle: string;
  /** Title of a failed deploy while an earlier one stays live (shown above it). */
  redeployFailedTitle: string;
  connect: (provider: string) => string;
  reconnect: string;
  dialogTitle: (provider: string) => string;
  dialogDescription: (provider: string) => string;
  tokenLabel: (provider: string) => string;
  tokenRequired: string;
  /** Under the field when the API refused the token itself (its own words go to `onError`). */
  tokenRejected: string;
  submit: string;
  submitting: string;
  cancel: string;
  /** Title of the box that shows why a token was not accepted. */
  connectErrorTitle: string;
}

/** The default (English) texts of `DeployButton`. */
export const defaultDeployButtonLabels: DeployButtonLabels = {
  providerNames: { vercel: 'Vercel', netlify: 'Netlify' },
  heading: () => 'Publish to the web',
  signedOut: 'Sign in to deploy your app.',
  loading: (provider) => `Checking your ${provider} connection…`,
  connectedAs: (account) => `Connected as ${account}`,
  connected: 'Connected',
  notConnected: (provider) => `Not connected to ${provider} yet.`,
  expired: (provider) => `Your ${provider} connection has expired. Connect again to deploy.`,
  unknownProviderHint: 'Deploying to this provider is not available.',
  loadErrorTitle: 'Could not check your connection',
  retry: 'Try again',
  noProject: 'Generate an app first, then deploy it.',
  building: 'You can deploy once the changes are built.',
  deploy: (provider) => `Deploy to ${provider}`,
  redeploy: 'Redeploy',
  deploying: (provider) => `Deploying to ${provider}…`,
  deployed: 'Deployed',
  deploymentStatuses: { ready: 'Live', building: 'Building', queued: 'Queued', error: 'Failed', canceled: 'Cancelled' },
  connectFirst: (provider) => `Connect your ${provider} account to deploy your app.`,
  openDeployment: 'Open the deployment',
  unsafeUrl: 'The deployment address is not a web address, so it is not shown as a link.',
  failedTitle: 'The deployment failed',
  redeployFailedTitle: 'The new version was not deployed; the site stays as it was',
  connect: (provider) => `Connect ${provider}`,
  reconnect: 'Use another account',
  dialogTitle: (provider) => `Connect ${provider}`,
  dialogDescription: (provider) =>
    `Create a token in your ${provider} account settings (Tokens), then paste it here. It is checked once and kept for your account, not in this page.`,
  tokenLabel: (provider) => `${provider} access token`,
  tokenRequired: 'Enter an access token.',
  tokenRejected: 'This token was not accepted. Check that it is complete and still valid, then paste it again.',
  submit: 'Connect',
  submitting: 'Connecting…',
  cancel: 'Cancel',
  connectErrorTitle: 'The token was not accepted',
};
