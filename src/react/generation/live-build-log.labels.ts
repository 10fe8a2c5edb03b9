import type { GenerationStatus } from '../../core/index.js';

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

/** The default (English) texts of `LiveBuildLog`. */
export const defaultLiveBuildLogLabels: LiveBuildLogLabels = {
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
};
