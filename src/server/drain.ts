/**
 * Graceful drain of the proxy: open event streams end with a clean close (no terminal event, so browsers
 * treat it as an interruption and resume) and new generations are refused while the process shuts down.
 */

import { proxyMessages, ProxyRefusal } from './proxy-responses.js';

/** Default most event streams one end user may hold open on one proxy at once (generate, follow-up, events route). */
export const defaultMaxStreamsPerUser = 8;
/** Default most requests to the Agent API one end user may have in flight on one proxy at once (streams apart). */
export const defaultMaxRequestsPerUser = 32;

/**
 * Slots per end user: `take` gives a release (idempotent), or throws the bound's refusal when the user holds `max`
 * already (0: no bound). Taken before anything is spent, so concurrent requests cannot pass the bound.
 */
export interface UserSlots {
  take(userId: string): () => void;
}

/** The refusal past `maxRequestsPerUser`: the API's own words for too many requests, and a second's wait. */
export const tooManyRequestsInFlight = new ProxyRefusal(
  429,
  proxyMessages.tooManyAttempts,
  'too many requests in flight for this user',
  { retryAfterSeconds: 1 },
);

/** Creates the slots of one bound per end user (`UserSlots`), refused with `refusal` past it. */
export function createUserSlots(max: number, refusal: ProxyRefusal): UserSlots {
  const held = new Map<string, number>();
  return {
    take(userId) {
      const count = held.get(userId) ?? 0;
      if (max > 0 && count >= max) throw refusal;
      held.set(userId, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (held.get(userId) ?? 1) - 1;
        if (left > 0) held.set(userId, left);
        else held.delete(userId);
      };
    },
  };
}

/** The open streams of one proxy and whether it is draining. */
export interface DrainState {
  readonly draining: boolean;
  /**
   * Reserves one of the user's open streams before it starts (so concurrent requests cannot pass the bound); gives its
   * release (idempotent: call it when the stream ends, or if it never starts), or refuses with 429 when all are in use.
   */
  reserve(userId: string): () => void;
  /** Registers an open stream's stop; returns the function that forgets it once the stream has ended. */
  track(stop: () => void): () => void;
  /** Starts draining: stops every open stream; resolves once they have all ended. */
  drain(): Promise<void>;
}

/** Creates the drain state of one proxy; each end user holds at most `maxStreamsPerUser` streams (0: no bound). */
export function createDrainState(maxStreamsPerUser = defaultMaxStreamsPerUser): DrainState {
  const open = new Set<{ stop: () => void; ended: Promise<void> }>();
  const streamSlots = createUserSlots(
    maxStreamsPerUser,
    new ProxyRefusal(429, proxyMessages.tooManyStreams, 'too many open streams for this user', {
      retryAfterSeconds: 5,
    }),
  );
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    reserve: (userId) => streamSlots.take(userId),
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
