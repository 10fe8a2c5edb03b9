'use client';
/** Windowing for lists of fixed-height rows: only the rows in view (plus a margin) are rendered. */
import { useEffect, useState, type RefObject } from 'react';

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
  /** Viewport height used before layout (and where there is none: server rendering, jsdom). */
  fallbackHeight: number;
}

/** Follows the scroll position and size of `scrollRef` and says which rows are in view. */
export function useRowWindow(scrollRef: RefObject<HTMLElement | null>, options: RowWindowOptions): RowWindow {
  const { count, rowHeight, overscan, fallbackHeight } = options;
  const [view, setView] = useState({ top: 0, height: fallbackHeight });

  useEffect(() => {
    const element = scrollRef.current;
    if (element === null) return;
    const measure = () => setView({ top: element.scrollTop, height: element.clientHeight || fallbackHeight });
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const resizes = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : undefined;
    resizes?.observe(element);
    return () => {
      element.removeEventListener('scroll', measure);
      resizes?.disconnect();
    };
  }, [scrollRef, fallbackHeight]);

  const first = Math.floor(view.top / rowHeight);
  const visible = Math.ceil(view.height / rowHeight);
  return {
    start: Math.max(0, Math.min(count, first - overscan)),
    end: Math.min(count, first + visible + overscan),
    totalHeight: count * rowHeight,
  };
}
