/** Texts of `GeneratePanel`. */
export interface GeneratePanelLabels {
  heading: string;
  followUpHeading: string;
  promptLabel: string;
  followUpPromptLabel: string;
  promptPlaceholder: string;
  followUpPromptPlaceholder: string;
  promptHint: string;
  /** The hint under a follow-up's prompt. */
  followUpPromptHint: string;
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
  /** Closes the stream (or its recovery); the build may go on and its end still shows. */
  cancel: string;
  newProject: string;
  /** Title of the box that shows why a request was refused. */
  errorTitle: string;
  /** Its title when the refused request was a change to an existing app (a follow-up). */
  followUpErrorTitle: string;
  /**
   * Title of that box when the connection failed before any answer to a new project's request, which may have reached
   * the server all the same (an answer that refused it has `errorTitle`).
   */
  connectionDroppedTitle: string;
  /** Its text: a build the server started anyway shows up in the end user's projects (the store looks again). */
  connectionDroppedHint: string;
  /** Its text for a change to an existing app (a follow-up), which may have reached the server too. */
  followUpConnectionDroppedHint: string;
  /** The next step when a request is refused for want of credits (with `onBuyCredits` or `buyCreditsUrl`). */
  buyCredits: string;
  /** Names the project follow-ups go to. */
  followUpTarget: (projectName: string) => string;
  /** Stands for the project's name until the status poll has told it. */
  unnamedProject: string;
  /** Why a follow-up waits: the given project is being built elsewhere (another tab, an earlier visit). */
  followUpWhenBuilt: string;
}

/** The default (English) texts of `GeneratePanel`. */
export const defaultGeneratePanelLabels: GeneratePanelLabels = {
  heading: 'Create an app',
  followUpHeading: 'Refine your app',
  promptLabel: 'Describe the app you want',
  followUpPromptLabel: 'What should change?',
  promptPlaceholder: 'A booking site for a yoga studio with a class calendar and sign-up form',
  followUpPromptPlaceholder: 'Make the header sticky and add a contact page',
  promptHint: 'Say what it is for, the pages it needs and the look you want.',
  followUpPromptHint: 'Describe one change at a time.',
  promptTooShort: 'The prompt must be at least 10 characters.',
  modeLegend: 'Mode',
  modeBuild: 'Build',
  modeBuildDescription: 'A full-stack app.',
  modeDesign: 'Design',
  modeDesignDescription: 'A frontend-focused design.',
  submit: 'Generate',
  followUpSubmit: 'Send follow-up',
  submitting: 'Working…',
  cancel: 'Stop watching',
  newProject: 'New project',
  errorTitle: 'Your app could not be started',
  followUpErrorTitle: 'Your change could not be sent',
  connectionDroppedTitle: 'The connection dropped',
  connectionDroppedHint: 'If your app started building anyway, it will show up among your projects.',
  followUpConnectionDroppedHint: 'Your change may have reached the server. Check your app before sending it again.',
  buyCredits: 'Buy credits',
  followUpTarget: (projectName) => `Changes go to ${projectName}.`,
  unnamedProject: 'your app',
  followUpWhenBuilt: 'This app is being built. You can send a follow-up once it is done.',
};
