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

/** All component texts. */
export interface AgentLabels {
  /** Display names of generation statuses (badges). */
  status: Record<GenerationStatus, string>;
  generatePanel: GeneratePanelLabels;
  liveBuildLog: LiveBuildLogLabels;
  projectStatus: ProjectStatusLabels;
  appPreview: AppPreviewLabels;
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
    containerReady: 'Container ready. Generating code…',
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
  };
}
