/**
 * Every built-in locale pack is complete: each English string has a translation that is not empty, not the
 * English words themselves, and keeps every placeholder (and number) the English one shows, for every sample
 * of its arguments (the counts cover each plural category of every language).
 */
import { defaultLabels, type AgentLabels } from 'agent-embed';
import { describe, expect, it } from 'vitest';
import { packs, sameAsEnglish } from './packs.js';

type Leaf = string | ((...args: never[]) => string);

/** Every string and function of a label tree, by its dotted path. */
function leaves(tree: object, prefix = ''): Map<string, Leaf> {
  const found = new Map<string, Leaf>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (typeof value === 'string' || typeof value === 'function') found.set(path, value as Leaf);
    else for (const [inner, leaf] of leaves(value as object, path)) found.set(inner, leaf);
  }
  return found;
}

const slot = (name: string) => `⟦${name}⟧`;
/** One count of each plural category in the six languages (Arabic's zero, one, two, few, many and other). */
const counts = [0, 1, 2, 3, 5, 11, 21, 100, 102, 1_000_000];
const outcomeStatuses = ['completed', 'credits_exhausted', 'failed', 'interrupted', 'stopped'] as const;
const quotaPeriods = ['day', 'week', 'month', 'seconds'] as const;

/** A call of a label function; `counts` names the count behind each placeholder (for plural forms). */
interface Sample {
  args: unknown[];
  counts?: Record<string, number>;
}

/** Arguments to call each function with; a function not listed gets one placeholder per English parameter. */
const samples: Record<string, Sample[]> = {
  'conversation.outcome': outcomeStatuses.flatMap((status) =>
    [
      [0, 0, 0],
      [1, 0, 1],
      [2, 0, 2],
      [3, 0, 5],
      [0, 2, 2],
      [4, 1, 11],
      [12, 21, 100],
    ].map(([created = 0, modified = 0, steps = 0]) => ({
      args: [
        { status, filesCreated: created, filesModified: modified, steps },
        { created: slot('created'), modified: slot('modified'), steps: slot('steps') },
        { created, modified, steps },
      ],
      counts: { [slot('created')]: created, [slot('modified')]: modified, [slot('steps')]: steps },
    })),
  ),
  'liveBuildLog.fileCount': counts.flatMap((total) => [
    { args: [slot('created'), '0', total], counts: { [slot('created')]: total } },
    { args: [slot('created'), slot('modified'), total] },
    { args: ['0', slot('modified'), total], counts: { [slot('modified')]: total } },
  ]),
  'liveBuildLog.toolsOmitted': counted((count) => [slot('count'), count]),
  'liveBuildLog.unknownEvents': counted((count) => [slot('count'), count]),
  'repoPicker.matchCount': counts.map((count) => ({
    args: [slot('matches'), slot('loaded'), { matches: count, loaded: count }],
    counts: { [slot('matches')]: count, [slot('loaded')]: count },
  })),
  'repoPicker.searchScope': counts.flatMap((count) => [
    { args: [slot('loaded'), undefined, count], counts: { [slot('loaded')]: count } },
    { args: [slot('loaded'), slot('total'), count], counts: { [slot('loaded')]: count } },
  ]),
  'repoPicker.pageStatus': counts.map((count) => ({
    args: [slot('page'), slot('pages'), slot('total'), count],
    counts: { [slot('total')]: count },
  })),
  'repoPicker.loadedCount': counted((count) => [slot('count'), count]),
  'agentBuilder.allProjects': counted((count) => [count, slot('count')]),
  'errors.quotaExceeded': quotaPeriods.flatMap((period) =>
    counts.map((count) => ({
      args: [slot('limit'), period, slot('when'), count],
      counts: { [slot('limit')]: count },
    })),
  ),
  'usageMeter.left': quotaPeriods.flatMap((period) =>
    counts.map((count) => ({
      args: [slot('left'), slot('limit'), period, count],
      counts: { [slot('limit')]: count },
    })),
  ),
};

/** One sample per count, whose `⟦count⟧` placeholder stands for it. */
function counted(args: (count: number) => unknown[]): Sample[] {
  return counts.map((count) => ({ args: args(count), counts: { [slot('count')]: count } }));
}

const english = leaves(defaultLabels);

function samplesFor(path: string, english: (...args: never[]) => string): Sample[] {
  return samples[path] ?? [{ args: Array.from({ length: english.length }, (_, index) => slot(`p${index}`)) }];
}

/**
 * Placeholders a translation may leave out: a count of one or two that its language says in words
 * (Arabic ملف واحد, ملفان), never a name or any other count.
 */
function spelledCounts(tag: string, sample: Sample): Set<string> {
  const rules = new Intl.PluralRules(tag);
  return new Set(
    Object.entries(sample.counts ?? {})
      .filter(([, count]) => (count === 1 || count === 2) && ['one', 'two'].includes(rules.select(count)))
      .map(([name]) => name),
  );
}

/** The placeholders and numbers in a text: a translation shows each one the English shows. */
const slotsOf = (text: string) => [...text.matchAll(/⟦[^⟧]+⟧|\d+/g)].map((match) => match[0]).sort();
/** Words left once the placeholders are gone (`${status} · ${time}` has none to translate). */
const hasWords = (text: string) => /\p{L}/u.test(text.replace(/⟦[^⟧]+⟧/g, ''));

it('samples only functions that exist', () => {
  for (const path of Object.keys(samples)) expect(typeof english.get(path), path).toBe('function');
});

describe.each(Object.entries(packs))('the %s pack', (tag, pack: AgentLabels) => {
  const translated = leaves(pack);
  const allowed = new Set(sameAsEnglish[tag]);

  it('has exactly the English keys, open records (tool, provider and status names) included', () => {
    expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it('has a translation wherever English has words, and none where English is empty', () => {
    for (const [path, value] of english) {
      if (typeof value !== 'string') continue;
      const text = translated.get(path);
      expect(typeof text, path).toBe('string');
      expect((text as string).trim() === '', path).toBe(value === '');
    }
  });

  it('leaves no English string untranslated (but for the allowed names)', () => {
    const untranslated = [...english].filter(
      ([path, value]) =>
        typeof value === 'string' && value !== '' && translated.get(path) === value && !allowed.has(value),
    );
    expect(untranslated.map(([path, value]) => `${path}: ${String(value)}`)).toEqual([]);
  });

  it('keeps the numbers of every string', () => {
    for (const [path, value] of english) {
      if (typeof value === 'string') expect(slotsOf(translated.get(path) as string), path).toEqual(slotsOf(value));
    }
  });

  it('keeps every placeholder of every function, for every sample, in words of its own', () => {
    for (const [path, value] of english) {
      if (typeof value !== 'function') continue;
      const own = translated.get(path);
      expect(typeof own, path).toBe('function');
      for (const sample of samplesFor(path, value)) {
        const expected = (value as (...args: unknown[]) => string)(...sample.args);
        const actual = (own as (...args: unknown[]) => string)(...sample.args);
        const call = `${path}(${JSON.stringify(sample.args)})`;
        expect(actual.trim(), call).not.toBe('');
        const spelled = spelledCounts(tag, sample);
        const shown = slotsOf(actual);
        const needed = slotsOf(expected).filter((name) => !(spelled.has(name) && !shown.includes(name)));
        expect(shown, `${call} → ${actual}`).toEqual(needed);
        if (hasWords(expected)) expect(actual, `${call} is English`).not.toBe(expected);
      }
    }
  });
});
