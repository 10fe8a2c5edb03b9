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

/**
 * A class, not a closure per ring: every ring shares its methods, so a call on a generation's tool steps keeps one
 * target from build to build and stays inlined where it is hot (each stream event may touch them).
 */
class BoundedRing<T> implements Ring<T> {
  private readonly buffer: (T | undefined)[] = [];
  private start = 0;
  private count = 0;
  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    const { capacity } = this;
    if (capacity === 0) return;
    if (this.count < capacity) {
      this.buffer[(this.start + this.count) % capacity] = item;
      this.count++;
    } else {
      this.buffer[this.start] = item;
      this.start = (this.start + 1) % capacity;
    }
  }

  last(): T | undefined {
    return this.count === 0 ? undefined : this.buffer[(this.start + this.count - 1) % this.capacity];
  }

  replaceLast(item: T): void {
    if (this.count > 0) this.buffer[(this.start + this.count - 1) % this.capacity] = item;
  }

  toArray(): T[] {
    const out = new Array<T>(this.count);
    for (let index = 0; index < this.count; index++)
      out[index] = this.buffer[(this.start + index) % this.capacity] as T;
    return out;
  }

  clear(): void {
    this.buffer.length = 0;
    this.start = 0;
    this.count = 0;
  }
}

/** Creates a ring that keeps at most `limit` items (0 keeps none). */
export function createRing<T>(limit: number): Ring<T> {
  return new BoundedRing<T>(Math.max(0, Math.floor(limit)));
}
