'use client';
/**
 * The link-and-push part of `RepoPicker`: one primary action per state (link the chosen repository, or
 * push to the linked one), pushing to a new repository by name, and results that name the repository,
 * its branch and whether it was created.
 */
import { useId, useState, type FormEvent } from 'react';
import type { LinkResult, PushResult, Repository } from '../../core/index.js';
import type { RepoPickerLabels } from './repo-picker.labels.js';
import { ErrorAlert } from '../shared/error-alert.js';
import { Icon } from '../shared/icons.js';
import { readableUrl } from '../shared/external-link.js';
import { safeHttpUrl } from '../../core/index.js';
import { useRepositoryActions, type RepositoryRef } from './use-repository-actions.js';
import { useLatestCallback } from '../shared/use-latest-callback.js';

/** Props of `RepoPickerActions`. */
export interface RepoPickerActionsProps {
  text: RepoPickerLabels;
  projectId: string | undefined;
  selected: Repository | undefined;
  /** The connected code-host login: the owner of a new repository named without one. */
  login: string | undefined;
  onLinked: ((result: LinkResult) => void) | undefined;
  onPushed: ((result: PushResult) => void) | undefined;
}

/** `owner/name` of a listed repository. */
export function ownerAndName(repository: Repository): RepositoryRef {
  const slash = repository.full_name.indexOf('/');
  return slash === -1
    ? { owner: '', name: repository.name }
    : { owner: repository.full_name.slice(0, slash), name: repository.full_name.slice(slash + 1) };
}

const fullName = (repository: RepositoryRef) =>
  repository.owner === '' ? repository.name : `${repository.owner}/${repository.name}`;

function Outcome(props: { title: string; url: string; branch: string; created?: boolean; text: RepoPickerLabels }) {
  const { title, url, branch, created, text } = props;
  const safe = safeHttpUrl(url);
  return (
    <div className="ae-outcome" data-outcome="completed" data-created={created} role="status">
      <p className="ae-outcome-title">
        <Icon name="check" />
        <span>{title}</span>
      </p>
      {/* A push or link answered without a body (204) says it happened, not where: nothing to show then. */}
      {(branch !== '' || url !== '') && (
        <p className="ae-outcome-meta">
          {branch !== '' && (
            <span className="ae-inline">
              <Icon name="branch" />
              <span className="ae-visually-hidden">{text.branchLabel} </span>
              {branch}
            </span>
          )}
          {url === '' ? null : safe === undefined ? (
            <span className="ae-muted">{text.unsafeUrl}</span>
          ) : (
            <a className="ae-inline" href={safe} target="_blank" rel="noopener noreferrer">
              {readableUrl(safe)}
              <Icon name="external" />
            </a>
          )}
        </p>
      )}
    </div>
  );
}

function settled(status: string | undefined): boolean {
  return status === 'succeeded' || status === 'failed';
}

/** Link and push for the picker's chosen repository. */
export function RepoPickerActions({ text, projectId, selected, login, onLinked, onPushed }: RepoPickerActionsProps) {
  const { link, push, linkRepository, pushRepository } = useRepositoryActions(projectId);
  const [newName, setNewName] = useState('');
  const [newNameError, setNewNameError] = useState<string | undefined>(undefined);
  // The latest of link and push is what the project points at now; the older result is history. On mount
  // (the sheet opened again) it is what the store holds: a push's outcome if there is one, else a link's.
  const [latest, setLatest] = useState<'link' | 'push' | undefined>(() =>
    settled(push?.status) ? 'push' : settled(link?.status) ? 'link' : undefined,
  );
  const callOnLinked = useLatestCallback(onLinked);
  const callOnPushed = useLatestCallback(onPushed);
  const id = useId();

  const linked = link?.status === 'succeeded' && latest === 'link' ? link.repository : undefined;
  const linking = link?.status === 'running';
  const pushing = push?.status === 'running';
  const chosen = selected === undefined ? undefined : ownerAndName(selected);
  const chosenIsLinked = chosen !== undefined && linked !== undefined && fullName(chosen) === fullName(linked);
  const noProject = projectId === undefined;

  function onLink() {
    if (chosen === undefined) return;
    setLatest('link');
    void linkRepository(chosen).then((result) => {
      if (result.ok) callOnLinked(result.data);
    });
  }

  function startPush(repository?: RepositoryRef) {
    setLatest('push');
    void pushRepository(repository).then((result) => {
      if (result.ok) callOnPushed(result.data);
    });
  }

  function onPushNew(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = newName.trim();
    const slash = value.indexOf('/');
    const owner = slash === -1 ? login : value.slice(0, slash).trim();
    const name = slash === -1 ? value : value.slice(slash + 1).trim();
    if (value === '' || name === '') return setNewNameError(text.newRepositoryRequired);
    if (owner === undefined || owner === '') return setNewNameError(text.ownerUnknown);
    setNewNameError(undefined);
    startPush({ owner, name });
  }

  const pushedTo =
    push?.repository ?? (push?.status === 'succeeded' && link?.repository !== undefined ? link.repository : undefined);
  const newNameId = `${id}-new-name`;
  const hintId = `${id}-new-name-hint`;
  const errorId = `${id}-new-name-error`;

  return (
    <div className="ae-repo-actions">
      {noProject ? (
        <p className="ae-hint">{text.noProject}</p>
      ) : (
        chosen === undefined && linked === undefined && <p className="ae-hint">{text.noneSelected}</p>
      )}
      <div className="ae-actions">
        {chosen !== undefined && !chosenIsLinked && (
          <button
            type="button"
            className="ae-button ae-button-primary ae-truncate"
            disabled={noProject || linking}
            onClick={onLink}
          >
            {linking ? text.linking : text.link(fullName(chosen))}
          </button>
        )}
        {linked !== undefined && (chosen === undefined || chosenIsLinked) && (
          <button
            type="button"
            className="ae-button ae-button-primary ae-truncate"
            disabled={noProject || pushing}
            onClick={() => startPush()}
          >
            {pushing && push?.repository === undefined ? text.pushing : text.pushTo(fullName(linked))}
          </button>
        )}
      </div>
      {latest === 'link' && link?.status === 'succeeded' && link.result !== undefined && link.repository && (
        <Outcome
          title={text.linkedTitle(fullName(link.repository))}
          url={link.result.repo_url}
          branch={link.result.branch}
          text={text}
        />
      )}
      {latest === 'link' && link?.status === 'failed' && (
        <ErrorAlert error={link.error} title={text.linkErrorTitle} context="repository" />
      )}
      <form className="ae-push-new" noValidate onSubmit={onPushNew} aria-labelledby={`${id}-push-heading`}>
        <h3 id={`${id}-push-heading`} className="ae-subtitle">
          {text.pushHeading}
        </h3>
        <div className="ae-field">
          <label htmlFor={newNameId} className="ae-label">
            {text.newRepositoryLabel}
          </label>
          <div className="ae-input-row">
            <input
              id={newNameId}
              className="ae-input"
              type="text"
              value={newName}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={newNameError === undefined ? undefined : true}
              aria-describedby={newNameError === undefined ? hintId : `${hintId} ${errorId}`}
              onChange={(event) => {
                setNewName(event.target.value);
                setNewNameError(undefined);
              }}
            />
            <button type="submit" className="ae-button" disabled={noProject || pushing}>
              {pushing && push?.repository !== undefined ? text.pushing : text.pushNew}
            </button>
          </div>
          <p id={hintId} className="ae-hint">
            {text.newRepositoryHint}
          </p>
          {newNameError !== undefined && (
            <p id={errorId} className="ae-field-error">
              {newNameError}
            </p>
          )}
        </div>
      </form>
      {latest === 'push' && push?.status === 'succeeded' && push.result !== undefined && (
        <Outcome
          title={
            pushedTo === undefined
              ? text.pushedExisting(
                  push.result.repo_url || (link?.repository === undefined ? '' : fullName(link.repository)),
                )
              : push.result.repo_created
                ? text.pushedCreated(fullName(pushedTo))
                : text.pushedExisting(fullName(pushedTo))
          }
          url={push.result.repo_url}
          branch={push.result.branch}
          created={push.result.repo_created}
          text={text}
        />
      )}
      {latest === 'push' && push?.status === 'failed' && (
        <ErrorAlert error={push.error} title={text.pushErrorTitle} context="repository" />
      )}
    </div>
  );
}
