'use client';
/**
 * Picks one of the end user's repositories from a paginated, searchable listbox (arrow keys, Home/End,
 * type-ahead, Enter), links it to the project, and pushes the project's code to the linked repository or
 * to a new one by name. Without a code-host connection it shows only the one step that unlocks it.
 */
import { forwardRef, useEffect, useId, useMemo, useRef, useState } from 'react';
import { isPrivateRepository, type LinkResult, type PushResult, type Repository } from '../../core/index.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { useExternalUser } from '../provider/use-agent-store.js';
import { useCodehost } from './use-codehost.js';
import { useAppProject } from './use-app-project.js';
import { useRepositories } from './use-repositories.js';
import { useRepositoryActions } from './use-repository-actions.js';
import { ownerAndName, RepoPickerActions, sameRepository } from './repo-picker-actions.js';
import { cx } from '../shared/class-names.js';
import type { WithRootProps } from '../shared/root-props.js';
import { ErrorAlert } from '../shared/error-alert.js';
import { Icon } from '../shared/icons.js';
import { Skeleton } from '../shared/skeleton.js';
import { useListbox } from '../shared/use-listbox.js';
import { FormattedText } from '../shared/formatted-text.js';

/** Props of `RepoPicker`: its own, plus any attribute of its root `section`. */
export type RepoPickerProps = WithRootProps<
  {
    /** The project to link and push; the provider's current generation's project by default. */
    projectId?: string;
    /** Repositories per page, 1 to 100 (clamped; default 30). */
    perPage?: number;
    onLinked?: (result: LinkResult) => void;
    onPushed?: (result: PushResult) => void;
    /** Whether linking or pushing is the screen's primary action (default) or a secondary one. */
    emphasis?: 'primary' | 'secondary';
  },
  'section'
>;

/** What the list shows, as `data-state`: `signed_out`, `not_connected`, `loading`, `error`, `empty` or `ready`. */
export type RepoPickerState = 'signed_out' | 'not_connected' | 'loading' | 'error' | 'empty' | 'ready';

function RepositoryName({ repository }: { repository: Repository }) {
  const slash = repository.full_name.indexOf('/');
  return (
    <span className="ae-repo-name" title={repository.full_name}>
      {slash > 0 && <span className="ae-repo-owner">{repository.full_name.slice(0, slash + 1)}</span>}
      <span>{slash > 0 ? repository.full_name.slice(slash + 1) : repository.full_name}</span>
    </span>
  );
}

/** The repository picker with link and push. */
export const RepoPicker = forwardRef<HTMLElement, RepoPickerProps>(function RepoPicker(
  { projectId, perPage, onLinked, onPushed, emphasis, className, ...rest },
  ref,
) {
  const text = useAgentLabels().repoPicker;
  const signedIn = useExternalUser() !== undefined;
  const app = useAppProject(projectId);
  const targetProject = app.projectId;
  const connection = useCodehost();
  const { connectionStatus, refresh: refreshConnection } = connection;
  // Repositories exist only behind a connection: asking without one would spend a request on a known answer.
  const hasConnection =
    connectionStatus === 'connected' || connectionStatus === 'expired' || connectionStatus === 'inactive';
  const repositories = useRepositories({ ...(perPage === undefined ? {} : { perPage }), enabled: hasConnection });
  const { status: listStatus, data: list, page, pageCount, canLoadMore, goToPage, loadMore, refresh } = repositories;
  const { link, push, linked } = useRepositoryActions(targetProject);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<Repository | undefined>(undefined);
  const previousConnectionStatus = useRef(connectionStatus);
  const listRef = useRef<HTMLUListElement>(null);
  const id = useId();

  const knownTotal = typeof list?.totalCount === 'number';
  const trimmedQuery = query.trim().toLowerCase();
  const loaded = useMemo(() => list?.loaded ?? [], [list]);
  const loadedCount = loaded.length;
  const items = useMemo(() => {
    if (trimmedQuery !== '')
      return loaded.filter((repository) => repository.full_name.toLowerCase().includes(trimmedQuery));
    if (!knownTotal || list === undefined) return loaded;
    // A page that failed or is on its way leaves the nearest loaded page in place (and keyboard focus with it).
    const nearest = Object.keys(list.pages)
      .map(Number)
      .sort((a, b) => Math.abs(a - page) - Math.abs(b - page))[0];
    return nearest === undefined ? [] : (list.pages[nearest] ?? []);
  }, [trimmedQuery, loaded, knownTotal, list, page]);
  const listbox = useListbox({ items, textOf: (repository) => repository.name, onChoose: setSelected });

  // Once when the connection becomes usable (the user fixed it on the code host): a list that failed
  // before is loaded again. Not on every failure, which would retry a failing server in a loop.
  useEffect(() => {
    const before = previousConnectionStatus.current;
    previousConnectionStatus.current = connectionStatus;
    if (before !== undefined && before !== 'connected' && connectionStatus === 'connected' && listStatus === 'error')
      void refresh();
  }, [connectionStatus, listStatus, refresh]);

  const notConnected = connectionStatus === 'missing';
  const connectionError = connectionStatus === 'error' ? connection.error : undefined;
  const listError = listStatus === 'error' ? repositories.error : undefined;
  // A failing later page keeps what is loaded: its error sits under the list, with a retry.
  const pageError = listError !== undefined && loadedCount > 0 ? listError : undefined;
  const blockingError = connectionError ?? (pageError === undefined ? listError : undefined);
  const state: RepoPickerState = !signedIn
    ? 'signed_out'
    : notConnected
      ? 'not_connected'
      : blockingError !== undefined
        ? 'error'
        : // An answered page with no repositories is empty, whatever count it claims.
          listStatus === 'success' && loadedCount === 0
          ? 'empty'
          : loadedCount > 0
            ? 'ready'
            : 'loading';
  const showList = (state === 'ready' || state === 'loading') && items.length > 0;
  const moreToLoad = knownTotal ? loadedCount < (list?.totalCount ?? 0) : canLoadMore;
  const listId = `${id}-list`;
  const headingId = `${id}-heading`;

  return (
    <section
      ref={ref}
      className={cx('ae-repo-picker', className)}
      data-state={state}
      data-link={link.status}
      data-push={push.status}
      aria-labelledby={headingId}
      aria-busy={listStatus === 'loading'}
      {...rest}
    >
      <h2 id={headingId} className="ae-title">
        <Icon name="repository" />
        {text.heading}
      </h2>
      {state === 'signed_out' && <p className="ae-muted">{text.signedOut}</p>}
      {state === 'not_connected' && <p className="ae-note">{text.notConnected}</p>}
      {blockingError !== undefined && (
        <ErrorAlert
          error={blockingError}
          title={text.loadErrorTitle}
          context="repositories"
          onRetry={() => void (connectionError === undefined ? refresh() : refreshConnection())}
        />
      )}
      {state === 'loading' && items.length === 0 && <Skeleton rows={4} label={text.loading} />}
      {state === 'empty' && <p className="ae-muted">{text.empty}</p>}
      {state === 'ready' && (
        <div className="ae-field">
          <label htmlFor={`${id}-search`} className="ae-label">
            {text.searchLabel}
          </label>
          <div className="ae-input-icon">
            <Icon name="search" />
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
                listbox.reset();
              }}
              onKeyDown={(event) => {
                if (event.key !== 'ArrowDown') return;
                event.preventDefault();
                listRef.current?.focus();
                if (listbox.activeIndex < 0) listbox.moveTo(0);
              }}
            />
          </div>
        </div>
      )}
      {trimmedQuery !== '' && (
        <div className="ae-search-scope">
          <p className="ae-hint" role="status">
            {items.length === 0 ? (
              text.noMatches(query.trim())
            ) : (
              <FormattedText>
                {(f) =>
                  text.matchCount(f.number(items.length), f.number(loadedCount), {
                    matches: items.length,
                    loaded: loadedCount,
                  })
                }
              </FormattedText>
            )}{' '}
            {moreToLoad && (
              <FormattedText>
                {(f) =>
                  text.searchScope(
                    f.number(loadedCount),
                    knownTotal ? f.number(list?.totalCount ?? 0) : undefined,
                    loadedCount,
                  )
                }
              </FormattedText>
            )}
          </p>
          {moreToLoad && (
            <button
              type="button"
              className="ae-button ae-button-small"
              disabled={listStatus === 'loading'}
              onClick={() => void loadMore()}
            >
              {text.searchLoadMore}
            </button>
          )}
        </div>
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
          aria-activedescendant={listbox.active === undefined ? undefined : listbox.optionId(listbox.activeIndex)}
          onKeyDown={listbox.onKeyDown}
          onFocus={() => {
            if (listbox.activeIndex >= 0) return;
            const selectedIndex = items.findIndex((repository) => repository.id === selected?.id);
            listbox.moveTo(Math.max(0, selectedIndex));
          }}
        >
          {items.map((repository, index) => {
            const isPrivate = isPrivateRepository(repository);
            return (
              // Keys reach the options through the listbox (aria-activedescendant), not one by one.
              // eslint-disable-next-line jsx-a11y/click-events-have-key-events
              <li
                key={repository.id}
                id={listbox.optionId(index)}
                role="option"
                className="ae-repo"
                aria-selected={selected?.id === repository.id}
                data-highlighted={index === listbox.activeIndex || undefined}
                onClick={() => {
                  listbox.moveTo(index);
                  setSelected(repository);
                }}
              >
                <RepositoryName repository={repository} />
                <span className="ae-repo-meta">
                  <span className="ae-inline">
                    <Icon name={isPrivate ? 'lock' : 'globe'} />
                    {isPrivate ? text.private : text.public}
                  </span>
                  {repository.default_branch !== '' && (
                    <span className="ae-inline">
                      <Icon name="branch" />
                      {text.defaultBranch(repository.default_branch)}
                    </span>
                  )}
                  {/* The box below names where the code goes; scrolled to, the list says it too. */}
                  {linked !== undefined && sameRepository(ownerAndName(repository), linked) && (
                    <span className="ae-badge" data-status="linked">
                      {text.linkedBadge}
                    </span>
                  )}
                </span>
                {selected?.id === repository.id && <Icon name="check" className="ae-repo-check" />}
              </li>
            );
          })}
        </ul>
      )}
      {pageError !== undefined && (
        <ErrorAlert
          error={pageError}
          title={text.pageErrorTitle}
          context="repositories"
          onRetry={() => void refresh()}
        />
      )}
      {state === 'ready' && trimmedQuery === '' && list !== undefined && pageError === undefined && (
        <div className="ae-pager">
          {knownTotal ? (
            <>
              <span className="ae-hint" aria-live="polite">
                <FormattedText>
                  {(f) =>
                    text.pageStatus(
                      f.number(page),
                      f.number(pageCount ?? 1),
                      f.number(list.totalCount ?? 0),
                      list.totalCount ?? 0,
                    )
                  }
                </FormattedText>
              </span>
              <span className="ae-actions">
                <button
                  type="button"
                  className="ae-button ae-button-small"
                  disabled={page <= 1 || listStatus === 'loading'}
                  onClick={() => void goToPage(page - 1)}
                >
                  {text.previousPage}
                </button>
                <button
                  type="button"
                  className="ae-button ae-button-small"
                  disabled={page >= (pageCount ?? 1) || listStatus === 'loading'}
                  onClick={() => void goToPage(page + 1)}
                >
                  {text.nextPage}
                </button>
              </span>
            </>
          ) : (
            <>
              <span className="ae-hint" aria-live="polite">
                <FormattedText>{(f) => text.loadedCount(f.number(loadedCount), loadedCount)}</FormattedText>
              </span>
              {(canLoadMore || listStatus === 'loading') && (
                <button
                  type="button"
                  className="ae-button ae-button-small"
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
      {hasConnection && connectionError === undefined && (
        <RepoPickerActions
          text={text}
          projectId={targetProject}
          building={app.building}
          noProjectHint={app.gone}
          selected={selected}
          login={connection.data?.codehost_login}
          emphasis={emphasis}
          onLinked={onLinked}
          onPushed={onPushed}
        />
      )}
    </section>
  );
});
