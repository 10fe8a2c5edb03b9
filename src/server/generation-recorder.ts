/**
 * Records a relayed generation as it passes: each event gets an SSE `id:` line (1, 2, 3… per generation; the
 * other bytes pass unchanged) and is stored before the browser sees it, so a resume after id N finds N; the prompt becomes a conversation turn
 * and the events its outcome. A store failure stops the recording, never the relay.
 */
import {
  isTerminalEvent,
  parseAgentEvent,
  type ConversationTurn,
  type ConversationTurnOutcome,
  type GenerationMode,
} from '../core/index.js';
import type { ProxyStore } from './proxy-store.js';

/** What the recorder needs to know about the request that started the generation. */
export interface GenerationRecording {
  store: ProxyStore;
  userId: string;
  kind: ConversationTurn['kind'];
  /** Known for a follow-up; for a generate it comes with `project_created`. */
  projectId: string | undefined;
  /** The request body the proxy sent upstream (JSON), for the prompt and mode. */
  requestBody: string | undefined;
  now(): number;
  /** Removes secrets (the API token) from an event before it is stored, since the events route replays it. */
  redact(text: string): string;
  /** Called once when the store fails; the relay goes on without recording. */
  onStoreError(error: unknown): void;
}

const idPattern = /^[A-Za-z0-9_-]{1,128}$/;
const encoder = new TextEncoder();
const LF = 0x0a;
const CR = 0x0d;

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

function turnOf(recording: GenerationRecording): ConversationTurn {
  let body: { prompt?: unknown; mode?: unknown } = {};
  try {
    body = JSON.parse(recording.requestBody ?? '{}') as typeof body;
  } catch {
    // The proxy only forwards JSON objects; an empty turn is still a truthful record.
  }
  const mode: GenerationMode | null =
    recording.kind === 'generate' ? (body.mode === 'design' ? 'design' : 'build') : null;
  return {
    kind: recording.kind,
    prompt: typeof body.prompt === 'string' ? body.prompt : '',
    mode,
    at: new Date(recording.now()).toISOString(),
    outcome: null,
  };
}

/** Returns the upstream SSE body re-framed as `id: N` + `data:` events, recording them on the way. */
export function recordGeneration(
  upstream: ReadableStream<Uint8Array>,
  recording: GenerationRecording,
): ReadableStream<Uint8Array> {
  const { store } = recording;
  const decoder = new TextDecoder();
  const turn = turnOf(recording);
  const outcome: ConversationTurnOutcome = { status: 'interrupted', files_created: 0, files_modified: 0, steps: 0 };
  let dataLines: string[] = [];
  let parts: Uint8Array[] = [];
  let lineLength = 0;
  let afterCR = false;
  let nextId = 1;
  let projectId = recording.projectId;
  let generation: number | undefined;
  let recordingOn = true;
  let ended = false;
  // Events seen before the project id is known (a generate sends project_created first, so rarely any).
  const pending: { id: number; data: string }[] = [];

  const guard = async (write: () => Promise<unknown>) => {
    if (!recordingOn) return;
    try {
      await write();
    } catch (error) {
      recordingOn = false;
      recording.onStoreError(error);
    }
  };
  const begin = async (id: string) => {
    projectId = id;
    await guard(async () => {
      generation = await store.beginGeneration(id, recording.userId, turn);
      for (const event of pending.splice(0)) await store.appendEvent(id, generation, event);
    });
  };
  const note = async (data: string) => {
    const parsed = parseAgentEvent(data);
    if (!parsed.ok) return;
    const event = parsed.event;
    if (event.type === 'file_created') {
      if (event.action === 'modified') outcome.files_modified++;
      else outcome.files_created++;
    } else if (event.type === 'tool_progress') outcome.steps++;
    if (event.type === 'project_created' && projectId === undefined && idPattern.test(String(event.project_id))) {
      await begin(event.project_id);
      await guard(() =>
        store.noteProject(event.project_id, recording.userId, { app_url: event.app_url ?? null }, recording.now()),
      );
    }
    if (isTerminalEvent(event)) {
      ended = true;
      if (event.type === 'stream_end') outcome.status = 'completed';
      else {
        outcome.status = event.type === 'credits_exhausted' ? 'credits_exhausted' : 'failed';
        if (typeof event.message === 'string') outcome.message = event.message;
      }
    }
  };
  const record = async (data: string, id: number) => {
    const event = { id, data: recording.redact(data) };
    await note(data);
    if (generation !== undefined && projectId !== undefined) {
      const at = generation;
      const project = projectId;
      await guard(() => store.appendEvent(project, at, event));
    } else if (projectId === undefined) pending.push(event);
  };
  /**
   * Passes the chunk through byte for byte, but for an `id: N` line before each blank line that ends an
   * event with data; records those events first. CRLF, CR and LF line ends are all SSE line ends.
   */
  const pass = async (chunk: Uint8Array): Promise<Uint8Array> => {
    const pieces: Uint8Array[] = [];
    const completed: string[] = [];
    let cut = 0;
    let lineStart = 0;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index] as number;
      if (afterCR) {
        afterCR = false;
        if (byte === LF) {
          lineStart = index + 1;
          continue;
        }
      }
      if (byte !== LF && byte !== CR) {
        lineLength++;
        continue;
      }
      if (lineLength === 0) {
        if (dataLines.length > 0) {
          completed.push(dataLines.join('\n'));
          pieces.push(chunk.subarray(cut, index), encoder.encode(`id: ${nextId++}\n`));
          cut = index;
        }
        dataLines = [];
      } else {
        parts.push(chunk.subarray(lineStart, index));
        const line = decoder.decode(concat(parts));
        if (line.startsWith('data:')) dataLines.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
      parts = [];
      lineLength = 0;
      afterCR = byte === CR;
      lineStart = index + 1;
    }
    if (lineStart < chunk.length) parts.push(chunk.slice(lineStart));
    pieces.push(chunk.subarray(cut));
    const firstId = nextId - completed.length;
    for (const [offset, data] of completed.entries()) await record(data, firstId + offset);
    return pieces.length === 1 ? chunk : concat(pieces);
  };
  const finish = async () => {
    if (!ended) outcome.status = 'interrupted';
    if (projectId === undefined || generation === undefined) return;
    const id = projectId;
    const at = generation;
    await guard(() => store.endGeneration(id, at, { ...outcome }));
    if (outcome.status === 'completed') await guard(() => store.noteProject(id, recording.userId, {}, recording.now()));
  };

  const reader = upstream.getReader();
  const started = recording.projectId === undefined ? Promise.resolve() : begin(recording.projectId);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await started;
        try {
          const { done, value } = await reader.read();
          if (done) {
            await finish();
            controller.close();
          } else controller.enqueue(await pass(value));
        } catch (error) {
          await finish();
          controller.error(error);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
