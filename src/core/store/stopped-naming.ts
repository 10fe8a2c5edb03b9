/**
 * Builds the person stopped watching before their project was named. Such a build goes on at the server and would be
 * lost to this page: its stream is read on until it names its project (then closed, and the project polled until the
 * build ends, as any stopped build is) or tells how it ended (an `error` before any project, say), and no further.
 * What it reads goes through the one machine, which takes only those events in `aborted`.
 */
import type { AgentEvent } from '../wire/events.js';
import { generationOutcome } from '../wire/generation-machine.js';
import { reduceGenerationEvent } from '../wire/generation-reducer.js';
import type { StoreGeneration } from './generation.js';
import type { GenerationRegistry } from './generation-registry.js';

/** A stopped run whose stream is read on for its project's name. */
interface NamingRun {
  generation: StoreGeneration;
  controller: AbortController;
}

/** What the naming needs of the runs around it. */
export interface StoppedNamingContext {
  now(): number;
  isDestroyed(): boolean;
  registry: Pick<GenerationRegistry, 'get' | 'remove'>;
  /** Re-keys, saves and publishes a generation that changed. */
  publish(generation: StoreGeneration): void;
  /** Publishes a removal. */
  publishRemoval(): void;
  watchUntilEnded(projectId: string): void;
}

/** The runs stopped before their project was named, of one store. */
export interface StoppedNaming {
  add(run: NamingRun): void;
  has(run: NamingRun): boolean;
  /** The run's stream ended, named or not. */
  forget(run: NamingRun): void;
  /** An event of the run's stream: its project's name or its end is taken, and ends the reading. */
  onEvent(run: NamingRun, event: AgentEvent): void;
  /** Closes the stream read on for this generation's name at once (a reset forgot it): nothing of it is read again. */
  close(generation: StoreGeneration): void;
  /** Closes every stream still read on (the store's end). */
  destroy(): void;
}

/** Creates the naming of stopped runs of one store. */
export function createStoppedNaming(context: StoppedNamingContext): StoppedNaming {
  const naming = new Set<NamingRun>();
  function end(run: NamingRun): void {
    naming.delete(run);
    run.controller.abort();
  }
  return {
    add: (run) => void naming.add(run),
    has: (run) => naming.has(run),
    forget: (run) => void naming.delete(run),
    onEvent(run, event) {
      const { generation } = run;
      if (generation.removed || context.isDestroyed()) return end(run);
      // The machine decides what a stopped generation takes (its name, its end): anything else is ignored there.
      if (reduceGenerationEvent(generation, event, context.now()) === 'ignored') return;
      end(run);
      const { projectId } = generation;
      // The project is on screen already (the person opened it meanwhile): that generation follows it, not this one.
      const other = projectId === undefined ? undefined : context.registry.get(projectId);
      if (other !== undefined && other !== generation) {
        context.registry.remove(generation.key);
        return context.publishRemoval();
      }
      context.publish(generation);
      // Named, the build goes on (an end read here has settled it): polled until it ends.
      if (projectId !== undefined && generationOutcome(generation) === 'aborted') context.watchUntilEnded(projectId);
    },
    close(generation) {
      for (const run of [...naming]) if (run.generation === generation) end(run);
    },
    destroy() {
      for (const run of [...naming]) end(run);
    },
  };
}
