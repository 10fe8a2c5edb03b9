/**
 * Answers read defensively, field by field: the agency proxy's own routes, and the listings whose fields the screen
 * works on (repositories, plans). A proxy other than the library's may answer anything, the library's keeps `null` for
 * any field, and what reaches the store keys its records and fills the screen.
 */
import type { ConversationTurn, ConversationTurnOutcome, ProjectSummary, Usage } from './proxy-resources.js';
import type { Repository, RepositoryList, SubscriptionPlan } from './resources.js';
import { agentIdPattern } from './routes.js';

const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const countOf = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The proxy's project list, read defensively (a proxy other than the library's may answer anything): only entries with
 * an id that can name a project, each field of its type or null.
 */
export function projectsOf(items: readonly unknown[]): ProjectSummary[] {
  return items.filter(isObject).flatMap((item) => {
    const { project_id } = item;
    if (typeof project_id !== 'string' || !agentIdPattern.test(project_id)) return [];
    return [
      {
        project_id,
        // A blank name is no name: the list says "Untitled app" rather than nothing.
        name: typeof item.name === 'string' && item.name.trim() !== '' ? item.name : null,
        app_url: textOrNull(item.app_url),
        project_status: textOrNull(item.project_status),
        created_at: textOrNull(item.created_at) ?? '',
        updated_at: textOrNull(item.updated_at) ?? '',
      },
    ];
  });
}

const turnStatuses: ReadonlySet<unknown> = new Set(['completed', 'credits_exhausted', 'failed', 'interrupted']);

/** The proxy's conversation, read defensively: only turns with a prompt and a kind, each field of its type. */
export function turnsOf(items: readonly unknown[]): ConversationTurn[] {
  return items.filter(isObject).flatMap((item): ConversationTurn[] => {
    const { kind, prompt, mode, outcome } = item;
    if ((kind !== 'generate' && kind !== 'followUp') || typeof prompt !== 'string') return [];
    const message = isObject(outcome) ? textOrNull(outcome.message) : null;
    return [
      {
        kind,
        prompt,
        mode: mode === 'build' || mode === 'design' ? mode : null,
        at: textOrNull(item.at) ?? '',
        outcome:
          isObject(outcome) && turnStatuses.has(outcome.status)
            ? {
                status: outcome.status as ConversationTurnOutcome['status'],
                files_created: countOf(outcome.files_created),
                files_modified: countOf(outcome.files_modified),
                steps: countOf(outcome.steps),
                ...(message === null ? {} : { message }),
              }
            : null,
      },
    ];
  });
}

/** The usage of a `GET {basePath}/usage` answer, read defensively (no quota unless the answer says one). */
export function usageOf(body: unknown): Usage {
  const { used, limit, resets_at, period } = (typeof body === 'object' && body !== null ? body : {}) as Record<
    string,
    unknown
  >;
  const known = period === 'day' || period === 'week' || period === 'month' || period === 'seconds';
  if (typeof limit !== 'number' || typeof resets_at !== 'string' || !known)
    return { used: typeof used === 'number' ? used : 0, limit: null, resets_at: null, period: null };
  return { used: typeof used === 'number' ? used : 0, limit, resets_at, period };
}

const textOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
const isKey = (value: unknown): value is string | number =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** Keeps the first of the items sharing a key: a key names one option (a choice, a heading's id). */
function firstOfEachKey<Item>(items: Item[], keyOf: (item: Item) => string): Item[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(keyOf(item)) && seen.add(keyOf(item)));
}

/**
 * One page of repositories, read defensively: only repositories with a name to show and link (`full_name`), one per
 * id, at most `perPage` of them (a page larger than asked for is cut, not rendered whole), and a `total_count` that is
 * a count or null; a page and size it does not give are the ones asked for.
 */
export function repositoryPageOf(data: unknown, asked: { page: number; perPage: number }): RepositoryList {
  const { perPage } = asked;
  const { items, meta } = isObject(data) ? data : {};
  const repositories = (Array.isArray(items) ? items : []).filter(isObject).flatMap((item): Repository[] => {
    const { full_name, private: visibility, permissions } = item;
    if (typeof full_name !== 'string' || full_name.trim() === '') return [];
    return [
      {
        id: isKey(item.id) ? String(item.id) : full_name,
        name:
          typeof item.name === 'string' && item.name !== '' ? item.name : full_name.slice(full_name.indexOf('/') + 1),
        full_name,
        private: typeof visibility === 'boolean' ? visibility : textOr(visibility, ''),
        default_branch: textOr(item.default_branch, ''),
        html_url: textOr(item.html_url, ''),
        clone_url: textOr(item.clone_url, ''),
        permissions: isObject(permissions) ? (permissions as Record<string, boolean>) : textOr(permissions, ''),
      },
    ];
  });
  const { total_count, page, per_page } = isObject(meta) ? meta : {};
  const isCount = (value: unknown): value is number =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
  return {
    items: firstOfEachKey(repositories, (repository) => repository.id).slice(0, perPage),
    meta: {
      total_count: isCount(total_count) ? total_count : null,
      page: isCount(page) ? page : asked.page,
      per_page: isCount(per_page) ? per_page : perPage,
    },
  };
}

/**
 * The subscription plans, read defensively: only plans with an id and a name to show, one per id (`1` and `"1"` are
 * one); the rest of a plan as sent.
 */
export function plansOf(items: readonly unknown[]): SubscriptionPlan[] {
  const plans = items.filter(isObject).flatMap((item): SubscriptionPlan[] => {
    const { id, name, sort_order, ...rest } = item;
    if (!isKey(id) || typeof name !== 'string' || name.trim() === '') return [];
    return [
      { ...rest, id, name, ...(typeof sort_order === 'number' && Number.isFinite(sort_order) ? { sort_order } : {}) },
    ];
  });
  return firstOfEachKey(plans, (plan) => String(plan.id));
}
