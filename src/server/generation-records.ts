/** What the proxy tells the agency about each ended generation, for analytics and billing (`onGeneration`). */
import type { ConversationTurnOutcome, GenerationMode } from '../core/index.js';

/** One ended generation (generate or follow-up), as the proxy relayed it. Never the token or the prompt. */
export interface GenerationRecord {
  /** The end user, from `authorize()`. */
  external_user_id: string;
  /** The project, or null when the stream ended before it was named. */
  project_id: string | null;
  kind: 'generate' | 'followUp';
  /** `build` or `design` for a new project; null for a follow-up. */
  mode: GenerationMode | null;
  /** How it ended, folded from its events the way the browser folds them. */
  outcome: ConversationTurnOutcome['status'];
  files_created: number;
  files_modified: number;
  steps: number;
  /** Time from the request to the first event (null: none came). */
  first_event_ms: number | null;
  /** Time from the request to the stream's end. */
  duration_ms: number;
  started_at: string;
  ended_at: string;
}

/** The record of an ended generation. */
export function generationRecordOf(input: {
  userId: string;
  kind: GenerationRecord['kind'];
  mode: GenerationMode | null;
  outcome: ConversationTurnOutcome;
  projectId: string | undefined;
  startedAt: number;
  firstEventAt: number | undefined;
  endedAt: number;
}): GenerationRecord {
  return {
    external_user_id: input.userId,
    project_id: input.projectId ?? null,
    kind: input.kind,
    mode: input.mode,
    outcome: input.outcome.status,
    files_created: input.outcome.files_created,
    files_modified: input.outcome.files_modified,
    steps: input.outcome.steps,
    first_event_ms: input.firstEventAt === undefined ? null : input.firstEventAt - input.startedAt,
    duration_ms: input.endedAt - input.startedAt,
    started_at: new Date(input.startedAt).toISOString(),
    ended_at: new Date(input.endedAt).toISOString(),
  };
}
