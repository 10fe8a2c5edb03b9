/**
 * A generation's files, each path once, in first-seen order: an open-addressing hash table over typed arrays, not a
 * `Map`. A build lists thousands of paths fresh from `JSON.parse`; a `Map` hashes each new string in a call into
 * the engine and regrows its table as it fills, so 13,334 paths cost 3.7 ms there and 1.0 ms here: a third of all
 * the store added to bare `JSON.parse` (docs/performance.md).
 *
 * Bounded whatever an upstream sends: the hash is seeded per list, and a path whose search passes `maxProbe` slots
 * (only paths crafted to collide get that far) is not kept. It is counted, as a path past the list's memory is.
 */

/** A file of the generation, listed once however many times it was touched. */
export interface GeneratedFile {
  path: string;
  action: 'created' | 'modified';
  /** How many `file_created` events named this path. */
  updates: number;
}

/** The files of a generation by path, in first-seen order. Only the reducer adds to it. */
export interface FileList {
  /** How many files it keeps. */
  readonly size: number;
  get(path: string): GeneratedFile | undefined;
  /** The files, first seen first, as a new array. */
  toArray(): GeneratedFile[];
  /**
   * Notes an event naming `path`: a listed path becomes `modified` (a new object, so published snapshots keep what
   * they showed) and its previous entry is returned. A new path is kept if `room` allows and its search was short:
   * `true` when kept, `false` when only to be counted.
   */
  add(path: string, action: 'created' | 'modified', room: boolean): GeneratedFile | boolean;
}

/** The most slots one search reads. Honest paths never come near: the longest of 2.6 million searches read 45. */
const maxProbe = 256;

/** Seeded 32-bit hash of a path, two UTF-16 units per step, with murmur3's finalizer so every bit reaches the slot. */
function hashPath(path: string, seed: number): number {
  let hash = seed ^ path.length;
  const pairs = path.length - 1;
  let index = 0;
  for (; index < pairs; index += 2)
    hash = Math.imul(hash ^ (path.charCodeAt(index) | (path.charCodeAt(index + 1) << 16)), 0x01000193);
  if (index === pairs) hash = Math.imul(hash ^ path.charCodeAt(index), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

/**
 * A class, not a closure per list: every list shares its methods, so the reducer's calls to `add` keep one target
 * from generation to generation and stay inlined (a closure per list deoptimized them at each new build).
 */
class HashedFileList implements FileList {
  private readonly entries: GeneratedFile[] = [];
  private readonly seed = (Math.random() * 0x1_0000_0000) | 0;
  // Slot `s` is two numbers, the hash of its file at `2s` and the file's index + 1 at `2s + 1` (0: empty), side by
  // side so that a search reads one cache line, not the line of each file it passes. At most half the slots are used.
  private table = new Int32Array(128);

  get size(): number {
    return this.entries.length;
  }

  get(path: string): GeneratedFile | undefined {
    const slot = this.find(path, hashPath(path, this.seed));
    return slot === undefined || slot < 0 ? undefined : this.entries[(this.table[2 * slot + 1] as number) - 1];
  }

  toArray(): GeneratedFile[] {
    return this.entries.slice();
  }

  add(path: string, action: 'created' | 'modified', room: boolean): GeneratedFile | boolean {
    const hash = hashPath(path, this.seed);
    const slot = this.find(path, hash);
    if (slot === undefined) return false;
    const { entries, table } = this;
    if (slot >= 0) {
      const index = (table[2 * slot + 1] as number) - 1;
      const previous = entries[index] as GeneratedFile;
      entries[index] = { path, action: 'modified', updates: previous.updates + 1 };
      return previous;
    }
    if (!room) return false;
    entries.push({ path, action, updates: 1 });
    table[-2 * slot - 2] = hash;
    table[-2 * slot - 1] = entries.length;
    if (entries.length * 4 >= table.length) this.grow();
    return true;
  }

  /** The slot of `path`, or of the empty slot where it would go (negated, minus one); `undefined` past `maxProbe`. */
  private find(path: string, hash: number): number | undefined {
    const { table, entries } = this;
    const mask = (table.length >> 1) - 1;
    let slot = hash & mask;
    for (let probe = 0; probe < maxProbe; probe++) {
      const held = table[2 * slot + 1] as number;
      if (held === 0) return -slot - 1;
      if (table[2 * slot] === hash && (entries[held - 1] as GeneratedFile).path === path) return slot;
      slot = (slot + 1) & mask;
    }
    return undefined;
  }

  private grow(): void {
    const { table } = this;
    const grown = new Int32Array(table.length * 2);
    const mask = (grown.length >> 1) - 1;
    for (let from = 0; from < table.length; from += 2) {
      const held = table[from + 1] as number;
      if (held === 0) continue;
      const hash = table[from] as number;
      let slot = hash & mask;
      while (grown[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      grown[2 * slot] = hash;
      grown[2 * slot + 1] = held;
    }
    this.table = grown;
  }
}

/** Creates an empty list. */
export function createFileList(): FileList {
  return new HashedFileList();
}
