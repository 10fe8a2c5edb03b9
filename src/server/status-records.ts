/**
 * What the proxy takes from relayed status answers: single-flight across instances, project summaries, and
 * the true end of a build whose stream was lost (its turn is recorded as what it ended as).
 */
import { polledStatusOf, settleTurnOutcome } from '../core/index.js';
import { boundedProjectPatch, type ProjectPatch, type ProxyStore } from './proxy-store.js';

/** How long one instance holds the right to refresh a project's status. */
const claimTtlMs = 5_000;
/** How long a waiting instance looks for the refreshed status before asking upstream itself. */
const waitMs = 2_000;
const pollEveryMs = 25;

/**
 * Claims the refresh of a project's status; when another instance holds the claim, waits briefly for the
 * status it caches. Returns true to refresh here, or the cached answer another instance stored.
 */
export async function waitForStatusClaim(
  store: ProxyStore,
  projectId: string,
  now: () => number,
): Promise<true | { status: number; body: string }> {
  if (store.claimStatusRefresh === undefined || (await store.claimStatusRefresh(projectId, claimTtlMs))) return true;
  const deadline = now() + waitMs;
  while (now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollEveryMs));
    const cached = await store.getCachedStatus(projectId, now());
    if (cached !== undefined) return { status: cached.status, body: cached.body };
  }
  return true;
}

/**
 * Refreshes the project's summary (name, app_url and, unless `withStatus` is false, project_status) from a 200 status
 * body, and settles its latest turn when that was recorded as interrupted and the status says how the build ended;
 * never throws.
 */
export async function noteProjectStatus(
  store: ProxyStore,
  projectId: string,
  userId: string,
  body: string,
  at: number,
  { withStatus = true }: { withStatus?: boolean } = {},
): Promise<void> {
  try {
    const project = JSON.parse(body) as { name?: unknown; app_url?: unknown; project_status?: unknown };
    // A field the answer leaves out keeps what the summary knew; only a string or an explicit null changes it.
    const patch: ProjectPatch = {};
    for (const field of withStatus
      ? (['name', 'app_url', 'project_status'] as const)
      : (['name', 'app_url'] as const)) {
      const value = project[field];
      if (typeof value === 'string' || value === null) patch[field] = value;
    }
    await store.noteProject(projectId, userId, boundedProjectPatch(patch), at);
    const projectStatus = patch.project_status;
    if (projectStatus !== undefined && polledStatusOf(projectStatus) !== 'building')
      await settleInterruptedTurn(store, projectId, projectStatus, at);
  } catch {
    // A summary is a convenience; the status answer goes to the browser regardless.
  }
}

/** The latest turn, recorded as interrupted, gets the outcome the machine reads in a terminal status. */
async function settleInterruptedTurn(
  store: ProxyStore,
  projectId: string,
  projectStatus: string | null,
  at: number,
): Promise<void> {
  const latest = await store.readEvents(projectId, Number.MAX_SAFE_INTEGER);
  if (latest === undefined || !latest.ended) return;
  const outcome = (await store.getConversation(projectId)).at(-1)?.outcome;
  const settled = outcome == null ? undefined : settleTurnOutcome(outcome, projectStatus, at);
  if (settled !== undefined) await store.endGeneration(projectId, latest.generation, settled);
}
