/** Texts of `RepoPicker`. */
export interface RepoPickerLabels {
  regionLabel: string;
  heading: string;
  signedOut: string;
  /** Shown, with the API's own words below it, while the end user has no code-host connection. */
  notConnected: string;
  searchLabel: string;
  searchPlaceholder: string;
  listLabel: string;
  loading: string;
  empty: string;
  noMatches: (query: string) => string;
  matchCount: (matches: string, loaded: string) => string;
  private: string;
  public: string;
  defaultBranch: (branch: string) => string;
  pageStatus: (page: string, pages: string, total: string) => string;
  loadedCount: (count: string) => string;
  previousPage: string;
  nextPage: string;
  loadMore: string;
  loadErrorTitle: string;
  retry: string;
  selected: (fullName: string) => string;
  noneSelected: string;
  noProject: string;
  link: (fullName: string) => string;
  linking: string;
  linkedTitle: string;
  repositoryLabel: string;
  branchLabel: string;
  accountLabel: string;
  openRepository: string;
  /** Shown instead of a link when a repository address is not http(s). */
  unsafeUrl: string;
  linkErrorTitle: string;
  pushHeading: string;
  pushLinked: string;
  pushing: string;
  newRepositoryLabel: string;
  newRepositoryHint: string;
  newRepositoryRequired: string;
  /** Shown when a new repository has no owner: the code-host login is not known yet. */
  ownerUnknown: string;
  pushNew: string;
  pushedCreated: string;
  pushedExisting: string;
  pushErrorTitle: string;
}

/** The default (English) texts of `RepoPicker`. */
export const defaultRepoPickerLabels: RepoPickerLabels = {
  regionLabel: 'Repositories',
  heading: 'Repository',
  signedOut: 'Sign in to choose a repository.',
  notConnected: 'Connect a code host to choose a repository.',
  searchLabel: 'Search repositories',
  searchPlaceholder: 'Filter the loaded repositories',
  listLabel: 'Repositories',
  loading: 'Loading repositories…',
  empty: 'No repositories yet.',
  noMatches: (query) => `No loaded repository matches “${query}”.`,
  matchCount: (matches, loaded) => `${matches} of ${loaded} loaded repositories match.`,
  private: 'Private',
  public: 'Public',
  defaultBranch: (branch) => `default branch ${branch}`,
  pageStatus: (page, pages, total) => `Page ${page} of ${pages} · ${total} repositories`,
  loadedCount: (count) => `${count} repositories loaded`,
  previousPage: 'Previous page',
  nextPage: 'Next page',
  loadMore: 'Load more',
  loadErrorTitle: 'Could not load the repositories',
  retry: 'Try again',
  selected: (fullName) => `Selected: ${fullName}`,
  noneSelected: 'Choose a repository from the list.',
  noProject: 'Generate an app first to link or push it.',
  link: (fullName) => `Link ${fullName}`,
  linking: 'Linking…',
  linkedTitle: 'Linked repository',
  repositoryLabel: 'Repository',
  branchLabel: 'Branch',
  accountLabel: 'Account',
  openRepository: 'Open the repository',
  unsafeUrl: 'Not a web address',
  linkErrorTitle: 'The repository was not linked',
  pushHeading: 'Push the code',
  pushLinked: 'Push to the linked repository',
  pushing: 'Pushing…',
  newRepositoryLabel: 'New repository name',
  newRepositoryHint: 'Created under your account if it does not exist yet. Use owner/name for another owner.',
  newRepositoryRequired: 'Enter a repository name.',
  ownerUnknown: 'Connect the code host first, or use owner/name.',
  pushNew: 'Create and push',
  pushedCreated: 'Repository created and code pushed.',
  pushedExisting: 'Code pushed to the existing repository.',
  pushErrorTitle: 'The code was not pushed',
};
