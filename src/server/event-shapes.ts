/**
 * What the browser may see of an upstream event: each event's data is rebuilt from an allow-list of its type's fields
 * (DESIGN.md's decisions where the spec does not show them), never passed through. The same event is what the proxy
 * records, so a resume replays only what the proxy decided to send.
 */
import {
  agentEventOf,
  fileCreatedPath,
  type AgentEvent,
  type AgentEventType,
  type FileCreatedEvent,
} from '../core/index.js';
import { pick, type FieldShapes } from './answer-shapes.js';

/** The fields each wire event keeps, besides `type` (a `file_created` path is read from any of its spellings). */
export const eventFields = {
  project_created: { project_id: 'string', app_url: 'url' },
  container_progress: { message: 'string', percentage: 'number' },
  container_ready: { message: 'string' },
  file_created: { path: 'string', action: 'string' },
  tool_progress: { tool: 'string', message: 'string', status: 'string' },
  stream_end: { project_id: 'string', app_url: 'url' },
  credits_exhausted: { message: 'string', project_id: 'string' },
  error: { message: 'string', project_id: 'string' },
} as const satisfies Record<Exclude<AgentEventType, 'unknown'>, FieldShapes>;

/** An unknown event's type is kept (the end user's log counts it) only if it reads as a name. */
const eventTypePattern = /^[A-Za-z0-9_.:-]{1,64}$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An upstream event as the proxy relays it: its data as the browser gets it, and that data read as an event. */
export interface UpstreamEvent {
  data: string;
  /** `data` read once, for the recorder's fold (it is never parsed again on the server). */
  event: AgentEvent;
}

// Data past this length is parsed only if it opens few arrays and objects: an allow-listed event keeps none of them,
// and megabytes of `[[],[],…]` would have the engine build millions (over ten times the data's size in memory) just
// for them to be dropped.
const nestingCheckedChars = 1024 * 1024;
const maxOpenings = 65_536;

/** Whether long data opens more arrays and objects than an event could need (strings' brackets count too). */
function opensTooMany(data: string): boolean {
  if (data.length <= nestingCheckedChars) return false;
  let openings = 0;
  for (const bracket of ['[', '{'])
    for (let at = data.indexOf(bracket); at !== -1; at = data.indexOf(bracket, at + 1))
      if (++openings > maxOpenings) return true;
  return false;
}

/**
 * The event the browser gets for one upstream event's data, or undefined when the data is not a JSON object, or is
 * over a megabyte and opens more than 65,536 arrays and objects (dropped: the browser would only have refused it, or
 * the proxy would have dropped all but a few fields). Strings pass through `clean` (the token redactor). An event of a
 * type this version does not know keeps only its type, so it is still counted.
 */
export function relayedEvent(data: string, clean: (text: string) => string): UpstreamEvent | undefined {
  if (opensTooMany(data)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const rebuilt = rebuild(value, clean);
  return { data: JSON.stringify(rebuilt), event: agentEventOf(rebuilt) };
}

/** An event's allow-listed fields (see `eventFields`), as a new object. */
function rebuild(value: Record<string, unknown>, clean: (text: string) => string): Record<string, unknown> {
  const { type } = value;
  if (typeof type !== 'string' || !Object.hasOwn(eventFields, type))
    return typeof type === 'string' && eventTypePattern.test(type) ? { type: clean(type) } : {};
  const known = type as keyof typeof eventFields;
  return { type, ...pick(known === 'file_created' ? fileFields(value) : value, eventFields[known], clean) };
}

/** A `file_created` event's path under its one name, and its action only if it is one the client knows. */
function fileFields(event: Record<string, unknown>): Record<string, unknown> {
  const { action } = event;
  return {
    path: fileCreatedPath(event as FileCreatedEvent),
    action: action === 'created' || action === 'modified' ? action : undefined,
  };
}
