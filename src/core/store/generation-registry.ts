/**
 * The generations a store holds, by key (the project id, or `pending:N` before it is known), with what
 * changed since the last publish: the store turns that into one state patch per frame.
 */
import { snapshotGeneration, type GenerationState, type StoreGeneration } from './generation.js';
import type { ProjectSnapshot } from './project-poller.js';

/** The published part of the registry. */
export interface GenerationsPatch {
  generations?: Record<string, GenerationState>;
  currentKey?: string | undefined;
  projects?: Record<string, ProjectSnapshot>;
}

/** Keyed generations, the current key, polled projects, and their changes since the last patch. */
export interface GenerationRegistry {
  get(key: string): StoreGeneration | undefined;
  /** Adds a generation under its key (a previous one under that key is marked removed). */
  place(generation: StoreGeneration): void;
  /** Re-keys a generation by its project id once known. */
  keyByProject(generation: StoreGeneration): void;
  /** Removes the generation under a key. */
  remove(key: string): StoreGeneration | undefined;
  /**
   * The generation changed: publish it with the next patch. True when it was not waiting for one yet; when it was,
   * a publish has been asked for since (every touch is followed by one) and has not run (it takes the patch).
   */
  touch(generation: StoreGeneration): boolean;
  readonly currentKey: string | undefined;
  setCurrent(key: string | undefined): void;
  setProject(snapshot: ProjectSnapshot): void;
  hasPending(): boolean;
  /** The changes as a state patch over the previous state; `copied` counts list items copied. */
  takePatch(
    previous: { generations: Record<string, GenerationState>; projects: Record<string, ProjectSnapshot> },
    count: { copied: number },
  ): GenerationsPatch;
}

/** Creates an empty registry. */
export function createGenerationRegistry(): GenerationRegistry {
  const generations = new Map<string, StoreGeneration>();
  const dirty = new Set<StoreGeneration>();
  const removedKeys = new Set<string>();
  const dirtyProjects = new Map<string, ProjectSnapshot>();
  let currentKey: string | undefined;
  let currentDirty = false;

  function setCurrent(key: string | undefined): void {
    if (currentKey === key) return;
    currentKey = key;
    currentDirty = true;
  }

  function place(generation: StoreGeneration): void {
    const previous = generations.get(generation.key);
    if (previous !== undefined && previous !== generation) previous.removed = true;
    generations.set(generation.key, generation);
    removedKeys.delete(generation.key);
    dirty.add(generation);
  }

  return {
    get: (key) => generations.get(key),
    place,
    keyByProject(generation) {
      const projectId = generation.projectId;
      if (projectId === undefined || generation.key === projectId || generation.removed) return;
      const oldKey = generation.key;
      generations.delete(oldKey);
      removedKeys.add(oldKey);
      generation.key = projectId;
      place(generation);
      if (currentKey === oldKey) setCurrent(projectId);
    },
    remove(key) {
      const generation = generations.get(key);
      if (generation === undefined) return undefined;
      generation.removed = true;
      generations.delete(key);
      removedKeys.add(key);
      dirty.delete(generation);
      return generation;
    },
    touch(generation) {
      if (generation.removed) return false;
      const waiting = dirty.size;
      return dirty.add(generation).size !== waiting;
    },
    get currentKey() {
      return currentKey;
    },
    setCurrent,
    setProject(snapshot) {
      dirtyProjects.set(snapshot.projectId, snapshot);
    },
    hasPending: () => dirty.size > 0 || removedKeys.size > 0 || dirtyProjects.size > 0 || currentDirty,
    takePatch(previous, count) {
      const patch: GenerationsPatch = {};
      if (dirty.size > 0 || removedKeys.size > 0) {
        const published = { ...previous.generations };
        for (const key of removedKeys) delete published[key];
        for (const generation of dirty)
          if (!generation.removed) published[generation.key] = snapshotGeneration(generation, count);
        removedKeys.clear();
        dirty.clear();
        patch.generations = published;
      }
      if (dirtyProjects.size > 0) {
        patch.projects = { ...previous.projects, ...Object.fromEntries(dirtyProjects) };
        dirtyProjects.clear();
      }
      if (currentDirty) {
        patch.currentKey = currentKey;
        currentDirty = false;
      }
      return patch;
    },
  };
}
