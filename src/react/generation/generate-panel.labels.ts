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

/** The default (English) texts of `GeneratePanel`. */
export const defaultGeneratePanelLabels: GeneratePanelLabels = {
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
};
