/**
 * What the end user published, kept in Web Storage (sessionStorage by default) beside the last project: the
 * deploy, link and push mutations that succeeded. The API has no way to read them back, and the code-host
 * install is a full page navigation away and back, so without this the Publish sheet would forget its story
 * there (and on a reload). Only successes are kept: a failure or a request under way is no longer true on the
 * next page.
 */
import type { MutationsSlice } from './mutations.js';
import type { AgentStorage } from './persistence.js';

type Mutations = MutationsSlice['mutations'];
const kept = /^(deploy|repository-link|repository-push):/;
const maxEntries = 30;

function keptEntries(record: Mutations | null): Mutations {
  const entries = Object.entries(record ?? {}).filter(([key, entry]) => kept.test(key) && entry?.status === 'success');
  return Object.fromEntries(entries.slice(-maxEntries));
}

/** The kept mutations of an earlier page (empty without storage, or when nothing readable was kept). */
export function readPublishRecords(storage: AgentStorage | null, key: string): Mutations {
  try {
    return keptEntries(JSON.parse(storage?.getItem(key) ?? 'null') as Mutations | null);
  } catch {
    return {};
  }
}

/** Keeps the mutations when they changed; a storage that is full or disabled keeps nothing. */
export function writePublishRecords(
  storage: AgentStorage | null,
  key: string,
  next: MutationsSlice,
  previous: MutationsSlice,
) {
  if (storage === null || next.mutations === previous.mutations) return;
  try {
    storage.setItem(key, JSON.stringify(keptEntries(next.mutations)));
  } catch {
    // The records still live in memory for this page.
  }
}
