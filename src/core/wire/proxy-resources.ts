/**
 * Resources of the agency proxy's own routes (not in the Agent API): an end user's projects and the
 * conversation of a project, recorded by the proxy as it relays generations. Snake_case like the spec.
 */
import type { GenerationMode } from './resources.js';

/** One of the signed-in end user's projects, as `GET {basePath}/projects` lists it (newest first). */
export interface ProjectSummary {
  project_id: string;
  name: string | null;
  app_url: string | null;
  /** The last status the proxy saw (an open string, like the API's `project_status`). */
  project_status: string | null;
  /** ISO 8601 timestamps. */
  created_at: string;
  updated_at: string;
}

/** How a turn of the conversation ended, as the proxy saw the stream end. */
export interface ConversationTurnOutcome {
  status: 'completed' | 'credits_exhausted' | 'failed' | 'interrupted';
  files_created: number;
  files_modified: number;
  steps: number;
  /** The API's message for anything but `completed`. */
  message?: string;
}

/** One prompt an end user sent about a project, and what came of it. */
export interface ConversationTurn {
  kind: 'generate' | 'followUp';
  prompt: string;
  /** The generation mode (`null` for follow-ups, which keep the project's mode). */
  mode: GenerationMode | null;
  /** ISO 8601 time the prompt was sent. */
  at: string;
  /** `null` while the generation runs. */
  outcome: ConversationTurnOutcome | null;
}

/** Body of `GET {basePath}/projects`. */
export interface ProjectListBody {
  status: true;
  projects: ProjectSummary[];
}

/** Body of `GET {basePath}/projects/{projectId}/conversation`. */
export interface ConversationBody {
  status: true;
  project_id: string;
  turns: ConversationTurn[];
}

/** An end user's quota usage, as the proxy reports it (`GET {basePath}/usage`). */
export interface Usage {
  /** Generations started in the current period (0 without a quota). */
  used: number;
  /** The period's limit, or null without a quota. */
  limit: number | null;
  /** When the period ends (ISO 8601, UTC), or null without a quota. */
  resets_at: string | null;
  /** `day`, `week`, `month` or `seconds`, or null without a quota. */
  period: 'day' | 'week' | 'month' | 'seconds' | null;
}

/** Body of `GET {basePath}/usage`. */
export interface UsageBody extends Usage {
  status: true;
}

const idsPerGeneration = 1_000_000_000;

/**
 * The SSE id of a generation's first event on the proxy's routes. Ids grow across a project's generations
 * (generation 2 starts at 1000000001), so an id names its generation too: a browser resuming a generation
 * that a newer one has replaced is told so (204), instead of having the newer one's events applied after
 * its own.
 */
export function firstEventIdOfGeneration(generation: number): number {
  return (generation - 1) * idsPerGeneration + 1;
}

/** The generation (1, 2, 3… of its project) that an event id of the proxy's routes belongs to. */
export function generationOfEventId(id: number): number {
  return Math.floor((id - 1) / idsPerGeneration) + 1;
}

/**
 * The `after` that asks the events route for the generation after the one `eventId` belongs to, from its first event:
 * the last id that generation could have. While the known generation is still the project's latest, the route has
 * nothing after it (204): a change that has not reached the proxy's record yet is never shown the build before it.
 * 0 (the latest generation, whichever it is) when no id is known.
 */
export function afterGenerationOf(eventId: number): number {
  return eventId > 0 ? firstEventIdOfGeneration(generationOfEventId(eventId) + 1) - 1 : 0;
}
