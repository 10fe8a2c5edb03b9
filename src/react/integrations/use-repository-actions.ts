'use client';
/** Linking a project to a repository and pushing its code, for the signed-in end user. */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import {
  mutationKeys,
  resourceSpecs,
  selectResource,
  type IntegrationResult,
  type LinkResult,
  type Mutation,
  type PushResult,
  type RepositoryRef,
} from '../../core/index.js';
import { useAgentContext } from '../provider/agent-context.js';
import { unavailableResult } from '../shared/unavailable-result.js';
import { useMutation } from '../shared/use-mutation.js';

export type { RepositoryRef };

/** What `useRepositoryActions` returns. */
export interface UseRepositoryActionsResult {
  /** The latest link made for the project, its variables the repository (kept across the code-host round trip and a reload once it succeeded). */
  link: Mutation<LinkResult, RepositoryRef>;
  /** The latest push, its variables the repository it named, none for the linked one (kept like the link). */
  push: Mutation<PushResult, RepositoryRef | undefined>;
  /**
   * The repository the project's code goes to (a push without one pushes there), as the latest link or push answer
   * told it: a link links the one it named, a push by name links that one only when nothing was linked, a failure
   * changes nothing (the store's `linkedRepository` resource, kept across the round trip and a reload). Undefined
   * before either.
   */
  linked: RepositoryRef | undefined;
  /** The latest link or push answer about `linked`: its `repo_url` and `branch`. */
  linkedAnswer: LinkResult | PushResult | undefined;
  /** Links the project to an existing repository. Call it from an event handler. */
  linkRepository(repository: RepositoryRef): Promise<IntegrationResult<LinkResult>>;
  /** Pushes to the repository (created if missing), or to the linked one without it. Call it from an event handler. */
  pushRepository(repository?: RepositoryRef): Promise<IntegrationResult<PushResult>>;
}

/** The project's latest link and push, the repository they point to, and the actions that make them (nothing is loaded). */
export function useRepositoryActions(projectId: string | undefined): UseRepositoryActionsResult {
  const { store, externalUser } = useAgentContext();
  const userId = externalUser?.id;
  const link = useMutation(projectId === undefined ? undefined : mutationKeys.repositoryLink(projectId));
  const push = useMutation(projectId === undefined ? undefined : mutationKeys.repositoryPush(projectId));
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
  const held = useStore(store, (state) =>
    projectId === undefined ? undefined : selectResource(state, resourceSpecs.linkedRepository(projectId)).data,
  );
  return { link, push, linked: held?.repository, linkedAnswer: held?.answer, ...actions };
}
