/**
 * What the end user published, kept in Web Storage (sessionStorage by default) beside the last project: the
 * deploy, link and push mutations that succeeded, and what their answers told (the live deployment, the linked
 * repository: resources only answers tell). The API has no way to read them back, and the code-host install is a
 * full page navigation away and back, so without this the Publish sheet would forget its story there (and on a
 * reload). Only successes are kept: a failure or a request under way is no longer true on the next page.
 */
import type { MutationsSlice } from './mutations.js';
import type { AgentStorage } from './persistence.js';
import type { ResourcesSlice } from './resources.js';

type Records = Pick<MutationsSlice, 'mutations'> & Pick<ResourcesSlice, 'resources'>;
const keptMutation = /^(deploy|repository-link|repository-push):/;
const keptResource = /^(deployment|linked-repository):/;
const maxEntries = 30;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isRepository = (value: unknown) =>
  isObject(value) && typeof value.owner === 'string' && typeof value.name === 'string';

/**
 * Whether a kept entry reads as what this page wrote: storage is the browser's, so a record from another version, or
 * one edited by hand, is left out rather than rendered (a linked repository of `null` would be the screen's crash).
 */
function readable(key: string, entry: { status?: unknown; data?: unknown; variables?: unknown } | undefined): boolean {
  if (!isObject(entry) || entry.status !== 'success') return false;
  if (key.startsWith('repository-')) return entry.variables === undefined || isRepository(entry.variables);
  if (key.startsWith('deployment:')) return isObject(entry.data);
  if (key.startsWith('linked-repository:'))
    return isObject(entry.data) && isRepository(entry.data.repository) && isObject(entry.data.answer);
  return true;
}

function keptEntries<T>(record: Record<string, T> | undefined, kept: RegExp) {
  const entries = Object.entries(isObject(record) ? record : {}).filter(
    ([key, entry]) => kept.test(key) && readable(key, entry as { status?: unknown; data?: unknown }),
  );
  return Object.fromEntries(entries.slice(-maxEntries)) as Record<string, T>;
}

const keptRecords = (records: Partial<Records> | null): Records => ({
  mutations: keptEntries(records?.mutations, keptMutation),
  resources: keptEntries(records?.resources, keptResource),
});

/** The kept records of an earlier page (empty without storage, or when nothing readable was kept). */
export function readPublishRecords(storage: AgentStorage | null, key: string): Records {
  try {
    return keptRecords(JSON.parse(storage?.getItem(key) ?? 'null') as Partial<Records> | null);
  } catch {
    return keptRecords(null);
  }
}

/** Keeps the records when they changed; a storage that is full or disabled keeps nothing. */
export function writePublishRecords(storage: AgentStorage | null, key: string, next: Records, previous: Records) {
  // Every store update comes here (a build's frames too): the resources are looked at only when they changed.
  const changed =
    next.mutations !== previous.mutations ||
    (next.resources !== previous.resources &&
      Object.keys(next.resources).some(
        (name) => keptResource.test(name) && next.resources[name] !== previous.resources[name],
      ));
  if (storage === null || !changed) return;
  try {
    storage.setItem(key, JSON.stringify(keptRecords(next)));
  } catch {
    // The records still live in memory for this page.
  }
}
