/** Keeps the last project of a store in Web Storage (sessionStorage by default) so a reload can resume it. */
import { agentIdPattern } from '../wire/routes.js';
import { AgentApiError, type AgentErrorCode, type AgentErrorKind } from '../wire/errors.js';
import type { GenerationMode } from '../wire/resources.js';
import {
  generationStatuses,
  type GenerationDraft,
  type GenerationKind,
  type GenerationStatus,
} from '../wire/generation-reducer.js';

/** The part of the Web Storage API the store uses. */
export type AgentStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** What is kept about the last project. */
export interface SavedProject {
  projectId: string;
  status: GenerationStatus;
  kind: GenerationKind;
  mode: GenerationMode;
  appUrl?: string;
  errorKind?: AgentErrorKind;
  errorCode?: AgentErrorCode;
  errorMessage?: string;
  /**
   * The last id of the proxy's events route the page had applied or started after (`StoreGenerationInit.lastEventId`),
   * so that a reloaded page replays the same generation, and a follow-up after it the one after, never the build before.
   */
  lastEventId?: number;
}

/** What is kept of a generation once its project is named (`undefined` before). */
export function savedProjectOf(
  generation: Pick<GenerationDraft, 'projectId' | 'status' | 'kind' | 'appUrl' | 'error'> & {
    mode: GenerationMode;
    lastEventId: number;
  },
): SavedProject | undefined {
  const { projectId, appUrl, error, lastEventId } = generation;
  if (projectId === undefined) return undefined;
  const saved: SavedProject = { projectId, status: generation.status, kind: generation.kind, mode: generation.mode };
  if (appUrl !== undefined) saved.appUrl = appUrl;
  if (lastEventId > 0) saved.lastEventId = lastEventId;
  if (error !== undefined) {
    saved.errorKind = error.kind;
    saved.errorCode = error.code;
    saved.errorMessage = error.message;
  }
  return saved;
}

/** Reads and writes the saved project; every storage failure is swallowed (resuming is a convenience). */
export interface ProjectPersistence {
  save(saved: SavedProject): void;
  read(): SavedProject | undefined;
  /** Removes the saved project if it is this one. */
  forget(projectId: string): void;
}

const statuses: ReadonlySet<string> = new Set(generationStatuses);

/** The saved error as an `AgentApiError`, if one was saved. */
export function savedError(saved: SavedProject): AgentApiError | undefined {
  return saved.errorKind === undefined || saved.errorMessage === undefined
    ? undefined
    : new AgentApiError(
        saved.errorKind,
        saved.errorMessage,
        saved.errorCode === undefined ? {} : { code: saved.errorCode },
      );
}

/** Creates the persistence of one store; `null` storage keeps nothing. */
export function createProjectPersistence(storage: AgentStorage | null, storageKey: string): ProjectPersistence {
  function read(): SavedProject | undefined {
    if (storage === null) return undefined;
    let value: unknown;
    try {
      const text = storage.getItem(storageKey);
      value = text === null ? undefined : JSON.parse(text);
    } catch {
      return undefined;
    }
    if (typeof value !== 'object' || value === null) return undefined;
    const record = value as Partial<SavedProject>;
    if (
      typeof record.projectId !== 'string' ||
      !agentIdPattern.test(record.projectId) ||
      typeof record.status !== 'string' ||
      !statuses.has(record.status)
    )
      return undefined;
    return {
      projectId: record.projectId,
      status: record.status,
      kind: record.kind === 'followUp' ? 'followUp' : 'generate',
      mode: record.mode === 'design' ? 'design' : 'build',
      ...(typeof record.appUrl === 'string' ? { appUrl: record.appUrl } : {}),
      ...(typeof record.errorKind === 'string' ? { errorKind: record.errorKind } : {}),
      ...(typeof record.errorCode === 'string' ? { errorCode: record.errorCode } : {}),
      ...(typeof record.errorMessage === 'string' ? { errorMessage: record.errorMessage } : {}),
      ...(Number.isSafeInteger(record.lastEventId) && (record.lastEventId as number) > 0
        ? { lastEventId: record.lastEventId }
        : {}),
    };
  }

  return {
    save(saved) {
      if (storage === null) return;
      try {
        storage.setItem(storageKey, JSON.stringify(saved));
      } catch {
        // Quota or privacy mode: the next reload simply has nothing to resume.
      }
    },
    read,
    forget(projectId) {
      if (storage === null) return;
      try {
        if (read()?.projectId === projectId) storage.removeItem(storageKey);
      } catch {
        // Nothing to do: the entry stays and a reload offers it again.
      }
    },
  };
}
