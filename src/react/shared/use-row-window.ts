'use client';
/** Windowing for lists of fixed-height rows: only the rows in view (plus a margin) are rendered. */
import { useEffect, useRef, useState, type RefObject } from 'react';

/** The rows to render, `[start, end)`, and the height of the whole list. */
export interface RowWindow {
  start: number;
  end: number;
  totalHeight: number;
}

/** Options of `useRowWindow`. */
export interface RowWindowOptions {
  count: number;
  rowHeight: number;
  /** Rows rendered beyond each edge of the view. */
  overscan: number;
  /** Viewport height used before layout and where there is none (server rendering, jsdom); the least height the window covers. */
  fallbackHeight: number;
}

/** The first row in view and how many rows the view holds: all the window depends on. */
interface View {
  first: number;
  visible: number;
}

/** Follows the scroll position and size of `scrollRef` and says which rows are in view. */
export function useRowWindow(scrollRef: RefObject<HTMLElement | null>, options: RowWindowOptions): RowWindow {
  const { count, rowHeight, overscan, fallbackHeight } = options;
  const [view, setView] = useState<View>(() => ({ first: 0, visible: Math.ceil(fallbackHeight / rowHeight) }));
  // The view last set, read by `measure`: an update that React only finds unchanged while rendering still renders.
  const shown = useRef(view);

  useEffect(() => {
    const element = scrollRef.current;
    if (element === null) return;
    // A view smaller than the fallback is a list that has not filled it yet: it shows all its rows anyway. Only
    // a change of rows re-renders, so neither the first measure nor a list growing to its height costs a commit
    // of its own next to the store's one per frame.
    const measure = () => {
      const first = Math.floor(element.scrollTop / rowHeight);
      const visible = Math.ceil(Math.max(element.clientHeight, fallbackHeight) / rowHeight);
      if (shown.current.first === first && shown.current.visible === visible) return;
      shown.current = { first, visible };
      setView(shown.current);
    };
    element.addEventListener('scroll', measure, { passive: true });
    // The observer's first call comes after the frame's own layout, so the first measure forces none (at mount, in
    // the same task as the commit, it forced one: 16-65 ms at 4x CPU throttling). Without one, measure now.
    const resizes = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : undefined;
    if (resizes === undefined) measure();
    else resizes.observe(element);
    return () => {
      element.removeEventListener('scroll', measure);
      resizes?.disconnect();
    };
  }, [scrollRef, rowHeight, fallbackHeight]);

  return {
    start: Math.max(0, Math.min(count, view.first - overscan)),
    end: Math.min(count, view.first + view.visible + overscan),
    totalHeight: count * rowHeight,
  };
}
