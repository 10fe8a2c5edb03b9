'use client';
/** Linking a project to a repository and pushing its code, for the signed-in end user. */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import type {
  IntegrationResult,
  LinkResult,
  PushResult,
  RepositoryLinkState,
  RepositoryPushState,
} from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { unavailableResult } from '../shared/unavailable-result.js';

/** A repository by owner and name. */
export interface RepositoryRef {
  owner: string;
  name: string;
}

/** What `useRepositoryActions` returns. */
export interface UseRepositoryActionsResult {
  /** The latest link made for the project (kept across the code-host round trip and a reload once it succeeded). */
  link: RepositoryLinkState | undefined;
  /** The latest push (kept like the link). */
  push: RepositoryPushState | undefined;
  /**
   * The repository the project's code goes to, as far as this browser knows: the one it linked, or else the
   * one its last successful push named. Undefined before either.
   */
  linked: RepositoryRef | undefined;
  /** Links the project to an existing repository. Call it from an event handler. */
  linkRepository(repository: RepositoryRef): Promise<IntegrationResult<LinkResult>>;
  /** Pushes to the repository (created if missing), or to the linked one without it. Call it from an event handler. */
  pushRepository(repository?: RepositoryRef): Promise<IntegrationResult<PushResult>>;
}

/** The project's latest link and push, the repository they point to, and the actions that make them (nothing is loaded). */
export function useRepositoryActions(projectId: string | undefined): UseRepositoryActionsResult {
  const { store, externalUser } = useAgentContext();
  const userId = externalUser?.id;
  const link = useStore(store, (state) => (projectId === undefined ? undefined : state.repositoryLinks[projectId]));
  const push = useStore(store, (state) => (projectId === undefined ? undefined : state.repositoryPushes[projectId]));
  const actions = useMemo(
    () => ({
      linkRepository: (repository: RepositoryRef) =>
        userId === undefined
          ? unavailableResult<LinkResult>('signedOut')
          : projectId === undefined
            ? unavailableResult<LinkResult>('noProject')
            : store.getState().linkRepository(projectId, userId, repository),
      pushRepository: (repository?: RepositoryRef) =>
        userId === undefined
          ? unavailableResult<PushResult>('signedOut')
          : projectId === undefined
            ? unavailableResult<PushResult>('noProject')
            : store.getState().pushRepository(projectId, userId, repository),
    }),
    [store, projectId, userId],
  );
  const linked =
    (link?.status === 'succeeded' ? link.repository : undefined) ??
    (push?.status === 'succeeded' ? push.repository : undefined);
  return { link, push, linked, ...actions };
}
