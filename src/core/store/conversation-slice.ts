/**
 * The conversation of each project: every prompt the end user sent and a one-line outcome. Recorded from the
 * store's own generations as they are published, kept in storage for a reload, and merged with the proxy's
 * record (`GET {basePath}/projects/{id}/conversation`, the `conversation` resource) when the proxy offers one.
 */
import type { ConversationTurn } from '../wire/proxy-resources.js';
import { timestampOf, type GenerationMode } from '../wire/resources.js';
import type { GenerationKind } from '../wire/generation-reducer.js';
import { generationCounts, generationOutcome } from '../wire/generation-machine.js';
import { isGenerationRunning } from '../wire/generation-transitions.js';
import type { GenerationState } from './generation.js';
import type { AgentStorage } from './persistence.js';

/** How a turn ended. `stopped`: the person stopped watching; the build may have gone on. */
export type TurnOutcomeStatus = 'completed' | 'credits_exhausted' | 'failed' | 'interrupted' | 'stopped';

/** The one-line outcome of a turn. */
export interface TurnOutcome {
  status: TurnOutcomeStatus;
  filesCreated: number;
  filesModified: number;
  steps: number;
  /** The API's message when it did not complete (for the agency; the components show end-user words). */
  message?: string;
}

/** One prompt and what came of it. */
export interface ConversationEntry {
  /** Stable within a project. */
  id: string;
  kind: GenerationKind;
  prompt: string;
  mode: GenerationMode | undefined;
  /** When the prompt was sent (ms since the epoch); 0 when the proxy's record has no readable time. */
  at: number;
  /** Undefined while the generation runs. */
  outcome: TurnOutcome | undefined;
}

/** Where the conversation of a project came from. */
export type ConversationSource = 'browser' | 'proxy';

/** The conversations, as recorded here and merged with the proxy's (the `conversation` resource). */
export interface ConversationSlice {
  /** Turns by project id (or by the pending key before the project exists), oldest first. */
  conversations: Record<string, readonly ConversationEntry[]>;
}

const maxProjects = 30;
const maxTurns = 100;

function outcomeOf(generation: GenerationState): TurnOutcome | undefined {
  const counts = generationCounts(generation);
  const message = generation.error?.message;
  const outcome = generationOutcome(generation);
  switch (outcome) {
    case undefined:
      return undefined;
    case 'completed':
      return { status: 'completed', ...counts };
    case 'credits_exhausted':
    case 'failed':
    case 'interrupted':
      return { status: outcome, ...counts, ...(message === undefined ? {} : { message }) };
    case 'aborted':
      return { status: 'stopped', ...counts };
    default:
      return outcome satisfies never;
  }
}

/**
 * The conversations with the project's latest turn given the outcome of a taken-up generation: a turn still running,
 * or one the person stopped watching (its build went on, and the poll that saw it end knows how it ended).
 */
function settleLastTurn(
  conversations: Record<string, readonly ConversationEntry[]>,
  generation: GenerationState,
): Record<string, readonly ConversationEntry[]> | undefined {
  const outcome = outcomeOf(generation);
  const turns = generation.projectId === undefined ? undefined : conversations[generation.projectId];
  const last = turns?.at(-1);
  const open = last?.outcome === undefined || (last.outcome.status === 'stopped' && outcome?.status !== 'stopped');
  if (outcome === undefined || turns === undefined || last === undefined || !open) return undefined;
  return { ...conversations, [generation.projectId as string]: [...turns.slice(0, -1), { ...last, outcome }] };
}

function fromProxyTurn(turn: ConversationTurn, index: number): ConversationEntry {
  const at = timestampOf(turn.at);
  const outcome = turn.outcome;
  return {
    id: `proxy:${index}:${turn.at}`,
    kind: turn.kind,
    prompt: turn.prompt,
    mode: turn.mode ?? undefined,
    at: at ?? 0,
    outcome:
      outcome === null
        ? undefined
        : {
            status: outcome.status,
            filesCreated: outcome.files_created,
            filesModified: outcome.files_modified,
            steps: outcome.steps,
            ...(outcome.message === undefined ? {} : { message: outcome.message }),
          },
  };
}

function isEntry(value: unknown): value is ConversationEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<ConversationEntry>;
  return (
    typeof entry.id === 'string' &&
    typeof entry.prompt === 'string' &&
    // A time a `Date` can hold (the conversation formats it).
    typeof entry.at === 'number' &&
    Math.abs(entry.at) <= 8.64e15 &&
    (entry.kind === 'generate' || entry.kind === 'followUp')
  );
}

/** Options of the conversation recorder. */
export interface ConversationOptions {
  storage: AgentStorage | null;
  storageKey: string;
}

/**
 * The conversations with the proxy's record of one project laid under this browser's turns. While a build of the
 * project runs here, the proxy's `interrupted` gives way to this browser's own record: it only says that the proxy's
 * relay lost the stream (until a status poll settles it), and this browser is still recovering the build.
 */
export function withProxyTurns(
  state: ConversationSlice & { generations: Record<string, GenerationState> },
  projectId: string,
  turns: readonly ConversationTurn[],
): Pick<ConversationSlice, 'conversations'> {
  // A generation is keyed by its project once the project is named.
  const live = isGenerationRunning(state.generations[projectId]?.status ?? 'idle');
  const merged = mergeTurns(turns.map(fromProxyTurn), state.conversations[projectId] ?? [], live);
  return { conversations: { ...state.conversations, [projectId]: merged.slice(-maxTurns) } };
}

/**
 * The proxy's record with this browser's turns laid over it. A turn sent from here is in the proxy's record
 * once the proxy has relayed it (same kind and prompt, paired in order): it keeps its local id, so its outcome
 * still lands on it when the generation ends here, and it is never listed twice. A turn the proxy has not
 * recorded yet (sent a moment ago) stays after the record.
 */
function mergeTurns(
  fromProxy: readonly ConversationEntry[],
  local: readonly ConversationEntry[],
  live: boolean,
): ConversationEntry[] {
  const unrecorded = [...local];
  const merged = fromProxy.map((turn) => {
    const index = unrecorded.findIndex((entry) => entry.kind === turn.kind && entry.prompt === turn.prompt);
    if (index === -1) return turn;
    const [entry] = unrecorded.splice(index, 1) as [ConversationEntry];
    const outcome = live && turn.outcome?.status === 'interrupted' ? entry.outcome : (turn.outcome ?? entry.outcome);
    return { ...turn, id: entry.id, outcome };
  });
  const lastAt = fromProxy.at(-1)?.at ?? Number.NEGATIVE_INFINITY;
  return [...merged, ...unrecorded.filter((entry) => entry.at > lastAt + 1000)];
}

function savedKey(options: ConversationOptions): string {
  return `${options.storageKey}:conversations`;
}

/** The conversations kept in storage by an earlier page. */
export function readSaved(options: ConversationOptions): Record<string, readonly ConversationEntry[]> {
  if (options.storage === null) return {};
  try {
    const text = options.storage.getItem(savedKey(options));
    const value: unknown = text === null ? undefined : JSON.parse(text);
    if (typeof value !== 'object' || value === null) return {};
    const result: Record<string, readonly ConversationEntry[]> = {};
    for (const [projectId, turns] of Object.entries(value)) {
      if (Array.isArray(turns)) result[projectId] = turns.filter(isEntry);
    }
    return result;
  } catch {
    return {};
  }
}

/** Turns the store's generations into conversation turns; `apply` runs inside the store's own publish. */
export interface ConversationRecorder {
  /** The conversations after `next` replaced `previous` (undefined when nothing changed). */
  apply(
    previous: Record<string, GenerationState>,
    next: Record<string, GenerationState>,
    conversations: Record<string, readonly ConversationEntry[]>,
  ): Record<string, readonly ConversationEntry[]> | undefined;
  stop(): void;
}

/**
 * Records the store's generations as conversation turns: a turn when a prompt is sent, its outcome when the
 * generation ends, moved to the project id once the project exists. Refused requests are not turns: the
 * prompt stays in the box with the reason. Runs in the same publish as the generations, so a turn costs no
 * extra store notification.
 */
export function createConversationRecorder(options: ConversationOptions): ConversationRecorder {
  // Which project each turn is under, by its generation's start time and kind (a re-keyed generation keeps both).
  const placed = new Map<string, string>();
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  // What the next write keeps; set while one is scheduled.
  let unsaved: Record<string, readonly ConversationEntry[]> | undefined;

  // Written in a task of its own, once for every change before it: a storage write in the publish would lengthen
  // the task that renders it (the person's click among them), and timers are not re-armed per change.
  function save(conversations: Record<string, readonly ConversationEntry[]>): void {
    const storage = options.storage;
    if (storage === null) return;
    if (unsaved === undefined)
      saveTimer = setTimeout(() => {
        const kept = Object.fromEntries(Object.entries(unsaved ?? {}).slice(-maxProjects));
        unsaved = undefined;
        try {
          storage.setItem(savedKey(options), JSON.stringify(kept));
        } catch {
          // Storage full or disabled: the conversation still lives in memory.
        }
      }, 0);
    unsaved = conversations;
  }

  function apply(
    previous: Record<string, GenerationState>,
    generations: Record<string, GenerationState>,
    initial: Record<string, readonly ConversationEntry[]>,
  ): Record<string, readonly ConversationEntry[]> | undefined {
    let conversations: Record<string, readonly ConversationEntry[]> | undefined;
    for (const generation of Object.values(generations)) {
      if (previous[generation.key] === generation) continue;
      // A generation this store took up (a reload, a second tab following a build) has no prompt: its turn is
      // recorded already, and its outcome lands on that turn when the build ends here.
      if (generation.prompt === '') {
        conversations = settleLastTurn(conversations ?? initial, generation) ?? conversations;
        continue;
      }
      const id = `${generation.kind}:${generation.startedAt}`;
      const owner = generation.projectId ?? generation.key;
      const current = conversations ?? initial;
      const oldOwner = placed.get(id);
      const moved = oldOwner !== undefined && oldOwner !== owner;
      const turns = [...(current[owner] ?? [])];
      const index = turns.findIndex((entry) => entry.id === id);
      const existing =
        index === -1 ? (moved ? current[oldOwner]?.find((entry) => entry.id === id) : undefined) : turns[index];
      if (existing !== undefined && !moved && existing.outcome === undefined && outcomeOf(generation) === undefined)
        continue;
      if (generation.refused) {
        if (existing === undefined) continue;
        conversations = { ...current, [owner]: turns.filter((entry) => entry.id !== id) };
        placed.delete(id);
        continue;
      }
      const entry: ConversationEntry = {
        id,
        kind: generation.kind,
        prompt: generation.prompt,
        mode: generation.mode,
        at: existing?.at ?? generation.startedAt,
        outcome: outcomeOf(generation),
      };
      if (index === -1) turns.push(entry);
      else turns[index] = entry;
      conversations = { ...current, [owner]: turns.slice(-maxTurns) };
      if (moved) {
        const rest = (current[oldOwner] ?? []).filter((turn) => turn.id !== id);
        if (rest.length === 0) delete conversations[oldOwner];
        else conversations[oldOwner] = rest;
      }
      placed.set(id, owner);
    }
    if (conversations !== undefined) save(conversations);
    return conversations;
  }

  // Stopping drops a pending write (and, with `unsaved` left set, schedules none again).
  return { apply, stop: () => clearTimeout(saveTimer) };
}
