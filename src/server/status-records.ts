/** What the proxy takes from relayed status answers: single-flight across instances, and project summaries. */
import type { ProxyStore } from './proxy-store.js';

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

/** Refreshes the project's summary (name, app_url, project_status) from a 200 status body; never throws. */
export async function noteProjectStatus(
  store: ProxyStore,
  projectId: string,
  userId: string,
  body: string,
  at: number,
): Promise<void> {
  try {
    const project = JSON.parse(body) as { name?: unknown; app_url?: unknown; project_status?: unknown };
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    await store.noteProject(
      projectId,
      userId,
      { name: text(project.name), app_url: text(project.app_url), project_status: text(project.project_status) },
      at,
    );
  } catch {
    // A summary is a convenience; the status answer goes to the browser regardless.
  }
}
