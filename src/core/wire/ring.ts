/** A fixed-capacity ring buffer: O(1) push, oldest entries dropped first. Used for the log and tool steps. */

/** A bounded, ordered buffer. */
export interface Ring<T> {
  readonly size: number;
  push(item: T): void;
  /** The newest item, if any. */
  last(): T | undefined;
  /** Replaces the newest item (no-op when empty). */
  replaceLast(item: T): void;
  /** The items, oldest first, as a new array. */
  toArray(): T[];
  clear(): void;
}

/** Creates a ring that keeps at most `limit` items (0 keeps none). */
export function createRing<T>(limit: number): Ring<T> {
  const capacity = Math.max(0, Math.floor(limit));
  const buffer: (T | undefined)[] = [];
  let start = 0;
  let size = 0;
  return {
    get size() {
      return size;
    },
    push(item) {
      if (capacity === 0) return;
      if (size < capacity) {
        buffer[(start + size) % capacity] = item;
        size++;
      } else {
        buffer[start] = item;
        start = (start + 1) % capacity;
      }
    },
    last() {
      return size === 0 ? undefined : buffer[(start + size - 1) % capacity];
    },
    replaceLast(item) {
      if (size > 0) buffer[(start + size - 1) % capacity] = item;
    },
    toArray() {
      const out = new Array<T>(size);
      for (let index = 0; index < size; index++) out[index] = buffer[(start + index) % capacity] as T;
      return out;
    },
    clear() {
      buffer.length = 0;
      start = 0;
      size = 0;
    },
  };
}
