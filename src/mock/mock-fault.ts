/** Faults the mock can inject into the next matching request, for tests and the playground. */
import type { AgentRouteName } from '../core/index.js';
import { failure, jsonResponse } from './mock-responses.js';

/** Which request a fault applies to: a route name, or any Agent API request. Default: the next generate or follow-up. */
export type MockFaultRoute = AgentRouteName | 'any';

/** A fault for the next matching request. Stream faults apply once the stream has started. */
export type MockFault =
  /** Closes the stream abruptly after `events` events: no terminal event, the generation goes on server-side. */
  | { kind: 'drop_after'; events: number; route?: MockFaultRoute }
  /**
   * Freezes the generation after `events` events until the mock is reset or disposed: the stream stays
   * open with heartbeats (or, with `drop`, is closed while the project stays where it was).
   */
  | { kind: 'pause_after'; events: number; drop?: boolean; route?: MockFaultRoute }
  /** Writes one line of invalid JSON after `afterEvents` events (default 1); the stream continues. */
  | { kind: 'malformed_line'; afterEvents?: number; route?: MockFaultRoute }
  /** Waits `intervalMs` before every event, with heartbeats while idle. */
  | { kind: 'slow_drip'; intervalMs: number; route?: MockFaultRoute }
  /** Ends the generation with an `error` event after `afterEvents` events (default 1); the project fails. */
  | { kind: 'error_event'; afterEvents?: number; message?: string; route?: MockFaultRoute }
  /** Answers 500, as JSON or (misleadingly) as `text/event-stream`. */
  | { kind: 'http_500'; asEventStream?: boolean; route?: MockFaultRoute }
  /** Answers 429 with `Retry-After: retryAfterSeconds`. */
  | { kind: 'rate_limited'; retryAfterSeconds: number; route?: MockFaultRoute }
  /** Answers 502 with an HTML page, as a gateway in front of the API would. */
  | { kind: 'non_json_502'; route?: MockFaultRoute };

/** Faults applied to the event stream of a generation. */
export type MockStreamFault = Extract<
  MockFault,
  { kind: 'drop_after' | 'pause_after' | 'malformed_line' | 'slow_drip' | 'error_event' }
>;

/** Faults that replace the whole response. */
export type MockHttpFault = Extract<MockFault, { kind: 'http_500' | 'rate_limited' | 'non_json_502' }>;

const streamRoutes: ReadonlySet<string> = new Set<AgentRouteName>(['generate', 'followUp']);

/** Whether a fault changes a stream (rather than the whole response). */
export function isStreamFault(fault: MockFault): fault is MockStreamFault {
  switch (fault.kind) {
    case 'drop_after':
    case 'pause_after':
    case 'malformed_line':
    case 'slow_drip':
    case 'error_event':
      return true;
    case 'http_500':
    case 'rate_limited':
    case 'non_json_502':
      return false;
    default:
      return fault satisfies never;
  }
}

function nonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** Checks a fault (it may come from JSON over the admin API); returns a reason when it is not valid. */
export function faultProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'A fault must be an object with a kind.';
  const fault = value as Partial<Record<string, unknown>>;
  if (fault.route !== undefined && typeof fault.route !== 'string') return 'route must be a route name or "any".';
  const route = fault.route as string | undefined;
  switch (fault.kind) {
    case 'drop_after':
      if (!nonNegativeInteger(fault.events)) return 'drop_after needs events: a non-negative integer.';
      break;
    case 'pause_after':
      if (!nonNegativeInteger(fault.events)) return 'pause_after needs events: a non-negative integer.';
      if (fault.drop !== undefined && typeof fault.drop !== 'boolean') return 'drop must be a boolean.';
      break;
    case 'malformed_line':
    case 'error_event':
      if (fault.afterEvents !== undefined && !nonNegativeInteger(fault.afterEvents))
        return `${fault.kind} afterEvents must be a non-negative integer.`;
      if (fault.message !== undefined && typeof fault.message !== 'string') return 'message must be a string.';
      break;
    case 'slow_drip':
      if (!nonNegativeInteger(fault.intervalMs)) return 'slow_drip needs intervalMs: a non-negative integer.';
      break;
    case 'http_500':
      if (fault.asEventStream !== undefined && typeof fault.asEventStream !== 'boolean')
        return 'asEventStream must be a boolean.';
      return undefined;
    case 'rate_limited':
      if (!nonNegativeInteger(fault.retryAfterSeconds))
        return 'rate_limited needs retryAfterSeconds: a non-negative integer.';
      return undefined;
    case 'non_json_502':
      return undefined;
    default:
      return `Unknown fault kind: ${String(fault.kind)}.`;
  }
  if (route !== undefined && route !== 'any' && !streamRoutes.has(route))
    return `${String(fault.kind)} applies only to generate or followUp.`;
  return undefined;
}

/** The queue of pending faults; each is consumed by the first request it matches. */
export interface FaultQueue {
  add(fault: MockFault): void;
  /** Removes and returns the first fault of the category that matches the route. */
  take(route: AgentRouteName, category: 'stream' | 'http'): MockFault | undefined;
  pending(): MockFault[];
  clear(): void;
}

/** Creates an empty fault queue. */
export function createFaultQueue(): FaultQueue {
  let faults: MockFault[] = [];
  const matches = (fault: MockFault, route: AgentRouteName) =>
    fault.route === 'any' || fault.route === route || (fault.route === undefined && streamRoutes.has(route));
  return {
    add(fault) {
      const problem = faultProblem(fault);
      if (problem !== undefined) throw new TypeError(problem);
      faults.push({ ...fault });
    },
    take(route, category) {
      const index = faults.findIndex(
        (fault) => isStreamFault(fault) === (category === 'stream') && matches(fault, route),
      );
      if (index < 0) return undefined;
      const [fault] = faults.splice(index, 1);
      return fault;
    },
    pending: () => faults.map((fault) => ({ ...fault })),
    clear() {
      faults = [];
    },
  };
}

/** The response an HTTP fault stands for. */
export function httpFaultResponse(fault: MockHttpFault): Response {
  switch (fault.kind) {
    case 'http_500':
      if (fault.asEventStream) {
        return new Response(': the server failed\n\ndata: {"message":"Server Error"}\n\n', {
          status: 500,
          headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
        });
      }
      return jsonResponse(500, { message: 'Server Error' });
    case 'rate_limited':
      return failure('agent', 429, 'Too Many Attempts.', undefined, { 'retry-after': String(fault.retryAfterSeconds) });
    case 'non_json_502':
      return new Response(
        '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
        { status: 502, headers: { 'content-type': 'text/html' } },
      );
    default:
      return fault satisfies never;
  }
}
