'use client';
import { useEffect, useState } from 'react';
import type { AgentApiError } from '../../core/index.js';

const secondsIn = (milliseconds: number) => Math.max(0, Math.ceil(milliseconds / 1000));

/**
 * Whole seconds left of an error's `retryAfterMs`, counted from when this error was first shown and
 * ticking down to 0; undefined for an error without a wait. A new error object starts a new countdown.
 */
export function useRetryCountdown(error: AgentApiError | undefined): number | undefined {
  const [tick, setTick] = useState<{ error: AgentApiError; left: number }>();

  useEffect(() => {
    const waitMs = error?.retryAfterMs;
    if (error === undefined || waitMs === undefined) return;
    const until = Date.now() + waitMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Each tick lands when the shown number should drop, so the countdown never skips or repeats a second.
    const schedule = (left: number) => {
      if (left > 0) timer = setTimeout(update, Math.max(0, until - Date.now() - (left - 1) * 1000));
    };
    const update = () => {
      const left = secondsIn(until - Date.now());
      setTick({ error, left });
      schedule(left);
    };
    schedule(secondsIn(waitMs));
    return () => clearTimeout(timer);
  }, [error]);

  if (error?.retryAfterMs === undefined) return undefined;
  return tick?.error === error ? tick.left : secondsIn(error.retryAfterMs);
}
