/**
 * A generation's file list: each path once, first seen first, whatever an upstream sends. Its hash table is the
 * store's own (a `Map` cost three times as much per path); these are the promises a `Map` kept for free.
 */
import { describe, expect, it } from 'vitest';
import {
  applyGenerationAction,
  createGenerationDraft,
  generationCounts,
  reduceGenerationEvent,
  type GenerationDraft,
} from 'agent-embed/core';

function listing(): GenerationDraft {
  const draft = createGenerationDraft({ kind: 'generate', toolLimit: 10 });
  applyGenerationAction(draft, { type: 'started' });
  return draft;
}

function touch(draft: GenerationDraft, path: string, action?: 'created' | 'modified'): void {
  reduceGenerationEvent(draft, { type: 'file_created', path, ...(action === undefined ? {} : { action }) }, 0);
}

describe('the file list', () => {
  it('lists each path once, first seen first, through every growth of its table, and finds each again', () => {
    const draft = listing();
    const paths = Array.from({ length: 5_000 }, (_, index) => `src/${index % 7}/file-${index}.ts`);
    for (const path of paths) touch(draft, path);
    // Every tenth path again, after the table has grown past it many times.
    for (let index = 0; index < paths.length; index += 10) touch(draft, paths[index] as string);
    const files = draft.files?.toArray() ?? [];
    expect(files.map((file) => file.path)).toEqual(paths);
    expect(files[10]).toEqual({ path: paths[10], action: 'modified', updates: 2 });
    expect(files[11]).toEqual({ path: paths[11], action: 'created', updates: 1 });
    expect(draft.files?.get(paths[4_990] as string)).toEqual({ path: paths[4_990], action: 'modified', updates: 2 });
    expect(draft.files?.get('src/0/file-5000.ts')).toBeUndefined();
    expect(generationCounts(draft)).toEqual({ filesCreated: 4_500, filesModified: 500, steps: 0 });
  });

  it('tells paths apart that differ in one character anywhere, in any script, and the empty-adjacent ones', () => {
    const draft = listing();
    const base = 'src/components/Übersicht/页面/index.tsx';
    const variants = [
      base,
      base.slice(0, -1),
      `${base}x`,
      `a${base.slice(1)}`,
      base.replace('页', '頁'),
      'a',
      'b',
      'ab',
    ];
    for (const path of variants) touch(draft, path);
    for (const path of variants) touch(draft, path);
    expect(draft.files?.size).toBe(variants.length);
    expect(draft.files?.toArray().every((file) => file.updates === 2)).toBe(true);
  });

  it('a published list keeps what it showed: a modification is a new entry', () => {
    const draft = listing();
    touch(draft, 'a.ts');
    const shown = draft.files?.toArray() ?? [];
    touch(draft, 'a.ts', 'modified');
    expect(shown).toEqual([{ path: 'a.ts', action: 'created', updates: 1 }]);
    expect(draft.files?.get('a.ts')).toEqual({ path: 'a.ts', action: 'modified', updates: 2 });
  });

  it('paths crafted to share one hash cost a bounded search each: a few hundred are listed, every one is counted', () => {
    // Multiplying by an odd number carries a flipped top bit through unchanged, so flipping the top bit of the
    // second character of two neighbouring pairs of characters leaves the hash as it was, whatever the seed: each
    // of twelve such places doubles the paths that share one hash, 4,096 in all.
    const places = 12;
    const base = 'x'.repeat(places * 4 + 2);
    const crafted = Array.from({ length: 2 ** places }, (_, choice) => {
      const chars = [...base];
      for (let place = 0; place < places; place++) {
        if ((choice >> place) & 1) {
          chars[place * 4 + 1] = String.fromCharCode(0x8078);
          chars[place * 4 + 3] = String.fromCharCode(0x8078);
        }
      }
      return chars.join('');
    });
    const draft = listing();
    for (const path of crafted) touch(draft, path);
    expect(generationCounts(draft).filesCreated).toBe(crafted.length);
    const kept = draft.files?.size ?? 0;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(256);
    // An honest path still finds its place beside them, and what was kept is found again.
    touch(draft, 'src/index.ts');
    touch(draft, crafted[0] as string);
    expect(draft.files?.get('src/index.ts')?.updates).toBe(1);
    expect(draft.files?.get(crafted[0] as string)?.updates).toBe(2);
  });
});
