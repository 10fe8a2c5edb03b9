/**
 * Shared plumbing of the store's slices: what an action resolves to, what a slice gets from the store, and the one
 * runner of resources and mutations, which de-duplicates requests and drops answers overtaken for their record.
 */
import type { AgentClient } from '../wire/client.js';
import { AgentApiError, errorFromThrown } from '../wire/errors.js';
import { timestampOf } from '../wire/resources.js';

/** What an integration action resolves to. Actions never reject. */
export type IntegrationResult<T> = { ok: true; data: T } | { ok: false; error: AgentApiError };

/** What a slice gets from the store. `State` is the slice's own part of the store state. */
export interface SliceContext<State> {
  client: AgentClient;
  get(): State;
  set(patch: Partial<State>): void;
  now(): number;
  /** Aborted when the store is destroyed: requests are cancelled and late answers ignored. */
  signal: AbortSignal;
  /** Adds a line to the store's log; never pass a secret. */
  log(kind: 'action' | 'error', text: string): void;
}

/** One request of a slice. */
export interface SliceTask<T> {
  /** Requests with the same key share one in-flight promise (a double click sends one request). */
  key: string;
  /** Sends a new request even while one of the key runs (an invalidation: the running one may answer stale data). */
  fresh?: boolean;
  /** The record the answer is written to: an answer is dropped if a newer request for it started since, or `overtake`. */
  record: string;
  call(signal: AbortSignal): Promise<T>;
  start(): void;
  succeed(data: T): void;
  fail(error: AgentApiError): void;
}

/** Creates the runner of one slice; `overtake(record)` drops the answers running for a record (news came first). */
export function createSliceRunner(signal: AbortSignal) {
  const sequences = new Map<string, number>();
  // Each key's request in flight, with the sequence of its record it was sent under.
  const inflight = new Map<string, { promise: Promise<IntegrationResult<unknown>>; sequence: number | undefined }>();
  const overtake = (record: string) => sequences.set(record, (sequences.get(record) ?? 0) + 1).get(record);
  const run = <T>(task: SliceTask<T>): Promise<IntegrationResult<T>> => {
    const running = inflight.get(task.key);
    // Shared while its answer is still to be written: an overtaken one's is dropped, so a new request goes out.
    if (running !== undefined && task.fresh !== true && sequences.get(task.record) === running.sequence)
      return running.promise as Promise<IntegrationResult<T>>;
    if (signal.aborted)
      return Promise.resolve({ ok: false, error: new AgentApiError('aborted', 'The store was destroyed.') });
    const sequence = overtake(task.record);
    task.start();
    // The request is sent now; a call that throws at once is a failure like any other.
    const promise: Promise<IntegrationResult<T>> = new Promise<T>((resolve) => resolve(task.call(signal)))
      .then(
        (data): IntegrationResult<T> => ({ ok: true, data }),
        (thrown: unknown): IntegrationResult<T> => ({ ok: false, error: errorFromThrown(thrown, signal) }),
      )
      .then((result) => {
        if (inflight.get(task.key)?.promise === promise) inflight.delete(task.key);
        if (!signal.aborted && sequences.get(task.record) === sequence) {
          if (result.ok) task.succeed(result.data);
          else task.fail(result.error);
        }
        return result;
      });
    inflight.set(task.key, { promise: promise as Promise<IntegrationResult<unknown>>, sequence });
    return promise;
  };
  return Object.assign(run, { overtake });
}

/** Whether an ISO timestamp lies in the past by the store's clock; unreadable or null dates never expire. */
export function isPast(timestamp: unknown, now: number): boolean {
  const time = timestampOf(timestamp);
  return time !== undefined && time <= now;
}
