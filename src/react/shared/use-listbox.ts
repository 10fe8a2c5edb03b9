'use client';
/** Keyboard behaviour of a single-select listbox with `aria-activedescendant` (the WAI-ARIA listbox pattern). */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

/** Type-ahead letters typed within this many milliseconds of each other form one search. */
const typeAheadWindowMs = 700;

/** Options of `useListbox`. */
export interface UseListboxOptions<Item> {
  items: readonly Item[];
  /** The text type-ahead matches against (its start, case-insensitive). */
  textOf: (item: Item) => string;
  /** Enter or Space on the active option. */
  onChoose: (item: Item) => void;
}

/** What `useListbox` returns. */
export interface UseListboxResult<Item> {
  activeIndex: number;
  active: Item | undefined;
  /** The DOM id of an option, for `id` and `aria-activedescendant`. */
  optionId: (index: number) => string;
  /** Moves the active option (clamped to the list). */
  moveTo: (index: number) => void;
  /** Forgets the active option (a new search). */
  reset: () => void;
  /** Arrows, Home/End, Enter/Space and type-ahead. */
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
}

/** The active option of a listbox, moved by keys and kept in view. */
export function useListbox<Item>({ items, textOf, onChoose }: UseListboxOptions<Item>): UseListboxResult<Item> {
  const id = useId();
  const [activeIndex, setActiveIndex] = useState(-1);
  const typeAhead = useRef({ text: '', at: Number.NEGATIVE_INFINITY });
  const optionId = (index: number) => `${id}-option-${index}`;
  // A shorter list (a search, a new page) keeps the active option inside it.
  const shownIndex = Math.min(activeIndex, items.length - 1);

  useEffect(() => {
    if (shownIndex < 0 || typeof document === 'undefined') return;
    document.getElementById(`${id}-option-${shownIndex}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [id, shownIndex]);

  const moveTo = (index: number) => {
    if (items.length > 0) setActiveIndex(Math.max(0, Math.min(items.length - 1, index)));
  };

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    switch (event.key) {
      case 'ArrowDown':
        moveTo(shownIndex + 1);
        break;
      case 'ArrowUp':
        moveTo(shownIndex < 0 ? 0 : shownIndex - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(items.length - 1);
        break;
      case 'Enter':
      case ' ': {
        const item = items[shownIndex];
        if (item !== undefined) onChoose(item);
        break;
      }
      default: {
        if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return;
        const typed = event.key.toLowerCase();
        const previous = typeAhead.current;
        const extending = event.timeStamp - previous.at < typeAheadWindowMs;
        const search = extending ? previous.text + typed : typed;
        typeAhead.current = { text: search, at: event.timeStamp };
        // A new search starts after the active option, so one letter pressed again cycles through its matches.
        const from = extending ? Math.max(shownIndex, 0) : shownIndex + 1;
        for (let step = 0; step < items.length; step++) {
          const index = (from + step) % items.length;
          if (textOf(items[index]!).toLowerCase().startsWith(search)) {
            setActiveIndex(index);
            break;
          }
        }
      }
    }
    event.preventDefault();
  }

  return {
    activeIndex: shownIndex,
    active: items[shownIndex],
    optionId,
    moveTo,
    reset: () => setActiveIndex(-1),
    onKeyDown,
  };
}
