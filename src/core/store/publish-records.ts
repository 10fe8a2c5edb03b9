/**
 * What the end user published, kept in Web Storage (sessionStorage by default) beside the last project: the
 * deploy, link and push mutations that succeeded. The API has no way to read them back, and the code-host
 * install is a full page navigation away and back, so without this the Publish sheet would forget its story
 * there (and on a reload). Only successes are kept: a failure or a request under way is no longer true on the
 * next page.
 */
import type { Mutation } from './mutations.js';
import type { AgentStorage } from './persistence.js';

const kept = /^(deploy|repository-link|repository-push):/;
const maxEntries = 30;

function keptEntries(record: unknown): Record<string, Mutation<unknown, unknown>> {
  if (typeof record !== 'object' || record === null) return {};
  const entries = Object.entries(record as Record<string, Mutation<unknown, unknown> | null>).filter(
    (entry): entry is [string, Mutation<unknown, unknown>] => kept.test(entry[0]) && entry[1]?.status === 'success',
  );
  return Object.fromEntries(entries.slice(-maxEntries));
}

/** The kept mutations of an earlier page (empty without storage, or when nothing readable was kept). */
export function readPublishRecords(
  storage: AgentStorage | null,
  key: string,
): Record<string, Mutation<unknown, unknown>> {
  try {
    const text = storage?.getItem(key);
    return keptEntries(text === null || text === undefined ? undefined : JSON.parse(text));
  } catch {
    return {};
  }
}

/** Keeps the mutations when they changed; a storage that is full or disabled keeps nothing. */
export function writePublishRecords(
  storage: AgentStorage | null,
  key: string,
  next: Record<string, Mutation<unknown, unknown>>,
  previous: Record<string, Mutation<unknown, unknown>>,
): void {
  if (storage === null || next === previous) return;
  try {
    storage.setItem(key, JSON.stringify(keptEntries(next)));
  } catch {
    // The records still live in memory for this page.
  }
}
