import type { ProjectPhase } from '../../core/index.js';

/** Texts of `AppPreview`. */
export interface AppPreviewLabels {
  regionLabel: string;
  frameTitle: string;
  empty: string;
  /** What the empty stage says while there is no app to show yet, by phase. */
  waiting: Record<ProjectPhase, string>;
  /** The stage after the person stopped watching a build before its project was named (it cannot be followed). */
  stoppedUnnamed: string;
  unsafeUrl: string;
  /** Beside the preview while a change to the app shown is being built. */
  updating: string;
  reload: string;
  openInNewTab: string;
  devicesLabel: string;
  mobile: string;
  tablet: string;
  desktop: string;
}

/** The default (English) texts of `AppPreview`. */
export const defaultAppPreviewLabels: AppPreviewLabels = {
  regionLabel: 'App preview',
  frameTitle: 'Preview of the generated app',
  empty: 'Your app will appear here.',
  waiting: {
    idle: '',
    submitting: 'Your app will appear here when it is built.',
    provisioning: 'Your app will appear here when it is built.',
    generating: 'Your app will appear here when it is built.',
    recovering: 'Reconnecting to your build…',
    stopped: 'The build may still finish on the server; it will appear here when it does.',
    ready: '',
    failed: 'The build did not finish, so there is nothing to show.',
    credits_exhausted: 'The build stopped when the credits ran out.',
    interrupted: 'We could not find out how the build ended.',
    gone: 'This project could not be found. It may have been removed; start a new one.',
  },
  stoppedUnnamed: 'If the server builds it anyway, the app will be among your projects.',
  unsafeUrl: 'The app address is not a web address, so it cannot be previewed.',
  updating: 'Updating your app…',
  reload: 'Reload',
  openInNewTab: 'Open the app',
  devicesLabel: 'Preview width',
  mobile: 'Mobile',
  tablet: 'Tablet',
  desktop: 'Desktop',
};
