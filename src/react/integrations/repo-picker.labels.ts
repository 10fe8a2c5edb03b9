import { plural } from '../../locales/plural.js';

/** Texts of `RepoPicker`. */
export interface RepoPickerLabels {
  regionLabel: string;
  heading: string;
  signedOut: string;
  /** Without a code-host connection: the one thing to do first. */
  notConnected: string;
  searchLabel: string;
  searchPlaceholder: string;
  listLabel: string;
  loading: string;
  empty: string;
  noMatches: (query: string) => string;
  /** How many loaded repositories match the search (locale-formatted, then `counts` as numbers for plurals). */
  matchCount: (matches: string, loaded: string, counts: { matches: number; loaded: number }) => string;
  /** Search covers the loaded pages only (the API has no search): says so while more exist. */
  searchScope: (loaded: string, total: string | undefined, loadedCount: number) => string;
  /** Loads the next page so the search covers it too. */
  searchLoadMore: string;
  private: string;
  /** Beside the listed repository the project's code goes to. */
  linkedBadge: string;
  public: string;
  /** The default branch beside a repository (after a branch icon). */
  defaultBranch: (branch: string) => string;
  /** The pager's line (locale-formatted, then the total as a number for plurals). */
  pageStatus: (page: string, pages: string, total: string, totalCount: number) => string;
  loadedCount: (count: string, value: number) => string;
  previousPage: string;
  nextPage: string;
  loadMore: string;
  loadErrorTitle: string;
  /** A next page failed: the loaded pages stay above it. */
  pageErrorTitle: string;
  noneSelected: string;
  noProject: string;
  /** Shown while a build changes the app: its code is saved once the build is done. */
  building: string;
  link: (fullName: string) => string;
  linking: string;
  /** The result of a link: the repository by name. */
  linkedTitle: (fullName: string) => string;
  branchLabel: string;
  openRepository: (fullName: string) => string;
  unsafeUrl: string;
  /** A failed link whose repository is not known (its name is said when it is: `linkFailedTitle`). */
  linkErrorTitle: string;
  /** A failed link, naming the repository that could not be chosen (the linked one, if any, stays). */
  linkFailedTitle: (fullName: string) => string;
  pushHeading: string;
  /** Push to the repository linked in this session. */
  pushTo: (fullName: string) => string;
  pushing: string;
  newRepositoryLabel: string;
  newRepositoryHint: string;
  newRepositoryRequired: string;
  ownerUnknown: string;
  pushNew: string;
  pushedCreated: (fullName: string) => string;
  pushedExisting: (fullName: string) => string;
  pushErrorTitle: string;
}

/** The default (English) texts. */
export const defaultRepoPickerLabels: RepoPickerLabels = {
  regionLabel: 'Repositories',
  heading: 'Repository',
  signedOut: 'Sign in to choose a repository.',
  notConnected: 'Connect GitHub to choose a repository for your code.',
  searchLabel: 'Search repositories',
  searchPlaceholder: 'Filter by name',
  listLabel: 'Repositories',
  loading: 'Loading repositories…',
  empty: 'No repositories yet. Create one below by saving your code.',
  noMatches: (query) => `No loaded repository matches “${query}”.`,
  matchCount: (matches, loaded, counts) =>
    plural('en', counts.loaded, {
      one: `${matches} of ${loaded} loaded repository matches.`,
      other: `${matches} of ${loaded} loaded repositories match.`,
    }),
  searchScope: (loaded, total, loadedCount) =>
    total === undefined
      ? plural('en', loadedCount, {
          one: `Searching the ${loaded} repository loaded so far.`,
          other: `Searching the ${loaded} repositories loaded so far.`,
        })
      : `Searching the ${loaded} of ${total} repositories loaded so far.`,
  searchLoadMore: 'Load more to search',
  private: 'Private',
  linkedBadge: 'Linked',
  public: 'Public',
  defaultBranch: (branch) => branch,
  pageStatus: (page, pages, total, totalCount) =>
    plural('en', totalCount, {
      one: `Page ${page} of ${pages} · ${total} repository`,
      other: `Page ${page} of ${pages} · ${total} repositories`,
    }),
  loadedCount: (count, value) =>
    plural('en', value, { one: `${count} repository loaded`, other: `${count} repositories loaded` }),
  previousPage: 'Previous page',
  nextPage: 'Next page',
  loadMore: 'Load more',
  loadErrorTitle: 'Could not load your repositories',
  pageErrorTitle: 'Could not load more repositories',
  noneSelected: 'Choose the repository for this app’s code.',
  noProject: 'Build an app first, then save its code here.',
  building: 'You can save the code once the changes are built.',
  link: (fullName) => `Use ${fullName}`,
  linking: 'Choosing…',
  linkedTitle: (fullName) => `Your code goes to ${fullName}`,
  branchLabel: 'Branch',
  openRepository: (fullName) => `Open ${fullName}`,
  unsafeUrl: 'Not a web address',
  linkErrorTitle: 'That repository could not be chosen',
  linkFailedTitle: (fullName) => `${fullName} could not be chosen`,
  pushHeading: 'Or save to a new repository',
  pushTo: (fullName) => `Save the code to ${fullName}`,
  pushing: 'Saving…',
  newRepositoryLabel: 'New repository name',
  newRepositoryHint: 'Created under your account if it does not exist yet. Use owner/name for another owner.',
  newRepositoryRequired: 'Enter a repository name.',
  ownerUnknown: 'Connect GitHub first, or use owner/name.',
  pushNew: 'Create and save',
  pushedCreated: (fullName) => `Created ${fullName} and saved your code`,
  pushedExisting: (fullName) => `Saved your code to ${fullName}`,
  pushErrorTitle: 'Your code was not saved',
};
