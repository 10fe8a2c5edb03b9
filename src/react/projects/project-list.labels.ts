/** Texts of `ProjectList`. */
export interface ProjectListLabels {
  regionLabel: string;
  heading: string;
  loading: string;
  empty: string;
  unavailable: string;
  errorTitle: string;
  /** Stands for a project whose name is not known yet. */
  untitled: string;
  /** The line under a project's name, from its display status and a locale-formatted time. */
  updated: (status: string, time: string) => string;
}

/** The default (English) texts of `ProjectList`. */
export const defaultProjectListLabels: ProjectListLabels = {
  regionLabel: 'Your projects',
  heading: 'Your projects',
  loading: 'Loading your projects…',
  empty: 'Your projects will be listed here once you have built one.',
  unavailable: 'Your earlier projects cannot be listed here.',
  errorTitle: 'Your projects could not be loaded',
  untitled: 'Untitled app',
  updated: (status, time) => `${status} · ${time}`,
};
