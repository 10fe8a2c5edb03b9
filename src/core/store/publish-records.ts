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

function keptEntries<T extends { status: string }>(record: Record<string, T> | undefined, kept: RegExp) {
  const entries = Object.entries(record ?? {}).filter(([key, entry]) => kept.test(key) && entry?.status === 'success');
  return Object.fromEntries(entries.slice(-maxEntries));
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
