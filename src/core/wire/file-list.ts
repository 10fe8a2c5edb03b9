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

/** Creates an empty list. */
export function createFileList(): FileList {
  const entries: GeneratedFile[] = [];
  const seed = (Math.random() * 0x1_0000_0000) | 0;
  // `slots` holds an entry's index + 1 (0 is empty); at most half of them are used. `hashes` holds each entry's hash.
  let slots = new Int32Array(64);
  let hashes = new Int32Array(32);

  /** The slot of `path`, or of the empty slot where it would go (negated, minus one); `undefined` past `maxProbe`. */
  const find = (path: string, hash: number): number | undefined => {
    const held = slots;
    const mask = held.length - 1;
    let slot = hash & mask;
    for (let probe = 0; probe < maxProbe; probe++) {
      const entry = held[slot] as number;
      if (entry === 0) return -slot - 1;
      if (hashes[entry - 1] === hash && (entries[entry - 1] as GeneratedFile).path === path) return slot;
      slot = (slot + 1) & mask;
    }
    return undefined;
  };

  const grow = () => {
    const grown = new Int32Array(slots.length * 2);
    const mask = grown.length - 1;
    for (let index = 0; index < entries.length; index++) {
      let slot = (hashes[index] as number) & mask;
      while (grown[slot] !== 0) slot = (slot + 1) & mask;
      grown[slot] = index + 1;
    }
    slots = grown;
    const moreHashes = new Int32Array(hashes.length * 2);
    moreHashes.set(hashes);
    hashes = moreHashes;
  };

  return {
    get size() {
      return entries.length;
    },
    get(path) {
      const slot = find(path, hashPath(path, seed));
      return slot === undefined || slot < 0 ? undefined : entries[(slots[slot] as number) - 1];
    },
    toArray() {
      return entries.slice();
    },
    add(path, action, room) {
      const hash = hashPath(path, seed);
      const slot = find(path, hash);
      if (slot === undefined) return false;
      if (slot >= 0) {
        const index = (slots[slot] as number) - 1;
        const previous = entries[index] as GeneratedFile;
        entries[index] = { path, action: 'modified', updates: previous.updates + 1 };
        return previous;
      }
      if (!room) return false;
      const index = entries.length;
      entries.push({ path, action, updates: 1 });
      hashes[index] = hash;
      slots[-slot - 1] = index + 1;
      if (entries.length * 2 >= slots.length) grow();
      return true;
    },
  };
}
