'use client';
import { useCallback, useInsertionEffect, useRef } from 'react';

/**
 * A stable function that always calls the latest `callback` (or nothing when it is undefined): for
 * props like `onError` that effects and event handlers call without re-subscribing on every render.
 */
export function useLatestCallback<Args extends unknown[], Result>(
  callback: ((...args: Args) => Result) | undefined,
): (...args: Args) => Result | undefined {
  const ref = useRef(callback);
  // Updated before any layout effect or event handler of this render can run.
  useInsertionEffect(() => {
    ref.current = callback;
  });
  return useCallback((...args: Args) => ref.current?.(...args), []);
}
