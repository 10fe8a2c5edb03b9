/**
 * What the end user published, kept in Web Storage (sessionStorage by default) beside the last project: the
 * finished deployments, links and pushes. The API has no way to read them back, and the code-host install
 * is a full page navigation away and back, so without this the Publish sheet would forget its story there
 * (and on a reload). Only settled successes are kept: a failure or a request under way is no longer true
 * on the next page.
 */
import type { AgentStorage } from './persistence.js';

/** The records of the store that are kept, each by its own key (provider:project, or project). */
export interface PublishRecords {
  deployments: Record<string, { status: string }>;
  repositoryLinks: Record<string, { status: string }>;
  repositoryPushes: Record<string, { status: string }>;
}

const names = ['deployments', 'repositoryLinks', 'repositoryPushes'] as const;
const settled = new Set(['deployed', 'succeeded']);
const maxEntries = 30;

function settledEntries(record: unknown): Record<string, { status: string }> {
  if (typeof record !== 'object' || record === null) return {};
  const entries = Object.entries(record as Record<string, { status?: unknown } | null>).filter(
    (entry): entry is [string, { status: string }] =>
      typeof entry[1] === 'object' && entry[1] !== null && settled.has(entry[1].status as string),
  );
  return Object.fromEntries(entries.slice(-maxEntries));
}

/** The kept records of an earlier page (empty without storage, or when nothing readable was kept). */
export function readPublishRecords(storage: AgentStorage | null, key: string): Partial<PublishRecords> {
  try {
    const text = storage?.getItem(key);
    const value: unknown = text === null || text === undefined ? undefined : JSON.parse(text);
    if (typeof value !== 'object' || value === null) return {};
    return Object.fromEntries(
      names.map((name) => [name, settledEntries((value as Record<string, unknown>)[name])]),
    ) as Partial<PublishRecords>;
  } catch {
    return {};
  }
}

/** Keeps the records when one of them changed; a storage that is full or disabled keeps nothing. */
export function writePublishRecords(
  storage: AgentStorage | null,
  key: string,
  next: PublishRecords,
  previous: PublishRecords,
): void {
  if (storage === null || names.every((name) => next[name] === previous[name])) return;
  try {
    storage.setItem(key, JSON.stringify(Object.fromEntries(names.map((name) => [name, settledEntries(next[name])]))));
  } catch {
    // The records still live in memory for this page.
  }
}
