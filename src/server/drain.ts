/**
 * Graceful drain of the proxy: open event streams end with a clean close (no terminal event, so browsers
 * treat it as an interruption and resume) and new generations are refused while the process shuts down.
 */

/** The open streams of one proxy and whether it is draining. */
export interface DrainState {
  readonly draining: boolean;
  /** Registers an open stream's stop; returns the function that forgets it once the stream has ended. */
  track(stop: () => void): () => void;
  /** Starts draining: stops every open stream; resolves once they have all ended. */
  drain(): Promise<void>;
}

/** Creates the drain state of one proxy. */
export function createDrainState(): DrainState {
  const open = new Set<{ stop: () => void; ended: Promise<void> }>();
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    track(stop) {
      let forget!: () => void;
      const stream = { stop, ended: new Promise<void>((resolve) => (forget = resolve)) };
      open.add(stream);
      if (draining) stop();
      return () => {
        open.delete(stream);
        forget();
      };
    },
    drain() {
      draining = true;
      const streams = [...open];
      for (const stream of streams) stream.stop();
      return Promise.all(streams.map((stream) => stream.ended)).then(() => undefined);
    },
  };
}
