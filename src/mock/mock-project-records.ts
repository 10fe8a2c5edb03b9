/**
 * The agency proxy's own routes for the in-browser mock transport's one end user, so Storybook and the
 * playground show projects, conversations and resumable builds without a proxy: generations passing through
 * get an SSE `id:` per event and are recorded in memory (bounded), status answers refresh the summaries.
 */
import { createParser } from 'eventsource-parser';
import {
  applyGenerationAction,
  createRecordingDraft,
  firstEventIdOfGeneration,
  generationOfEventId,
  parseAgentEvent,
  projectStatusOf,
  proxyRoutes,
  reduceGenerationEvent,
  settleTurnOutcome,
  turnOutcomeOf,
  type ConversationTurn,
  type ProjectSummary,
} from '../core/index.js';

interface ProjectRecord {
  summary: ProjectSummary;
  turns: ConversationTurn[];
  events: { id: number; data: string }[];
  ended: boolean;
}

const maxProjects = 100;
const maxEvents = 5_000;
const followIdleMs = 300_000;
const encoder = new TextEncoder();

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function frame(event: { id: number; data: string }): string {
  return `id: ${event.id}\n${event.data
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('')}\n`;
}

/** Wraps a mock's fetch with the three proxy routes and the recording of generations. */
export function withProjectRecords(inner: typeof fetch, baseUrl: string): typeof fetch {
  const projects = new Map<string, ProjectRecord>();
  const base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const now = () => new Date().toISOString();

  const recordOf = (projectId: string): ProjectRecord => {
    let record = projects.get(projectId);
    if (record === undefined) {
      const at = now();
      const summary = {
        project_id: projectId,
        name: null,
        app_url: null,
        project_status: null,
        created_at: at,
        updated_at: at,
      };
      record = { summary, turns: [], events: [], ended: false };
      projects.set(projectId, record);
      if (projects.size > maxProjects) projects.delete(projects.keys().next().value as string);
    }
    return record;
  };

  /** Re-frames the stream with ids and records it; every event passes through in order. */
  const record = (body: ReadableStream<Uint8Array>, turn: ConversationTurn, projectId: string | undefined) => {
    // Folded by the generation machine, as the proxy's recorder and the browser do: the same counts everywhere.
    const draft = createRecordingDraft(turn.kind, projectId);
    let current = projectId === undefined ? undefined : recordOf(projectId);
    let nextId = 1;
    const begin = (target: ProjectRecord) => {
      target.turns.push(turn);
      target.events = [];
      target.ended = false;
      // The summary says it is building, so another tab that opens the project follows the build.
      target.summary.project_status = projectStatusOf(draft) ?? null;
      // Ids grow across the project's generations, as the proxy numbers them (one generation per turn).
      nextId = firstEventIdOfGeneration(target.turns.length);
    };
    if (current !== undefined) begin(current);
    const take = (data: string): string => {
      const parsed = parseAgentEvent(data);
      const applied = parsed.ok ? reduceGenerationEvent(draft, parsed.event, 0) : 'ignored';
      if (applied === 'project' && current === undefined && draft.projectId !== undefined) {
        current = recordOf(draft.projectId);
        current.summary.app_url = draft.appUrl ?? null;
        begin(current);
      }
      const recorded = { id: nextId++, data };
      if (current !== undefined && current.events.length < maxEvents) current.events.push(recorded);
      // The client stops reading at the terminal event, so the turn ends there rather than at the flush.
      if (applied === 'ended') finish();
      return frame(recorded);
    };
    const finish = () => {
      if (turn.outcome !== null) return;
      applyGenerationAction(draft, { type: 'dropped', error: undefined, at: Date.now() });
      turn.outcome = turnOutcomeOf(draft);
      if (current !== undefined) {
        current.ended = true;
        current.summary.project_status = projectStatusOf(draft) ?? null;
        current.summary.updated_at = now();
      }
    };
    // Events are re-framed with their ids; heartbeat comments pass through.
    const decoder = new TextDecoder();
    let out = '';
    const parser = createParser({
      onEvent: (message) => (out += take(message.data)),
      onComment: (comment) => (out += `: ${comment}\n\n`),
    });
    const transform = (chunk: Uint8Array): string => {
      parser.feed(decoder.decode(chunk, { stream: true }));
      const framed = out;
      out = '';
      return framed;
    };
    // Not a TransformStream: a dropped upstream errors the body, and the record must end then too, or the
    // events route would follow a generation that will never send another event.
    const reader = body.getReader();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          finish();
          controller.error(error);
          return;
        }
        if (chunk.done) {
          finish();
          controller.close();
          return;
        }
        const out = transform(chunk.value);
        if (out !== '') controller.enqueue(encoder.encode(out));
      },
      cancel(reason) {
        finish();
        return reader.cancel(reason);
      },
    });
  };

  /** Replays the latest generation after an id, then follows it to its end. */
  const follow = (target: ProjectRecord, after: number, signal: AbortSignal | undefined) =>
    new ReadableStream<Uint8Array>({
      async start(controller) {
        let last = after;
        let lastNew = Date.now();
        const turns = target.turns.length;
        for (;;) {
          const fresh = target.events.filter((event) => event.id > last);
          for (const event of fresh) controller.enqueue(encoder.encode(frame(event)));
          last = fresh.at(-1)?.id ?? last;
          if (fresh.length > 0) lastNew = Date.now();
          // A generation whose reader left before its end is followed for a while, not forever.
          const idle = Date.now() - lastNew > followIdleMs;
          if ((target.ended && fresh.length === 0) || idle || target.turns.length !== turns || signal?.aborted) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        controller.close();
      },
    });

  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const path = new URL(request.url).pathname.slice(base.length);
    const method = (init?.method ?? request.method).toUpperCase();
    const [, first, projectId, last] = path.split('/');
    if (method === 'GET' && path === proxyRoutes.listProjects.path)
      return json({
        status: true,
        projects: [...projects.values()].map((entry) => ({ ...entry.summary })).reverse(),
      });
    if (method === 'GET' && first === 'projects' && projectId !== undefined) {
      const target = projects.get(projectId);
      if (target === undefined) return json({ status: false, message: 'Project not found.' }, 404);
      if (last === 'conversation') return json({ status: true, project_id: projectId, turns: target.turns });
      if (last === 'events') {
        const given = Number(
          request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('after') ?? 0,
        );
        const after = Number.isSafeInteger(given) && given > 0 ? given : 0;
        // Nothing recorded, or the browser's generation was replaced by a newer one: it polls the status instead.
        if (target.events.length === 0 || (after > 0 && generationOfEventId(after) !== target.turns.length))
          return new Response(null, { status: 204 });
        return new Response(follow(target, after, init?.signal ?? undefined), {
          headers: { 'content-type': 'text/event-stream' },
        });
      }
    }
    const response = await inner(input, init);
    const generate = /^\/agent\/generate(?:\/([A-Za-z0-9_-]+))?$/.exec(path);
    if (method === 'POST' && generate !== null && response.ok && response.body !== null) {
      let body: { prompt?: unknown; mode?: unknown } = {};
      try {
        body = JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as typeof body;
      } catch {
        // The mock answered already; an unreadable prompt is recorded as empty.
      }
      const followUp = generate[1];
      const turn: ConversationTurn = {
        kind: followUp === undefined ? 'generate' : 'followUp',
        prompt: typeof body.prompt === 'string' ? body.prompt : '',
        mode: followUp === undefined ? (body.mode === 'design' ? 'design' : 'build') : null,
        at: now(),
        outcome: null,
      };
      return new Response(record(response.body, turn, followUp), {
        status: response.status,
        headers: response.headers,
      });
    }
    const status = /^\/agent\/project\/([A-Za-z0-9_-]+)$/.exec(path);
    if (method === 'GET' && status !== null && response.ok && projects.has(status[1] as string)) {
      const project = (await response.clone().json()) as Partial<ProjectSummary>;
      const target = recordOf(status[1] as string);
      Object.assign(target.summary, {
        name: project.name ?? target.summary.name,
        app_url: project.app_url ?? target.summary.app_url,
        project_status: project.project_status ?? target.summary.project_status,
      });
      // A build whose stream was lost is recorded as what it ended as, as the proxy does.
      const last = target.turns.at(-1);
      const settled =
        last?.outcome == null || !target.ended
          ? undefined
          : settleTurnOutcome(last.outcome, project.project_status, Date.now());
      if (last !== undefined && settled !== undefined) last.outcome = settled;
    }
    return response;
  };
}
