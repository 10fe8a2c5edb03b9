/**
 * One term per idea (#25): no two labels of the default tables name one action or one state differently. Each
 * row of `synonyms` lists the names one idea has been given, the chosen one first; a label is a whole button,
 * badge or field text, so whole labels are compared (a sentence that uses a term in passing is not a name).
 */
import { defaultLabels } from 'agent-embed';
import { describe, expect, it } from 'vitest';

/** The names of one idea; the first is the one the components use. */
const synonyms: readonly (readonly [chosen: string, ...others: string[]])[] = [
  ['Stop watching', 'Stop waiting', 'Stop the build', 'Cancel the build'],
  ['Build', 'Full app', 'Full-stack app'],
  ['Design', 'Design only', 'Frontend only'],
  ['New project', 'Start a new project', 'New app project'],
  ['Open the app', 'Open in a new tab', 'Open app', 'View app'],
  ['Try again', 'Retry'],
  ['Buy credits', 'Get credits', 'Top up', 'Add credits'],
  ['Publish', 'Ship', 'Deploy'],
  ['Building', 'Generating'],
  ['Stopped watching', 'Cancelled', 'Stopped waiting'],
];

/** Where each whole label of the default tables sits: their text, by dotted path (functions called with a sample). */
function labelsByText(tree: object, prefix = '', found = new Map<string, string[]>()): Map<string, string[]> {
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const text =
      typeof value === 'string' ? value : typeof value === 'function' ? String(value('Vercel', 'Vercel', 2, 2)) : null;
    if (text === null) labelsByText(value as object, path, found);
    else found.set(text.trim().toLowerCase(), [...(found.get(text.trim().toLowerCase()) ?? []), path]);
  }
  return found;
}

// Outside the end user's words: the deployment's own statuses come from the provider (a cancelled deployment).
const providerStatuses = /^deployButton\.deploymentStatuses\./;

describe('one term per idea', () => {
  const labels = labelsByText(defaultLabels);

  it.each(synonyms.map((row) => [row[0], row] as const))('"%s" is the only name of its idea', (chosen, row) => {
    const used = row
      .map((name) => ({
        name,
        paths: (labels.get(name.toLowerCase()) ?? []).filter((path) => !providerStatuses.test(path)),
      }))
      .filter(({ paths }) => paths.length > 0);
    expect(
      used.map(({ name }) => name).filter((name) => name !== chosen),
      JSON.stringify(used),
    ).toEqual([]);
    expect(labels.has(chosen.toLowerCase()), `"${chosen}" is used somewhere`).toBe(true);
  });
});
