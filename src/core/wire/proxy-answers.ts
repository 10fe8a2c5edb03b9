/**
 * The answers of the agency proxy's own routes, read defensively: a proxy other than the library's may answer anything,
 * and what reaches the store keys its records and fills the screen.
 */
import type { ConversationTurn, ConversationTurnOutcome, ProjectSummary, Usage } from './proxy-resources.js';
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
        name: textOrNull(item.name),
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
