/** Server-Sent Events of the generate endpoints, discriminated on `type`, and a tolerant parser. */

/** Sent immediately on a new project. */
export interface ProjectCreatedEvent {
  type: 'project_created';
  project_id: string;
  app_url: string;
}

/** Container setup progress. */
export interface ContainerProgressEvent {
  type: 'container_progress';
  message: string;
  percentage: number;
}

/** Container ready; AI generation starts. */
export interface ContainerReadyEvent {
  type: 'container_ready';
  message: string;
}

/** A file was generated or modified. The path may arrive under several names; see `fileCreatedPath`. */
export interface FileCreatedEvent {
  type: 'file_created';
  path?: string;
  file_path?: string;
  filename?: string;
  file?: { path?: string };
  action?: 'created' | 'modified';
  [key: string]: unknown;
}

/** Progress of one agent tool execution. */
export interface ToolProgressEvent {
  type: 'tool_progress';
  tool?: string;
  message?: string;
  status?: string;
  [key: string]: unknown;
}

/** Generation completed successfully. */
export interface StreamEndEvent {
  type: 'stream_end';
  project_id: string;
  app_url: string;
}

/** Team credits ran out during generation; ends the stream. */
export interface CreditsExhaustedEvent {
  type: 'credits_exhausted';
  message?: string;
  project_id?: string;
}

/** The server reported an error while processing the request; ends the stream. */
export interface StreamErrorEvent {
  type: 'error';
  message?: string;
  project_id?: string;
}

/** An event type this version does not know; kept so UIs can show it generically. */
export interface UnknownEvent {
  type: 'unknown';
  /** The `type` field as sent, if it was a string. */
  originalType: string | undefined;
  data: unknown;
}

/** Every event the client can hand to `onEvent`. */
export type AgentEvent =
  | ProjectCreatedEvent
  | ContainerProgressEvent
  | ContainerReadyEvent
  | FileCreatedEvent
  | ToolProgressEvent
  | StreamEndEvent
  | CreditsExhaustedEvent
  | StreamErrorEvent
  | UnknownEvent;

/** Events after which the server sends nothing more. */
export type TerminalEvent = StreamEndEvent | CreditsExhaustedEvent | StreamErrorEvent;

/** The `type` of every event, `unknown` included. */
export type AgentEventType = AgentEvent['type'];

/** The `type` of every event the wire can carry (all but `unknown`). */
type WireEventType = Exclude<AgentEventType, 'unknown'>;

/**
 * Whether a `type` names a wire event, and whether that event ends the stream: one exhaustive switch (a type
 * added to `AgentEvent` and not listed here fails the type-check, so the parser can never drop it silently).
 * A switch, not a Set or a keyed table: the type is a string fresh from JSON.parse, and hashing it on every
 * event cost a tenth of the event's JSON.parse; comparisons against the literals cost nothing measurable.
 */
function wireEventKind(type: string): 'event' | 'terminal' | undefined {
  const wire = type as WireEventType;
  switch (wire) {
    case 'project_created':
    case 'container_progress':
    case 'container_ready':
    case 'file_created':
    case 'tool_progress':
      return 'event';
    case 'stream_end':
    case 'credits_exhausted':
    case 'error':
      return 'terminal';
    default:
      wire satisfies never;
      return undefined;
  }
}

/** The wire types this version understands (every member of the union but `unknown`). */
export const knownEventTypes: ReadonlySet<string> = new Set(
  Object.keys({
    project_created: true,
    container_progress: true,
    container_ready: true,
    file_created: true,
    tool_progress: true,
    stream_end: true,
    credits_exhausted: true,
    error: true,
  } satisfies Record<WireEventType, true>),
);

/** Result of parsing one `data:` payload. */
export type ParsedEvent = { ok: true; event: AgentEvent } | { ok: false; reason: string };

/**
 * Reads one SSE data payload: the event, or why it is refused. The stream's hot path: no wrapper object per
 * event, and an event of a known type is handed on as JSON.parse built it.
 */
export function readAgentEvent(data: string): AgentEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return `The event is not valid JSON: ${data.slice(0, 200)}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `The event is not a JSON object: ${data.slice(0, 200)}`;
  }
  return agentEventOf(value as Record<string, unknown>);
}

/** The event a JSON object is: itself for a type this version knows, else `unknown` with the type it named. */
export function agentEventOf(value: Record<string, unknown>): AgentEvent {
  const { type } = value;
  if (typeof type === 'string' && wireEventKind(type) !== undefined) return value as unknown as AgentEvent;
  return { type: 'unknown', originalType: typeof type === 'string' ? type : undefined, data: value };
}

/** Parses one SSE data payload. Never throws: bad JSON comes back as `{ ok: false }`. */
export function parseAgentEvent(data: string): ParsedEvent {
  const event = readAgentEvent(data);
  return typeof event === 'string' ? { ok: false, reason: event } : { ok: true, event };
}

/** Whether an event ends the stream. */
export function isTerminalEvent(event: AgentEvent): event is TerminalEvent {
  return wireEventKind(event.type) === 'terminal';
}

/** The file path of a `file_created` event, whichever field the server used. */
export function fileCreatedPath(event: FileCreatedEvent): string | undefined {
  const path = event.path ?? event.file_path ?? event.filename ?? event.file?.path;
  return typeof path === 'string' && path.length > 0 ? path : undefined;
}
