/** Texts of `CodehostConnect`. */
export interface CodehostConnectLabels {
  regionLabel: string;
  heading: string;
  signedOut: string;
  loading: string;
  disconnected: string;
  connect: string;
  reconnect: string;
  refresh: string;
  starting: string;
  redirecting: string;
  popupOpened: string;
  connectedAs: (login: string) => string;
  /** Said instead of `connectedAs` when the answer names no login. */
  connected: string;
  expired: string;
  inactive: string;
  loginLabel: string;
  installationLabel: string;
  connectedLabel: string;
  updatedLabel: string;
  /** Display names of installation statuses; any other status is shown as `installationUnknown`. */
  installationStatuses: Record<string, string>;
  /** Shown when the detailed view has no installation status, or one without a display name. */
  installationUnknown: string;
  errorTitle: string;
  /** The connection could not be checked. */
  loadErrorTitle: string;
}

/** The default (English) texts of `CodehostConnect`. */
export const defaultCodehostConnectLabels: CodehostConnectLabels = {
  regionLabel: 'Save the code to GitHub',
  heading: 'Save the code to GitHub',
  signedOut: 'Sign in to connect GitHub.',
  loading: 'Checking your GitHub connection…',
  disconnected: 'Connect GitHub to keep your app’s code in a repository.',
  connect: 'Connect GitHub',
  reconnect: 'Connect again',
  refresh: 'Refresh',
  starting: 'Opening the installation page…',
  redirecting: 'Taking you to the installation page…',
  popupOpened: 'Finish the installation in the window that opened. This page updates when you come back.',
  connectedAs: (login) => `Connected as ${login}`,
  connected: 'Connected',
  expired: 'Your GitHub connection has expired. Connect again to keep saving your code.',
  inactive: 'The GitHub app is not active for this account. Install it again to continue.',
  loginLabel: 'Account',
  installationLabel: 'Installation',
  connectedLabel: 'Connected',
  updatedLabel: 'Updated',
  installationStatuses: { active: 'Active', suspended: 'Suspended', deleted: 'Removed' },
  installationUnknown: 'Unknown',
  errorTitle: 'Could not connect GitHub',
  loadErrorTitle: 'Could not check your GitHub connection',
};
