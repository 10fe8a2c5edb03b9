/**
 * The projects this proxy instance is relaying a generation of, while the upstream stream is open. The upstream's
 * first status after a follow-up starts may still say how the project was before it (`ready`): a browser that stopped
 * watching would read that as the build's end, so the status route answers a terminal status as `generating` then.
 * Known in this process only: a record left open in a shared store by a crashed instance must never hold a project
 * "generating" for ever, so another instance answers what the upstream says.
 */
import { polledStatusOf } from '../core/index.js';
import type { RelayedJson } from './proxy-responses.js';

/** The projects with a live relay in this instance, counted per relay. */
export interface RelayingProjects {
  /** Marks a relay of the project as live; gives the function that ends it (idempotent). */
  hold(projectId: string): () => void;
  /** Whether a relay of the project is live in this instance. */
  holds(projectId: string): boolean;
  /** A status answer as this instance gives it: a terminal `project_status` is `generating` while a relay is live. */
  answer<T extends RelayedJson>(projectId: string, answer: T): T;
}

/** A success answer with a terminal `project_status` as `generating`; every other answer as it is. */
function whileBuilding<T extends RelayedJson>(answer: T): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    return answer;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return answer;
  const status = (parsed as { project_status?: unknown }).project_status;
  if (typeof status !== 'string' || polledStatusOf(status) === 'building') return answer;
  // Every other field stays as the allow-list built it, in its place.
  return { ...answer, body: JSON.stringify({ ...parsed, project_status: 'generating' }) };
}

/** Creates the relaying projects of one proxy instance. */
export function createRelayingProjects(): RelayingProjects {
  const live = new Map<string, number>();
  // One rewrite per answer: the waiters of one coalesced request share it (a body may be megabytes).
  const rewritten = new WeakMap<RelayedJson, RelayedJson>();
  return {
    holds: (projectId) => live.has(projectId),
    hold(projectId) {
      live.set(projectId, (live.get(projectId) ?? 0) + 1);
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        const left = (live.get(projectId) ?? 1) - 1;
        if (left > 0) live.set(projectId, left);
        else live.delete(projectId);
      };
    },
    answer(projectId, answer) {
      // Any success: an upstream's 202 "ready" mid-build is as misleading as its 200.
      if (answer.status < 200 || answer.status > 299 || !live.has(projectId)) return answer;
      let result = rewritten.get(answer) as typeof answer | undefined;
      if (result === undefined) {
        result = whileBuilding(answer);
        rewritten.set(answer, result);
      }
      return result;
    },
  };
}
