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
  /**
   * @deprecated Not read: the project list names a project's status with the `phase` labels, as `ProjectStatus`'s
   * badge does, so an override of one word changes it everywhere.
   */
  projectStatuses?: Record<string, string>;
}

/** The default (English) texts of `ProjectStatus`. */
export const defaultProjectStatusLabels: ProjectStatusLabels = {
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
};
