/**
 * The clock read once per burst: the events applied in one task came in one network chunk, so they arrived
 * together, and a clock read for each of them costs as much as the rest of their bookkeeping.
 */
export function burstClock(now: () => number): () => number {
  let burstAt: number | undefined;
  const endBurst = () => {
    burstAt = undefined;
  };
  return () => {
    if (burstAt === undefined) {
      burstAt = now();
      queueMicrotask(endBurst);
    }
    return burstAt;
  };
}
