/** Every visible string and aria text of the components, overridable per component through `labels`. */
import type { GenerationStatus } from '../core/index.js';

/** Texts of `GeneratePanel`. */
export interface GeneratePanelLabels {
  heading: string;
  followUpHeading: string;
  promptLabel: string;
  followUpPromptLabel: string;
  promptPlaceholder: string;
  followUpPromptPlaceholder: string;
  promptHint: string;
  /** Shown when the prompt is too short, before anything is sent (the API's own words by default). */
  promptTooShort: string;
  modeLegend: string;
  modeBuild: string;
  modeBuildDescription: string;
  modeDesign: string;
  modeDesignDescription: string;
  submit: string;
  followUpSubmit: string;
  submitting: string;
  cancel: string;
  stopWaiting: string;
  newProject: string;
  /** Title of the box that shows why a request was refused. */
  errorTitle: string;
  /** Which project a follow-up goes to. */
  followUpTarget: (projectId: string) => string;
}

/** Texts of `LiveBuildLog`. */
export interface LiveBuildLogLabels {
  regionLabel: string;
  heading: string;
  idle: string;
  progressLabel: string;
  /** The progress bar's spoken value, from the locale-formatted percentage. */
  progressValue: (percentage: string) => string;
  containerReady: string;
  filesLabel: string;
  /** The file count line, from locale-formatted counts and the raw count (for plurals). */
  fileCount: (count: string, modified: string, total: number) => string;
  fileCreated: string;
  fileModified: string;
  toolsLabel: string;
  /** How many tool steps were not kept (the list is bounded). */
  toolsOmitted: (count: string) => string;
  unknownEvents: (count: string) => string;
  completed: string;
  openApp: string;
  /** Shown instead of a link when the app address is not http(s). */
  unsafeUrl: string;
  creditsExhausted: string;
  creditsExhaustedHint: string;
  buyCredits: string;
  failed: string;
  recovering: string;
  interrupted: string;
  aborted: string;
  /** What the polite live region says when the generation reaches each status. */
  announcements: Record<GenerationStatus, string>;
}

/** Texts of `ProjectStatus`. */
export interface ProjectStatusLabels {
  regionLabel: string;
  heading: string;
  noProject: string;
  loading: string;
  nameLabel: string;
  statusLabel: string;
  appLabel: string;
  openApp: string;
  unsafeUrl: string;
  updatedLabel: string;
  never: string;
  paused: string;
  /** Shown with the error message when polling failed. */
  errorPrefix: string;
  /** Display names of project statuses; unknown ones are shown as sent. */
  projectStatuses: Record<string, string>;
}

/** Texts of `AppPreview`. */
export interface AppPreviewLabels {
  regionLabel: string;
  frameTitle: string;
  empty: string;
  unsafeUrl: string;
  reload: string;
  openInNewTab: string;
  devicesLabel: string;
  mobile: string;
  tablet: string;
  desktop: string;
}

/** Texts of `DeployButton`. Functions get the provider's display name (from `providerNames`). */
export interface DeployButtonLabels {
  /** Display names of providers by path value; unknown ones are shown as given. */
  providerNames: Record<string, string>;
  heading: (provider: string) => string;
  signedOut: string;
  loading: (provider: string) => string;
  connectedAs: (account: string) => string;
  notConnected: (provider: string) => string;
  expired: (provider: string) => string;
  /** Shown under the spec's "provider not found" message. */
  unknownProviderHint: string;
  /** Title of the box shown when the connection could not be checked. */
  loadErrorTitle: string;
  retry: string;
  noProject: string;
  deploy: (provider: string) => string;
  deploying: (provider: string) => string;
  deployed: string;
  deploymentStatus: (status: string) => string;
  openDeployment: string;
  /** Shown instead of a link when the deployment address is not http(s). */
  unsafeUrl: string;
  failedTitle: string;
  connect: (provider: string) => string;
  reconnect: string;
  dialogTitle: (provider: string) => string;
  dialogDescription: (provider: string) => string;
  tokenLabel: (provider: string) => string;
  tokenRequired: string;
  submit: string;
  submitting: string;
  cancel: string;
  /** Title of the box that shows why a token was not accepted. */
  connectErrorTitle: string;
}

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
  expired: string;
  inactive: string;
  loginLabel: string;
  installationLabel: string;
  connectedLabel: string;
  updatedLabel: string;
  /** Display names of installation statuses; unknown ones are shown as sent. */
  installationStatuses: Record<string, string>;
  /** Shown when the detailed view has no installation status. */
  installationUnknown: string;
  errorTitle: string;
}

/** Texts of `RepoPicker`. */
export interface RepoPickerLabels {
  regionLabel: string;
  heading: string;
  signedOut: string;
  /** Shown, with the API's own words below it, while the end user has no code-host connection. */
  notConnected: string;
  searchLabel: string;
  searchPlaceholder: string;
  listLabel: string;
  loading: string;
  empty: string;
  noMatches: (query: string) => string;
  matchCount: (matches: string, loaded: string) => string;
  private: string;
  public: string;
  defaultBranch: (branch: string) => string;
  pageStatus: (page: string, pages: string, total: string) => string;
  loadedCount: (count: string) => string;
  previousPage: string;
  nextPage: string;
  loadMore: string;
  loadErrorTitle: string;
  retry: string;
  selected: (fullName: string) => string;
  noneSelected: string;
  noProject: string;
  link: (fullName: string) => string;
  linking: string;
  linkedTitle: string;
  repositoryLabel: string;
  branchLabel: string;
  accountLabel: string;
  openRepository: string;
  /** Shown instead of a link when a repository address is not http(s). */
  unsafeUrl: string;
  linkErrorTitle: string;
  pushHeading: string;
  pushLinked: string;
  pushing: string;
  newRepositoryLabel: string;
  newRepositoryHint: string;
  newRepositoryRequired: string;
  /** Shown when a new repository has no owner: the code-host login is not known yet. */
  ownerUnknown: string;
  pushNew: string;
  pushedCreated: string;
  pushedExisting: string;
  pushErrorTitle: string;
}

/** Texts of `PlanList`. */
export interface PlanListLabels {
  regionLabel: string;
  heading: string;
  loading: string;
  empty: string;
  errorTitle: string;
  retry: string;
  free: string;
  customPrice: string;
  perMonth: (price: string) => string;
  choose: (plan: string) => string;
}

/** Texts of `AgentBuilder`. */
export interface AgentBuilderLabels {
  regionLabel: string;
  buildLabel: string;
  resultLabel: string;
  shipLabel: string;
  plansLabel: string;
}

/** All component texts. */
export interface AgentLabels {
  /** Display names of generation statuses (badges). */
  status: Record<GenerationStatus, string>;
  generatePanel: GeneratePanelLabels;
  liveBuildLog: LiveBuildLogLabels;
  projectStatus: ProjectStatusLabels;
  appPreview: AppPreviewLabels;
  deployButton: DeployButtonLabels;
  codehostConnect: CodehostConnectLabels;
  repoPicker: RepoPickerLabels;
  planList: PlanListLabels;
  agentBuilder: AgentBuilderLabels;
}

/** A partial override of `AgentLabels`, per component. */
export type AgentLabelsOverride = { [Group in keyof AgentLabels]?: Partial<AgentLabels[Group]> };

const statusNames: Record<GenerationStatus, string> = {
  idle: 'Ready',
  submitting: 'Sending',
  provisioning: 'Setting up',
  generating: 'Generating',
  recovering: 'Reconnecting',
  completed: 'Completed',
  credits_exhausted: 'Out of credits',
  failed: 'Failed',
  interrupted: 'Interrupted',
  aborted: 'Cancelled',
};

/** The default (English) texts. */
export const defaultLabels: AgentLabels = {
  status: statusNames,
  generatePanel: {
    heading: 'Create an app',
    followUpHeading: 'Refine your app',
    promptLabel: 'Describe the app you want',
    followUpPromptLabel: 'What should change?',
    promptPlaceholder: 'A booking site for a yoga studio with a class calendar and sign-up form',
    followUpPromptPlaceholder: 'Make the header sticky and add a contact page',
    promptHint: 'At least 10 characters.',
    promptTooShort: 'The prompt must be at least 10 characters.',
    modeLegend: 'Mode',
    modeBuild: 'Build',
    modeBuildDescription: 'A full-stack app.',
    modeDesign: 'Design',
    modeDesignDescription: 'A frontend-focused design.',
    submit: 'Generate',
    followUpSubmit: 'Send follow-up',
    submitting: 'Working…',
    cancel: 'Cancel',
    stopWaiting: 'Stop waiting',
    newProject: 'Start a new project',
    errorTitle: 'The request was not accepted',
    followUpTarget: (projectId) => `Follow-up on project ${projectId}`,
  },
  liveBuildLog: {
    regionLabel: 'Build progress',
    heading: 'Build progress',
    idle: 'Nothing is being built yet.',
    progressLabel: 'Container setup',
    progressValue: (percentage) => `${percentage} done`,
    containerReady: 'Container ready.',
    filesLabel: 'Generated files',
    fileCount: (count, modified, total) => `${count} ${total === 1 ? 'file' : 'files'}, ${modified} modified`,
    fileCreated: 'new',
    fileModified: 'modified',
    toolsLabel: 'Agent steps',
    toolsOmitted: (count) => `${count} earlier steps not shown`,
    unknownEvents: (count) => `${count} other updates`,
    completed: 'Your app is ready.',
    openApp: 'Open the app',
    unsafeUrl: 'The app address is not a web address, so it is not shown as a link.',
    creditsExhausted: 'Your credits ran out.',
    creditsExhaustedHint: 'Buy more credits to continue building.',
    buyCredits: 'Buy credits',
    failed: 'The generation failed.',
    recovering: 'The connection was lost. Checking how the generation ended…',
    interrupted: 'The connection was lost and the outcome is unknown.',
    aborted: 'The generation was cancelled.',
    announcements: {
      idle: '',
      submitting: 'Sending your request.',
      provisioning: 'Setting up the container.',
      generating: 'Generating code.',
      recovering: 'Connection lost. Checking how the generation ended.',
      completed: 'Your app is ready.',
      credits_exhausted: 'Your credits ran out.',
      failed: 'The generation failed.',
      interrupted: 'The connection was lost.',
      aborted: 'The generation was cancelled.',
    },
  },
  projectStatus: {
    regionLabel: 'Project status',
    heading: 'Project',
    noProject: 'No project yet.',
    loading: 'Loading the project status…',
    nameLabel: 'Name',
    statusLabel: 'Status',
    appLabel: 'App',
    openApp: 'Open the app',
    unsafeUrl: 'Not a web address',
    updatedLabel: 'Last updated',
    never: 'Not yet',
    paused: 'Updates are paused while this page is hidden.',
    errorPrefix: 'Could not load the status:',
    projectStatuses: {
      provisioning: 'Setting up',
      generating: 'Generating',
      ready: 'Ready',
      failed: 'Failed',
      credits_exhausted: 'Out of credits',
    },
  },
  appPreview: {
    regionLabel: 'App preview',
    frameTitle: 'Preview of the generated app',
    empty: 'The preview appears here when the app is ready.',
    unsafeUrl: 'The app address is not a web address, so it cannot be previewed.',
    reload: 'Reload',
    openInNewTab: 'Open in a new tab',
    devicesLabel: 'Preview width',
    mobile: 'Mobile',
    tablet: 'Tablet',
    desktop: 'Desktop',
  },
  deployButton: {
    providerNames: { vercel: 'Vercel', netlify: 'Netlify' },
    heading: (provider) => `Deploy to ${provider}`,
    signedOut: 'Sign in to deploy your app.',
    loading: (provider) => `Checking your ${provider} connection…`,
    connectedAs: (account) => `Connected as ${account}`,
    notConnected: (provider) => `Not connected to ${provider} yet.`,
    expired: (provider) => `Your ${provider} connection has expired. Connect again to deploy.`,
    unknownProviderHint: 'Deploying to this provider is not available.',
    loadErrorTitle: 'Could not check the connection',
    retry: 'Try again',
    noProject: 'Generate an app first, then deploy it.',
    deploy: (provider) => `Deploy to ${provider}`,
    deploying: (provider) => `Deploying to ${provider}…`,
    deployed: 'Deployed.',
    deploymentStatus: (status) => `Status: ${status}`,
    openDeployment: 'Open the deployment',
    unsafeUrl: 'The deployment address is not a web address, so it is not shown as a link.',
    failedTitle: 'The deployment failed',
    connect: (provider) => `Connect ${provider}`,
    reconnect: 'Use another account',
    dialogTitle: (provider) => `Connect ${provider}`,
    dialogDescription: (provider) => `Paste a ${provider} access token. It is sent once to be checked and stored for your account; this page does not keep it.`,
    tokenLabel: (provider) => `${provider} access token`,
    tokenRequired: 'Enter an access token.',
    submit: 'Connect',
    submitting: 'Connecting…',
    cancel: 'Cancel',
    connectErrorTitle: 'The token was not accepted',
  },
  codehostConnect: {
    regionLabel: 'Code host',
    heading: 'Code host',
    signedOut: 'Sign in to connect a code host.',
    loading: 'Checking the code-host connection…',
    disconnected: 'No code host is connected yet.',
    connect: 'Connect GitHub',
    reconnect: 'Connect again',
    refresh: 'Refresh',
    starting: 'Opening the installation page…',
    redirecting: 'Taking you to the installation page…',
    popupOpened: 'Finish the installation in the window that opened. This page updates when you come back.',
    connectedAs: (login) => `Connected as ${login}`,
    expired: 'The code-host connection has expired. Connect again to keep pushing code.',
    inactive: 'The code-host app is not active for this account. Install it again to continue.',
    loginLabel: 'Account',
    installationLabel: 'Installation',
    connectedLabel: 'Connected',
    updatedLabel: 'Updated',
    installationStatuses: { active: 'Active', suspended: 'Suspended', deleted: 'Removed' },
    installationUnknown: 'Unknown',
    errorTitle: 'Could not connect the code host',
  },
  repoPicker: {
    regionLabel: 'Repositories',
    heading: 'Repository',
    signedOut: 'Sign in to choose a repository.',
    notConnected: 'Connect a code host to choose a repository.',
    searchLabel: 'Search repositories',
    searchPlaceholder: 'Filter the loaded repositories',
    listLabel: 'Repositories',
    loading: 'Loading repositories…',
    empty: 'No repositories yet.',
    noMatches: (query) => `No loaded repository matches “${query}”.`,
    matchCount: (matches, loaded) => `${matches} of ${loaded} loaded repositories match.`,
    private: 'Private',
    public: 'Public',
    defaultBranch: (branch) => `default branch ${branch}`,
    pageStatus: (page, pages, total) => `Page ${page} of ${pages} · ${total} repositories`,
    loadedCount: (count) => `${count} repositories loaded`,
    previousPage: 'Previous page',
    nextPage: 'Next page',
    loadMore: 'Load more',
    loadErrorTitle: 'Could not load the repositories',
    retry: 'Try again',
    selected: (fullName) => `Selected: ${fullName}`,
    noneSelected: 'Choose a repository from the list.',
    noProject: 'Generate an app first to link or push it.',
    link: (fullName) => `Link ${fullName}`,
    linking: 'Linking…',
    linkedTitle: 'Linked repository',
    repositoryLabel: 'Repository',
    branchLabel: 'Branch',
    accountLabel: 'Account',
    openRepository: 'Open the repository',
    unsafeUrl: 'Not a web address',
    linkErrorTitle: 'The repository was not linked',
    pushHeading: 'Push the code',
    pushLinked: 'Push to the linked repository',
    pushing: 'Pushing…',
    newRepositoryLabel: 'New repository name',
    newRepositoryHint: 'Created under your account if it does not exist yet. Use owner/name for another owner.',
    newRepositoryRequired: 'Enter a repository name.',
    ownerUnknown: 'Connect the code host first, or use owner/name.',
    pushNew: 'Create and push',
    pushedCreated: 'Repository created and code pushed.',
    pushedExisting: 'Code pushed to the existing repository.',
    pushErrorTitle: 'The code was not pushed',
  },
  planList: {
    regionLabel: 'Plans',
    heading: 'Plans',
    loading: 'Loading plans…',
    empty: 'No plans are available.',
    errorTitle: 'Could not load the plans',
    retry: 'Try again',
    free: 'Free',
    customPrice: 'Custom pricing',
    perMonth: (price) => `${price} / month`,
    choose: (plan) => `Choose ${plan}`,
  },
  agentBuilder: {
    regionLabel: 'App builder',
    buildLabel: 'Build',
    resultLabel: 'Result',
    shipLabel: 'Deploy and code',
    plansLabel: 'Plans',
  },
};

/** Merges an override into the defaults, one component group at a time. */
export function mergeLabels(override: AgentLabelsOverride | undefined): AgentLabels {
  if (override === undefined) return defaultLabels;
  return {
    status: { ...defaultLabels.status, ...override.status },
    generatePanel: { ...defaultLabels.generatePanel, ...override.generatePanel },
    liveBuildLog: {
      ...defaultLabels.liveBuildLog,
      ...override.liveBuildLog,
      announcements: { ...defaultLabels.liveBuildLog.announcements, ...override.liveBuildLog?.announcements },
    },
    projectStatus: {
      ...defaultLabels.projectStatus,
      ...override.projectStatus,
      projectStatuses: { ...defaultLabels.projectStatus.projectStatuses, ...override.projectStatus?.projectStatuses },
    },
    appPreview: { ...defaultLabels.appPreview, ...override.appPreview },
    deployButton: {
      ...defaultLabels.deployButton,
      ...override.deployButton,
      providerNames: { ...defaultLabels.deployButton.providerNames, ...override.deployButton?.providerNames },
    },
    codehostConnect: {
      ...defaultLabels.codehostConnect,
      ...override.codehostConnect,
      installationStatuses: { ...defaultLabels.codehostConnect.installationStatuses, ...override.codehostConnect?.installationStatuses },
    },
    repoPicker: { ...defaultLabels.repoPicker, ...override.repoPicker },
    planList: { ...defaultLabels.planList, ...override.planList },
    agentBuilder: { ...defaultLabels.agentBuilder, ...override.agentBuilder },
  };
}
