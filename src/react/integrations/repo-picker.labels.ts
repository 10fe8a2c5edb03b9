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
  matchCount: (matches: string, loaded: string) => string;
  /** Search covers the loaded pages only (the API has no search): says so while more exist. */
  searchScope: (loaded: string, total: string | undefined) => string;
  /** Loads the next page so the search covers it too. */
  searchLoadMore: string;
  private: string;
  public: string;
  /** The default branch beside a repository (after a branch icon). */
  defaultBranch: (branch: string) => string;
  pageStatus: (page: string, pages: string, total: string) => string;
  loadedCount: (count: string) => string;
  previousPage: string;
  nextPage: string;
  loadMore: string;
  loadErrorTitle: string;
  /** A next page failed: the loaded pages stay above it. */
  pageErrorTitle: string;
  noneSelected: string;
  noProject: string;
  link: (fullName: string) => string;
  linking: string;
  /** The result of a link: the repository by name. */
  linkedTitle: (fullName: string) => string;
  branchLabel: string;
  openRepository: (fullName: string) => string;
  unsafeUrl: string;
  linkErrorTitle: string;
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
  notConnected: 'Connect GitHub to choose a repository and push your code.',
  searchLabel: 'Search repositories',
  searchPlaceholder: 'Filter by name',
  listLabel: 'Repositories',
  loading: 'Loading repositories…',
  empty: 'No repositories yet. Create one below by pushing your code.',
  noMatches: (query) => `No loaded repository matches “${query}”.`,
  matchCount: (matches, loaded) => `${matches} of ${loaded} loaded repositories match.`,
  searchScope: (loaded, total) =>
    total === undefined
      ? `Searching the ${loaded} repositories loaded so far.`
      : `Searching the ${loaded} of ${total} repositories loaded so far.`,
  searchLoadMore: 'Load more to search',
  private: 'Private',
  public: 'Public',
  defaultBranch: (branch) => branch,
  pageStatus: (page, pages, total) => `Page ${page} of ${pages} · ${total} repositories`,
  loadedCount: (count) => `${count} repositories loaded`,
  previousPage: 'Previous page',
  nextPage: 'Next page',
  loadMore: 'Load more',
  loadErrorTitle: 'Could not load your repositories',
  pageErrorTitle: 'Could not load more repositories',
  noneSelected: 'Choose a repository to link this app to.',
  noProject: 'Generate an app first to link or push it.',
  link: (fullName) => `Link ${fullName}`,
  linking: 'Linking…',
  linkedTitle: (fullName) => `Linked to ${fullName}`,
  branchLabel: 'Branch',
  openRepository: (fullName) => `Open ${fullName}`,
  unsafeUrl: 'Not a web address',
  linkErrorTitle: 'The repository was not linked',
  pushHeading: 'Push the code',
  pushTo: (fullName) => `Push to ${fullName}`,
  pushing: 'Pushing…',
  newRepositoryLabel: 'New repository name',
  newRepositoryHint: 'Created under your account if it does not exist yet. Use owner/name for another owner.',
  newRepositoryRequired: 'Enter a repository name.',
  ownerUnknown: 'Connect the code host first, or use owner/name.',
  pushNew: 'Create and push',
  pushedCreated: (fullName) => `Created ${fullName} and pushed the code`,
  pushedExisting: (fullName) => `Pushed the code to ${fullName}`,
  pushErrorTitle: 'The code was not pushed',
};
