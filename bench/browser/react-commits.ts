/**
 * Counts React commits in React's production build, the one an agency ships, the way React DevTools does:
 * react-dom calls a global hook's `onCommitFiberRoot` after every commit. The profiling build a `<Profiler>`
 * needs does more work per component (timers, a performance-track entry per render), so the pages measured
 * with it were slower than the real thing. Import this module before react-dom, so that the hook is there
 * when react-dom loads.
 */
let onCommit: () => void = () => {};

(window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: object }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true,
  renderers: new Map(),
  inject: () => 1,
  checkDCE() {},
  onScheduleFiberRoot() {},
  onCommitFiberRoot: () => onCommit(),
  onCommitFiberUnmount() {},
  onPostCommitFiberRoot() {},
  setStrictMode() {},
};

/** Calls `listener` after every React commit of the page. */
export function onReactCommit(listener: () => void): void {
  onCommit = listener;
}
