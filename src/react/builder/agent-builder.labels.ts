import { plural } from '../../locales/plural.js';

/** Texts of `AgentBuilder`. */
export interface AgentBuilderLabels {
  regionLabel: string;
  toolbarLabel: string;
  buildLabel: string;
  resultLabel: string;
  /** The toolbar button that opens deploy, code host and repository. */
  shipLabel: string;
  shipTitle: string;
  plansLabel: string;
  /** The toolbar button and sheet of the end user's projects. */
  projectsLabel: string;
  /** A returning end user's latest projects, offered in the empty builder. */
  recentLabel: string;
  /** Opens every project when there are more than the few offered. */
  allProjects: (count: number, formatted: string) => string;
  close: string;
  newProject: string;
  /** The toolbar's name before there is a project, and before its name is known. */
  newApp: string;
  /**
   * The badge of a project whose last follow-up failed (the app from before is still there): in the builder's toolbar
   * and in `ProjectStatus`.
   */
  changeFailed: string;
  /**
   * @deprecated Unused: a project without a name is called as in the project list (`projectList.untitled`), so one
   * project has one name everywhere. Kept optional so an override still compiles.
   */
  untitled?: string;
  showDetails: string;
  hideDetails: string;
  /** The tabs of the narrow layout. */
  tabs: { chat: string; preview: string; ship: string };
  /** Narrow layout, Chat tab: the app is ready in the Preview tab, and the button that goes there. */
  appReady: string;
  seeApp: string;
}

/** The default (English) texts of `AgentBuilder`. */
export const defaultAgentBuilderLabels: AgentBuilderLabels = {
  regionLabel: 'App builder',
  toolbarLabel: 'Project',
  buildLabel: 'Chat',
  resultLabel: 'Preview',
  shipLabel: 'Publish',
  shipTitle: 'Publish your app',
  plansLabel: 'Plans',
  projectsLabel: 'Projects',
  recentLabel: 'Continue a project',
  allProjects: (count, formatted) =>
    plural('en', count, { one: `All ${formatted} project`, other: `All ${formatted} projects` }),
  close: 'Close',
  newProject: 'New project',
  newApp: 'New app',
  changeFailed: 'Last change failed',
  showDetails: 'Show build details',
  hideDetails: 'Hide build details',
  tabs: { chat: 'Chat', preview: 'Preview', ship: 'Publish' },
  appReady: 'Your app is ready.',
  seeApp: 'See it in Preview',
};
