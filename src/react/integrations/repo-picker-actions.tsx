'use client';
/**
 * The link-and-push part of `RepoPicker`: the linked repository with its last save on top, one action per
 * state (link the chosen repository, or push to the linked one), then pushing to a new repository by name.
 */
import { useId, useState, type FormEvent } from 'react';
import type { LinkResult, PushResult, Repository } from '../../core/index.js';
import type { RepoPickerLabels } from './repo-picker.labels.js';
import { ErrorAlert } from '../shared/error-alert.js';
import { textOf } from '../shared/outside-values.js';
import { Icon } from '../shared/icons.js';
import { AddressLink } from '../shared/external-link.js';
import { safeHttpUrl } from '../../core/index.js';
import { useRepositoryActions, type RepositoryRef } from './use-repository-actions.js';
import { useLatestCallback } from '../shared/use-latest-callback.js';

/** Props of `RepoPickerActions`. */
export interface RepoPickerActionsProps {
  text: RepoPickerLabels;
  projectId: string | undefined;
  /** A build is changing the app: its code is saved once the build is done (linking may go on). */
  building: boolean;
  /** Why there is no project to save, when not "generate one first" (a project that is gone). */
  noProjectHint?: string | undefined;
  selected: Repository | undefined;
  /** The connected code-host login: the owner of a new repository named without one. */
  login: string | undefined;
  onLinked: ((result: LinkResult) => void) | undefined;
  onPushed: ((result: PushResult) => void) | undefined;
  /** Whether its action is the screen's primary one (filled) or a secondary one. */
  emphasis?: 'primary' | 'secondary' | undefined;
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

function Outcome(props: {
  title: string;
  /** The answer's address and branch: read here, as another proxy may send any type. */
  url: unknown;
  branch: unknown;
  created?: boolean | undefined;
  text: RepoPickerLabels;
}) {
  const { title, created, text } = props;
  const url = textOf(props.url);
  const branch = textOf(props.branch);
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
            <AddressLink url={safe} />
          )}
        </p>
      )}
    </div>
  );
}

/** Whether two references name the same repository (`owner/name`, or the name alone without an owner). */
export const sameRepository = (a: RepositoryRef, b: RepositoryRef) => fullName(a) === fullName(b);

/** Link and push for the picker's chosen repository. */
export function RepoPickerActions(props: RepoPickerActionsProps) {
  const { text, projectId, building, noProjectHint, selected, login, emphasis = 'primary', onLinked, onPushed } = props;
  const { link, push, linked, linkedAnswer, linkRepository, pushRepository } = useRepositoryActions(projectId);
  const [newName, setNewName] = useState('');
  const [newNameError, setNewNameError] = useState<string | undefined>(undefined);
  // One error in one place: the latest action's (a push's failure replaces a link's, and back).
  // On mount (the sheet opened again) it is what the store holds: a push's outcome if there is one, else a link's.
  const [latest, setLatest] = useState<'link' | 'push' | undefined>(() =>
    push.status === 'error' ? 'push' : link.status === 'error' ? 'link' : undefined,
  );
  const callOnLinked = useLatestCallback(onLinked);
  const callOnPushed = useLatestCallback(onPushed);
  const id = useId();

  const linking = link.status === 'pending';
  const pushing = push.status === 'pending';
  const chosen = selected === undefined ? undefined : ownerAndName(selected);
  const chosenIsLinked = chosen !== undefined && linked !== undefined && sameRepository(chosen, linked);
  const noProject = projectId === undefined;
  const pushHeld = noProject || building;
  // The action names the repository, the one place on screen that says where the code goes: it wraps, never cut.
  const primaryClass =
    emphasis === 'primary' ? 'ae-button ae-button-primary ae-button-wraps' : 'ae-button ae-button-wraps';
  // The linked repository is where the project's code goes: its box tells the last save there, if any. A save
  // to another repository by name (something else is linked) is told on its own, under the form it came from.
  const pushed = push.data;
  const pushedToLinked =
    pushed !== undefined &&
    linked !== undefined &&
    (push.variables === undefined || sameRepository(push.variables, linked));
  const pushedElsewhere = pushed !== undefined && !pushedToLinked ? push.variables : undefined;
  const savedTitle = (repository: RepositoryRef, result: PushResult) =>
    result.repo_created ? text.pushedCreated(fullName(repository)) : text.pushedExisting(fullName(repository));

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
    // The login comes from an answer: null or blank is no owner.
    const owner = slash === -1 ? textOf(login) : value.slice(0, slash).trim();
    const name = slash === -1 ? value : value.slice(slash + 1).trim();
    if (value === '' || name === '') return setNewNameError(text.newRepositoryRequired);
    if (owner === '') return setNewNameError(text.ownerUnknown);
    setNewNameError(undefined);
    startPush({ owner, name });
  }

  const newNameId = `${id}-new-name`;
  const hintId = `${id}-new-name-hint`;
  const errorId = `${id}-new-name-error`;

  return (
    <div className="ae-repo-actions">
      {linked !== undefined && (
        <Outcome
          title={pushedToLinked ? savedTitle(linked, pushed) : text.linkedTitle(fullName(linked))}
          url={linkedAnswer?.repo_url}
          branch={linkedAnswer?.branch}
          created={pushedToLinked ? pushed.repo_created : undefined}
          text={text}
        />
      )}
      {pushHeld ? (
        <p className="ae-hint">{noProject ? (noProjectHint ?? text.noProject) : text.building}</p>
      ) : (
        chosen === undefined && linked === undefined && <p className="ae-hint">{text.noneSelected}</p>
      )}
      <div className="ae-actions">
        {chosen !== undefined && !chosenIsLinked ? (
          <button type="button" className={primaryClass} disabled={noProject || linking} onClick={onLink}>
            {linking ? text.linking : text.link(fullName(chosen))}
          </button>
        ) : (
          linked !== undefined && (
            <button type="button" className={primaryClass} disabled={pushHeld || pushing} onClick={() => startPush()}>
              {pushing && push.variables === undefined ? text.pushing : text.pushTo(fullName(linked))}
            </button>
          )
        )}
      </div>
      {latest === 'link' && link.error !== undefined && (
        <ErrorAlert
          error={link.error}
          // Named: under the linked repository's box and button, an unnamed failure reads as theirs.
          title={link.variables === undefined ? text.linkErrorTitle : text.linkFailedTitle(fullName(link.variables))}
          context="repository"
        />
      )}
      {latest === 'push' && push.error !== undefined && push.variables === undefined && (
        <ErrorAlert error={push.error} title={text.pushErrorTitle} context="repository" />
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
            <button type="submit" className="ae-button" disabled={pushHeld || pushing}>
              {pushing && push.variables !== undefined ? text.pushing : text.pushNew}
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
      {pushedElsewhere !== undefined && pushed !== undefined && (
        <Outcome
          title={savedTitle(pushedElsewhere, pushed)}
          url={pushed.repo_url}
          branch={pushed.branch}
          created={pushed.repo_created}
          text={text}
        />
      )}
      {latest === 'push' && push.error !== undefined && push.variables !== undefined && (
        <ErrorAlert error={push.error} title={text.pushErrorTitle} context="repository" />
      )}
    </div>
  );
}
