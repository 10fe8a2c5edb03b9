'use client';
/**
 * Picks one of the end user's repositories from a paginated, searchable listbox (arrow keys, Home/End,
 * type-ahead, Enter), links it to the project, and pushes the project's code to the linked repository or
 * to a new one by name.
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import {
  isPrivateRepository,
  type AgentApiError,
  type LinkResult,
  type PushResult,
  type Repository,
} from '../../core/index.js';
import type { RepoPickerLabels } from './repo-picker.labels.js';
import { safeHttpUrl } from '../shared/safe-url.js';
import { useAgentFormat } from '../provider/use-agent-format.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { useExternalUser } from '../provider/use-agent-store.js';
import { useCodehost } from './use-codehost.js';
import { useGeneration } from '../generation/use-generation.js';
import { useRepositories } from './use-repositories.js';
import { useRepositoryActions, type RepositoryRef } from './use-repository-actions.js';
import { cx } from '../shared/class-names.js';
import { useLatestCallback } from '../shared/use-latest-callback.js';

/** Props of `RepoPicker`. */
export interface RepoPickerProps {
  /** The project to link and push; the provider's current generation's project by default. */
  projectId?: string;
  /** Repositories per page, 1 to 100 (clamped; default 30). */
  perPage?: number;
  onLinked?: (result: LinkResult) => void;
  onPushed?: (result: PushResult) => void;
  className?: string;
}

/** What the list shows, as `data-state`: `signed_out`, `not_connected`, `loading`, `error`, `empty` or `ready`. */
export type RepoPickerState = 'signed_out' | 'not_connected' | 'loading' | 'error' | 'empty' | 'ready';

/** Type-ahead letters typed within this many milliseconds of each other form one search. */
const typeAheadWindowMs = 700;

function ownerAndName(repository: Repository): RepositoryRef {
  const slash = repository.full_name.indexOf('/');
  return slash === -1
    ? { owner: '', name: repository.name }
    : { owner: repository.full_name.slice(0, slash), name: repository.full_name.slice(slash + 1) };
}

function ErrorBox({ title, error }: { title: string; error: AgentApiError }) {
  const details = Object.values(error.fieldErrors ?? {})
    .flat()
    .filter((message) => message !== error.message);
  return (
    <div className="ae-alert" role="alert" data-kind={error.kind}>
      <p className="ae-alert-title">{title}</p>
      <p>{error.message}</p>
      {details.length > 0 && (
        <ul>
          {details.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function RepositoryLink({ url, text }: { url: string; text: RepoPickerLabels }) {
  const safe = safeHttpUrl(url);
  if (safe === undefined) return <span className="ae-muted">{text.unsafeUrl}</span>;
  return (
    <a href={safe} target="_blank" rel="noopener noreferrer">
      {text.openRepository}
    </a>
  );
}

/** The repository picker with link and push. */
export function RepoPicker({ projectId, perPage, onLinked, onPushed, className }: RepoPickerProps) {
  const text = useAgentLabels().repoPicker;
  const format = useAgentFormat();
  const signedIn = useExternalUser() !== undefined;
  const { generation } = useGeneration(projectId);
  const targetProject = projectId ?? (generation?.status === 'completed' ? generation.projectId : undefined);
  const { connection, refresh: refreshConnection } = useCodehost();
  const connectionStatus = connection?.status;
  // Repositories exist only behind a connection: asking without one would spend a request on a known answer.
  const hasConnection =
    connectionStatus === 'connected' || connectionStatus === 'expired' || connectionStatus === 'inactive';
  const repositories = useRepositories({ ...(perPage === undefined ? {} : { perPage }), enabled: hasConnection });
  const { list, pageCount, loaded, canLoadMore, goToPage, loadMore, reload } = repositories;
  const { link, push, linkRepository, pushRepository } = useRepositoryActions(targetProject);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<Repository | undefined>(undefined);
  const [activeIndex, setActiveIndex] = useState(-1);
  const [newName, setNewName] = useState('');
  const [newNameError, setNewNameError] = useState<string | undefined>(undefined);
  const typeAhead = useRef({ text: '', at: Number.NEGATIVE_INFINITY });
  const previousConnectionStatus = useRef(connectionStatus);
  const listRef = useRef<HTMLUListElement>(null);
  const id = useId();
  const callOnLinked = useLatestCallback(onLinked);
  const callOnPushed = useLatestCallback(onPushed);

  const knownTotal = typeof list?.totalCount === 'number';
  const trimmedQuery = query.trim().toLowerCase();
  const shownPage = useRef<Repository[]>([]);
  const items = useMemo(() => {
    if (trimmedQuery !== '')
      return loaded.filter((repository) => repository.full_name.toLowerCase().includes(trimmedQuery));
    if (!knownTotal || list === undefined) return loaded;
    // While the next page loads, the current one stays in place (and keyboard focus with it).
    const pageItems = list.pages[list.page];
    if (pageItems !== undefined || list.status !== 'loading') shownPage.current = pageItems ?? [];
    return shownPage.current;
  }, [trimmedQuery, loaded, knownTotal, list]);

  const active = items[activeIndex];
  const optionId = (index: number) => `${id}-option-${index}`;

  useEffect(() => {
    if (activeIndex >= items.length) setActiveIndex(items.length - 1);
  }, [activeIndex, items.length]);

  // Once when the connection becomes usable (the user fixed it on the code host): a list that failed
  // before is loaded again. Not on every failure, which would retry a failing server in a loop.
  useEffect(() => {
    const before = previousConnectionStatus.current;
    previousConnectionStatus.current = connectionStatus;
    if (before !== undefined && before !== 'connected' && connectionStatus === 'connected' && list?.status === 'error')
      void reload();
  }, [connectionStatus, list?.status, reload]);

  useEffect(() => {
    if (activeIndex < 0 || typeof document === 'undefined') return;
    document.getElementById(`${id}-option-${activeIndex}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [id, activeIndex]);

  const listStatus = list?.status ?? 'idle';
  // No connection yet is where every new user starts: a note, not an alert.
  const notConnected = connectionStatus === 'missing';
  const connectionError = connectionStatus === 'error' ? connection?.error : undefined;
  const listError = connectionError ?? (listStatus === 'error' ? list?.error : undefined);
  const state: RepoPickerState = !signedIn
    ? 'signed_out'
    : notConnected
      ? 'not_connected'
      : listError !== undefined
        ? 'error'
        : listStatus === 'loaded' && loaded.length === 0 && (list?.totalCount === 0 || list?.totalCount === null)
          ? 'empty'
          : listStatus === 'loaded'
            ? 'ready'
            : 'loading';

  function choose(repository: Repository | undefined) {
    if (repository !== undefined) setSelected(repository);
  }

  function moveTo(index: number) {
    if (items.length === 0) return;
    setActiveIndex(Math.max(0, Math.min(items.length - 1, index)));
  }

  function onListKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    switch (event.key) {
      case 'ArrowDown':
        moveTo(activeIndex + 1);
        break;
      case 'ArrowUp':
        moveTo(activeIndex < 0 ? 0 : activeIndex - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(items.length - 1);
        break;
      case 'Enter':
      case ' ':
        choose(active);
        break;
      default: {
        if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return;
        const typed = event.key.toLowerCase();
        const previous = typeAhead.current;
        const extending = event.timeStamp - previous.at < typeAheadWindowMs;
        const search = extending ? previous.text + typed : typed;
        typeAhead.current = { text: search, at: event.timeStamp };
        // A new search starts after the active option, so one letter pressed again cycles through its matches.
        const from = extending ? Math.max(activeIndex, 0) : activeIndex + 1;
        for (let step = 0; step < items.length; step++) {
          const index = (from + step) % items.length;
          if (items[index]?.name.toLowerCase().startsWith(search)) {
            setActiveIndex(index);
            break;
          }
        }
      }
    }
    event.preventDefault();
  }

  function onLink() {
    if (selected === undefined) return;
    const pending = linkRepository(ownerAndName(selected));
    void pending?.then((result) => {
      if (result.ok) callOnLinked(result.data);
    });
  }

  function startPush(repository?: RepositoryRef) {
    const pending = pushRepository(repository);
    void pending?.then((result) => {
      if (result.ok) callOnPushed(result.data);
    });
  }

  function onPushNew(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = newName.trim();
    if (value === '') {
      setNewNameError(text.newRepositoryRequired);
      return;
    }
    const slash = value.indexOf('/');
    const owner = slash === -1 ? connection?.connection?.codehost_login : value.slice(0, slash).trim();
    const name = slash === -1 ? value : value.slice(slash + 1).trim();
    if (owner === undefined || owner === '' || name === '') {
      setNewNameError(owner === undefined || owner === '' ? text.ownerUnknown : text.newRepositoryRequired);
      return;
    }
    setNewNameError(undefined);
    startPush({ owner, name });
  }

  const showList = state !== 'empty' && state !== 'error' && items.length > 0;
  const linking = link?.status === 'running';
  const pushing = push?.status === 'running';
  const loadedCount = loaded.length;
  const page = list?.page ?? 1;
  const listId = `${id}-list`;
  const headingId = `${id}-heading`;
  const newNameId = `${id}-new-name`;
  const newNameHintId = `${id}-new-name-hint`;
  const newNameErrorId = `${id}-new-name-error`;

  return (
    <section
      className={cx('ae-repo-picker', className)}
      data-state={state}
      data-link={link?.status ?? 'idle'}
      data-push={push?.status ?? 'idle'}
      aria-labelledby={headingId}
    >
      <h2 id={headingId} className="ae-title">
        {text.heading}
      </h2>
      {!signedIn ? (
        <p className="ae-muted">{text.signedOut}</p>
      ) : (
        <>
          <div className="ae-field">
            <label htmlFor={`${id}-search`} className="ae-label">
              {text.searchLabel}
            </label>
            <input
              id={`${id}-search`}
              className="ae-input"
              type="search"
              value={query}
              placeholder={text.searchPlaceholder}
              aria-controls={showList ? listId : undefined}
              autoComplete="off"
              onChange={(event) => {
                setQuery(event.target.value);
                setActiveIndex(-1);
              }}
              onKeyDown={(event) => {
                if (event.key !== 'ArrowDown') return;
                event.preventDefault();
                listRef.current?.focus();
                if (activeIndex < 0) moveTo(0);
              }}
            />
          </div>
          {state === 'not_connected' && (
            <div className="ae-note">
              <p>{text.notConnected}</p>
              {connection?.error !== undefined && <p className="ae-muted">{connection.error.message}</p>}
            </div>
          )}
          {state !== 'not_connected' && listError !== undefined && (
            <div className="ae-alert" role="alert" data-kind={listError.kind}>
              <p className="ae-alert-title">{text.loadErrorTitle}</p>
              <p>{listError.message}</p>
              <button
                type="button"
                className="ae-button"
                onClick={() => void (connectionError === undefined ? reload() : refreshConnection())}
              >
                {text.retry}
              </button>
            </div>
          )}
          {state === 'loading' && items.length === 0 && <p className="ae-muted">{text.loading}</p>}
          {state === 'empty' && <p className="ae-muted">{text.empty}</p>}
          {trimmedQuery !== '' && (
            <p className="ae-hint" role="status">
              {items.length === 0
                ? text.noMatches(query.trim())
                : text.matchCount(format.number(items.length), format.number(loadedCount))}
            </p>
          )}
          {showList && (
            <ul
              ref={listRef}
              id={listId}
              className="ae-repo-list"
              role="listbox"
              tabIndex={0}
              aria-label={text.listLabel}
              aria-busy={listStatus === 'loading'}
              aria-activedescendant={active === undefined ? undefined : optionId(activeIndex)}
              onKeyDown={onListKeyDown}
              onFocus={() => {
                if (activeIndex < 0 && items.length > 0) {
                  const selectedIndex =
                    selected === undefined ? -1 : items.findIndex((repository) => repository.id === selected.id);
                  setActiveIndex(Math.max(0, selectedIndex));
                }
              }}
            >
              {items.map((repository, index) => {
                const isPrivate = isPrivateRepository(repository);
                return (
                  <li
                    key={repository.id}
                    id={optionId(index)}
                    role="option"
                    className="ae-repo"
                    aria-selected={selected?.id === repository.id}
                    data-active={index === activeIndex || undefined}
                    onClick={() => {
                      setActiveIndex(index);
                      choose(repository);
                    }}
                  >
                    <span className="ae-repo-name">{repository.full_name}</span>
                    <span className="ae-repo-meta">
                      <span className="ae-badge" data-visibility={isPrivate ? 'private' : 'public'}>
                        {isPrivate ? text.private : text.public}
                      </span>
                      <span className="ae-hint">{text.defaultBranch(repository.default_branch)}</span>
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
          {trimmedQuery === '' && list !== undefined && (state === 'ready' || state === 'loading') && (
            <div className="ae-pager">
              {knownTotal ? (
                <>
                  <button
                    type="button"
                    className="ae-button"
                    disabled={page <= 1 || listStatus === 'loading'}
                    onClick={() => void goToPage(page - 1)}
                  >
                    {text.previousPage}
                  </button>
                  <span className="ae-hint" aria-live="polite">
                    {text.pageStatus(
                      format.number(page),
                      format.number(pageCount ?? 1),
                      format.number(list.totalCount ?? 0),
                    )}
                  </span>
                  <button
                    type="button"
                    className="ae-button"
                    disabled={page >= (pageCount ?? 1) || listStatus === 'loading'}
                    onClick={() => void goToPage(page + 1)}
                  >
                    {text.nextPage}
                  </button>
                </>
              ) : (
                <>
                  <span className="ae-hint" aria-live="polite">
                    {text.loadedCount(format.number(loadedCount))}
                  </span>
                  {(canLoadMore || listStatus === 'loading') && (
                    <button
                      type="button"
                      className="ae-button"
                      disabled={listStatus === 'loading'}
                      onClick={() => void loadMore()}
                    >
                      {text.loadMore}
                    </button>
                  )}
                </>
              )}
            </div>
          )}
          <div className="ae-repo-actions">
            <p className="ae-selected">
              {selected === undefined ? text.noneSelected : text.selected(selected.full_name)}
            </p>
            {targetProject === undefined && <p className="ae-hint">{text.noProject}</p>}
            <div className="ae-actions">
              <button
                type="button"
                className="ae-button ae-button-primary"
                disabled={selected === undefined || targetProject === undefined || linking}
                onClick={onLink}
              >
                {linking ? text.linking : text.link(selected?.full_name ?? '')}
              </button>
            </div>
            {link?.status === 'succeeded' && link.result !== undefined && (
              <div className="ae-outcome" data-outcome="completed" role="status">
                <p className="ae-outcome-title">{text.linkedTitle}</p>
                <dl className="ae-details">
                  <div>
                    <dt>{text.repositoryLabel}</dt>
                    <dd>
                      {link.repository === undefined ? null : `${link.repository.owner}/${link.repository.name} `}
                      <RepositoryLink url={link.result.repo_url} text={text} />
                    </dd>
                  </div>
                  <div>
                    <dt>{text.branchLabel}</dt>
                    <dd>{link.result.branch}</dd>
                  </div>
                  <div>
                    <dt>{text.accountLabel}</dt>
                    <dd>{link.result.codehost_login}</dd>
                  </div>
                </dl>
              </div>
            )}
            {link?.status === 'failed' && link.error !== undefined && (
              <ErrorBox title={text.linkErrorTitle} error={link.error} />
            )}
          </div>
          <div className="ae-repo-push">
            <h3 className="ae-subtitle">{text.pushHeading}</h3>
            <div className="ae-actions">
              <button
                type="button"
                className="ae-button"
                disabled={targetProject === undefined || pushing}
                onClick={() => startPush()}
              >
                {pushing && push?.repository === undefined ? text.pushing : text.pushLinked}
              </button>
            </div>
            <form className="ae-push-new" noValidate onSubmit={onPushNew}>
              <div className="ae-field">
                <label htmlFor={newNameId} className="ae-label">
                  {text.newRepositoryLabel}
                </label>
                <input
                  id={newNameId}
                  className="ae-input"
                  type="text"
                  value={newName}
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={newNameError === undefined ? undefined : true}
                  aria-describedby={newNameError === undefined ? newNameHintId : `${newNameHintId} ${newNameErrorId}`}
                  onChange={(event) => {
                    setNewName(event.target.value);
                    setNewNameError(undefined);
                  }}
                />
                <p id={newNameHintId} className="ae-hint">
                  {text.newRepositoryHint}
                </p>
                {newNameError !== undefined && (
                  <p id={newNameErrorId} className="ae-field-error">
                    {newNameError}
                  </p>
                )}
              </div>
              <button type="submit" className="ae-button" disabled={targetProject === undefined || pushing}>
                {pushing && push?.repository !== undefined ? text.pushing : text.pushNew}
              </button>
            </form>
            {push?.status === 'succeeded' && push.result !== undefined && (
              <div
                className="ae-outcome"
                data-outcome="completed"
                data-created={push.result.repo_created}
                role="status"
              >
                <p className="ae-outcome-title">
                  {push.result.repo_created ? text.pushedCreated : text.pushedExisting}
                </p>
                <dl className="ae-details">
                  <div>
                    <dt>{text.repositoryLabel}</dt>
                    <dd>
                      <RepositoryLink url={push.result.repo_url} text={text} />
                    </dd>
                  </div>
                  <div>
                    <dt>{text.branchLabel}</dt>
                    <dd>{push.result.branch}</dd>
                  </div>
                  <div>
                    <dt>{text.accountLabel}</dt>
                    <dd>{push.result.codehost_login}</dd>
                  </div>
                </dl>
              </div>
            )}
            {push?.status === 'failed' && push.error !== undefined && (
              <ErrorBox title={text.pushErrorTitle} error={push.error} />
            )}
          </div>
        </>
      )}
    </section>
  );
}
