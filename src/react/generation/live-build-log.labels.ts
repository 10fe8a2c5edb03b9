import type { ProgressStage, ProjectPhase } from '../../core/index.js';
import { plural } from '../../locales/plural.js';

/** Texts of `LiveBuildLog`. */
export interface LiveBuildLogLabels {
  regionLabel: string;
  heading: string;
  idle: string;
  progressLabel: string;
  /** The progress bar's spoken value, from the locale-formatted percentage. */
  progressValue: (percentage: string) => string;
  /** What the progress line says in each stage (the container's own messages are the service's, in its words). */
  stages: Record<ProgressStage, string>;
  /** Tool ids as words; a tool not named here reads as `otherTool`. */
  toolNames: Record<string, string>;
  /** A step of a tool `toolNames` does not name: its id is not words in the end user's language. */
  otherTool: string;
  filesLabel: string;
  /** The file count line, from locale-formatted created and modified counts and the raw total (for plurals). */
  fileCount: (created: string, modified: string, total: number) => string;
  fileCreated: string;
  fileModified: string;
  toolsLabel: string;
  /** How many tool steps were not kept (the list is bounded). */
  toolsOmitted: (count: string, value: number) => string;
  /** How many updates of a kind this version does not know arrived (locale-formatted, then as a number). */
  unknownEvents: (count: string, value: number) => string;
  completed: string;
  openApp: string;
  /** Shown instead of a link when the app address is not http(s). */
  unsafeUrl: string;
  creditsExhausted: string;
  creditsExhaustedHint: string;
  buyCredits: string;
  failed: string;
  /** The title when a follow-up failed: the app from before is still there. */
  changeFailed: string;
  recovering: string;
  /** A build this page did not start (another tab, an earlier visit): only its status is known. */
  buildingElsewhere: string;
  interrupted: string;
  /** The person stopped watching; the build goes on on the server. */
  stopped: string;
  stoppedHint: string;
  /** Instead of `stoppedHint` when the person stopped before the project was named: this page cannot follow it. */
  stoppedUnnamedHint: string;
  /** While stopped or reconnecting, a status check was refused for too many requests: when the next one goes. */
  checkingIn: (seconds: string) => string;
  /** What the polite live region says when the project reaches each phase. */
  announcements: Record<ProjectPhase, string>;
}

/** The default (English) texts of `LiveBuildLog`. */
export const defaultLiveBuildLogLabels: LiveBuildLogLabels = {
  regionLabel: 'Build progress',
  heading: 'Build progress',
  idle: 'Nothing is being built yet.',
  progressLabel: 'Build progress',
  progressValue: (percentage) => `${percentage} done`,
  stages: {
    none: '',
    sending: 'Sending your request…',
    container: 'Preparing a place for your app…',
    generating: 'Writing your app…',
    done: 'Finished.',
  },
  otherTool: 'Step',
  toolNames: {
    plan: 'Planning',
    write_files: 'Writing files',
    install_dependencies: 'Installing dependencies',
    run_build: 'Building',
    run_tests: 'Testing',
    build: 'Building',
    read_context: 'Reading context',
  },
  filesLabel: 'Generated files',
  fileCount: (created, modified, total) =>
    modified === '0'
      ? plural('en', total, { one: `${created} new file`, other: `${created} new files` })
      : created === '0'
        ? plural('en', total, { one: `${modified} changed file`, other: `${modified} changed files` })
        : plural('en', total, {
            one: `${created} new, ${modified} changed file`,
            other: `${created} new, ${modified} changed files`,
          }),
  fileCreated: 'new',
  fileModified: 'modified',
  toolsLabel: 'Agent steps',
  toolsOmitted: (count, value) =>
    plural('en', value, { one: `${count} earlier step not shown`, other: `${count} earlier steps not shown` }),
  unknownEvents: (count, value) =>
    plural('en', value, { one: `${count} other update`, other: `${count} other updates` }),
  completed: 'Your app is ready.',
  openApp: 'Open the app',
  unsafeUrl: 'The app address is not a web address, so it is not shown as a link.',
  creditsExhausted: 'Your credits ran out.',
  creditsExhaustedHint: 'Buy more credits to continue building.',
  buyCredits: 'Buy credits',
  failed: 'The build failed.',
  changeFailed: 'The change failed.',
  recovering: 'The connection dropped. Reconnecting to your build…',
  buildingElsewhere: 'This app is being built. The result will show up here when it is done.',
  interrupted: 'The connection was lost and we could not find out how the build ended.',
  stopped: 'You stopped watching this build.',
  stoppedHint: 'It may still finish on the server; the result will show up here when it does.',
  stoppedUnnamedHint: 'If the server builds it anyway, the app will be among your projects.',
  checkingIn: (seconds) => `Checking again in ${seconds} s.`,
  announcements: {
    idle: '',
    submitting: 'Sending your request.',
    provisioning: 'Preparing a place for your app.',
    generating: 'Writing your app.',
    recovering: 'Connection dropped. Reconnecting to your build.',
    stopped: 'Stopped watching. The build may still finish.',
    ready: 'Your app is ready.',
    credits_exhausted: 'Your credits ran out.',
    failed: 'The build failed.',
    interrupted: 'The connection was lost.',
    gone: 'This project could not be found.',
  },
};
