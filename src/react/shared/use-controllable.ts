/** One state that a parent may control (`value` + `onChange`) or leave to the component (`defaultValue`). */
import { useCallback, useState } from 'react';
import { useLatestCallback } from './use-latest-callback.js';

/**
 * Radix's controllable-state pattern: while `value` is not `undefined` the parent owns the state and the
 * component only asks through `onChange`; otherwise the component keeps it, starting at `defaultValue`.
 */
export function useControllable<Value>(
  value: Value | undefined,
  defaultValue: Value,
  onChange: ((value: Value) => void) | undefined,
): [Value, (next: Value) => void] {
  const [own, setOwn] = useState(defaultValue);
  const controlled = value !== undefined;
  const notify = useLatestCallback(onChange);
  const set = useCallback(
    (next: Value) => {
      if (!controlled) setOwn(next);
      notify(next);
    },
    [controlled, notify],
  );
  return [controlled ? value : own, set];
}
