/** Typed failures of the Agent API, built from any response without throwing anything else. */
import { timestampOf } from './resources.js';

/** Every way a call can fail. */
export type AgentErrorKind =
  | 'unauthorized'
  | 'token_expired'
  | 'suspended'
  | 'insufficient_credits'
  | 'forbidden'
  | 'not_found'
  | 'validation'
  | 'rate_limited'
  | 'conflict'
  | 'upstream'
  | 'network'
  | 'protocol'
  | 'aborted';

/**
 * What exactly went wrong, stable across wording changes: the spec's messages each have one, and the
 * library's own failures too. End-user copy is keyed by `kind` and `code`; `unknown` when nothing matched.
 */
export type AgentErrorCode =
  | 'unauthorized'
  | 'token_expired'
  | 'team_suspended'
  | 'insufficient_credits'
  | 'project_forbidden'
  | 'project_not_found'
  | 'prompt_too_short'
  | 'validation_failed'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'provider_not_found'
  | 'account_taken'
  | 'connection_not_found'
  | 'not_found'
  | 'conflict'
  | 'generation_failed'
  | 'stream_interrupted'
  | 'stream_idle'
  | 'upstream_error'
  | 'protocol_error'
  | 'network'
  | 'aborted'
  | 'unknown';

/** The spec's messages, word for word. */
export const agentApiMessages = {
  unauthorized: 'Unauthorized.',
  tokenExpired: 'API token has expired.',
  suspended: 'This team is currently suspended.',
  insufficientCredits: 'Not enough credits. Please purchase more credits to continue.',
  projectForbidden: 'Project does not belong to the specified team.',
  projectNotFound: 'Project not found.',
  promptTooShort: 'The prompt must be at least 10 characters.',
  tooManyAttempts: 'Too Many Attempts.',
  providerNotFound: 'Deployment provider not found.',
  providerAccountTaken:
    'This deployment provider account is already connected to another external user for this agency.',
  deploymentConnectionNotFound: 'Deployment provider connection not found for the provided external user.',
  codehostConnectionNotFound: 'code-host connection not found for the provided external user',
} as const;

/** The library's own wording of outcomes the stream reports without a message. */
export const outcomeMessages = {
  generationFailed: 'The generation failed.',
  streamClosed: 'The event stream closed before the generation finished.',
  streamIdle: 'The event stream went silent.',
} as const;

/** One row of the spec's error table: a message, what it means and the status it usually comes with. */
export interface AgentErrorRow {
  code: AgentErrorCode;
  kind: AgentErrorKind;
  status: number;
  message: string;
}

/** The spec's error messages (Errors section) with their code, kind and status; the mock and proxy answer from it. */
export const agentErrorTable: readonly AgentErrorRow[] = [
  { code: 'unauthorized', kind: 'unauthorized', status: 401, message: agentApiMessages.unauthorized },
  { code: 'token_expired', kind: 'token_expired', status: 401, message: agentApiMessages.tokenExpired },
  { code: 'team_suspended', kind: 'suspended', status: 403, message: agentApiMessages.suspended },
  {
    code: 'insufficient_credits',
    kind: 'insufficient_credits',
    status: 400,
    message: agentApiMessages.insufficientCredits,
  },
  { code: 'project_forbidden', kind: 'forbidden', status: 403, message: agentApiMessages.projectForbidden },
  { code: 'project_not_found', kind: 'not_found', status: 404, message: agentApiMessages.projectNotFound },
  { code: 'prompt_too_short', kind: 'validation', status: 422, message: agentApiMessages.promptTooShort },
  { code: 'rate_limited', kind: 'rate_limited', status: 429, message: agentApiMessages.tooManyAttempts },
  { code: 'provider_not_found', kind: 'not_found', status: 404, message: agentApiMessages.providerNotFound },
  { code: 'account_taken', kind: 'conflict', status: 409, message: agentApiMessages.providerAccountTaken },
  {
    code: 'connection_not_found',
    kind: 'not_found',
    status: 404,
    message: agentApiMessages.deploymentConnectionNotFound,
  },
  {
    code: 'connection_not_found',
    kind: 'not_found',
    status: 404,
    message: agentApiMessages.codehostConnectionNotFound,
  },
];

const rowByMessage: ReadonlyMap<string, AgentErrorRow> = new Map(agentErrorTable.map((row) => [row.message, row]));

// Codes of the kinds whose meaning does not depend on the message.
const codeByKind: Partial<Record<AgentErrorKind, AgentErrorCode>> = {
  unauthorized: 'unauthorized',
  token_expired: 'token_expired',
  suspended: 'team_suspended',
  insufficient_credits: 'insufficient_credits',
  validation: 'validation_failed',
  rate_limited: 'rate_limited',
  not_found: 'not_found',
  conflict: 'conflict',
  upstream: 'upstream_error',
  protocol: 'protocol_error',
  network: 'network',
  aborted: 'aborted',
};

/** The code of an error from its message (the spec's table) or its field errors, else from its kind. */
function codeOf(
  kind: AgentErrorKind,
  message: string,
  fieldErrors: Record<string, string[]> | undefined,
): AgentErrorCode {
  const row = rowByMessage.get(message);
  if (row !== undefined) return row.code;
  if (fieldErrors !== undefined) {
    for (const messages of Object.values(fieldErrors)) {
      for (const fieldMessage of messages) {
        const fieldRow = rowByMessage.get(fieldMessage);
        if (fieldRow !== undefined) return fieldRow.code;
      }
    }
  }
  return codeByKind[kind] ?? 'unknown';
}

/** Options of the `AgentApiError` constructor. */
/** An end user's quota as the agency proxy reports it with a `quota_exceeded` refusal. */
export interface QuotaDetails {
  used: number;
  limit: number;
  /** When the period ends (ISO 8601). */
  resetsAt: string;
  period: 'day' | 'week' | 'month' | 'seconds';
}

export interface AgentApiErrorOptions {
  status?: number;
  quota?: QuotaDetails;
  fieldErrors?: Record<string, string[]>;
  retryAfterMs?: number;
  /** Set when the code is known better than the message and kind say (e.g. a library outcome). */
  code?: AgentErrorCode;
  cause?: unknown;
}

/** A failed Agent API call: `kind` says what went wrong, `message` is the server's when it sent one. */
export class AgentApiError extends Error {
  override readonly name = 'AgentApiError';
  readonly kind: AgentErrorKind;
  /** What exactly went wrong; always present (`unknown` when nothing matched). */
  readonly code: AgentErrorCode;
  readonly status?: number;
  readonly fieldErrors?: Record<string, string[]>;
  readonly retryAfterMs?: number;
  /** Set when the agency's quota for this end user is used up (`code: 'quota_exceeded'`). */
  readonly quota?: QuotaDetails;

  constructor(kind: AgentErrorKind, message: string, options: AgentApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.code = options.code ?? codeOf(kind, message, options.fieldErrors);
    if (options.status !== undefined) this.status = options.status;
    if (options.fieldErrors !== undefined) this.fieldErrors = options.fieldErrors;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.quota !== undefined) this.quota = options.quota;
  }
}

/** Whether a value is an `AgentApiError`, also across bundle copies. */
export function isAgentApiError(value: unknown): value is AgentApiError {
  return (
    value instanceof AgentApiError || (value instanceof Error && value.name === 'AgentApiError' && 'kind' in value)
  );
}

// IMF-fixdate, the form senders must use ("Sun, 06 Nov 1994 08:49:37 GMT"); Date.parse alone reads "1" as 2001.
const httpDatePattern =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Milliseconds to wait from a Retry-After header (delay-seconds or HTTP-date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  // RFC 9110: delta-seconds (digits only) or an HTTP-date; anything else is garbage and ignored.
  if (/^\d{1,12}$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!httpDatePattern.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function kindFromStatus(status: number, message: string | undefined): AgentErrorKind {
  const byMessage = message === undefined ? undefined : rowByMessage.get(message)?.kind;
  switch (status) {
    case 400:
      return byMessage ?? 'validation';
    case 401:
      return byMessage === 'token_expired' ? 'token_expired' : 'unauthorized';
    case 403:
      return byMessage === 'suspended' ? 'suspended' : 'forbidden';
    case 404:
    case 410:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
    case 422:
      return 'validation';
    case 429:
      return 'rate_limited';
    default:
      if (byMessage !== undefined) return byMessage;
      return status >= 500 ? 'upstream' : 'protocol';
  }
}

function readFieldErrors(value: unknown): Record<string, string[]> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const fieldErrors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) fieldErrors[field] = messages.map(String);
    else if (typeof messages === 'string') fieldErrors[field] = [messages];
  }
  return Object.keys(fieldErrors).length > 0 ? fieldErrors : undefined;
}

/** Whether a parsed body says the call failed even if its HTTP status is 2xx. */
export function isFailureBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const record = body as { success?: unknown; status?: unknown };
  return record.success === false || record.status === false;
}

/**
 * Builds the error for a failed response from its status, headers and body text. Accepts the agent
 * body `{status, message, errors}`, the envelope `{success, message, data, errors}` and non-JSON text.
 */
export function errorFromResponse(status: number, headers: Headers, text: string, now?: number): AgentApiError {
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  const record = typeof body === 'object' && body !== null ? (body as { message?: unknown; errors?: unknown }) : {};
  const serverMessage = typeof record.message === 'string' && record.message !== '' ? record.message : undefined;
  const fieldErrors = readFieldErrors(record.errors);
  const statusKind = kindFromStatus(status, serverMessage);
  // A 2xx failure body with field errors is a validation failure whatever its status says.
  const kind = statusKind === 'protocol' && fieldErrors ? 'validation' : statusKind;
  const message = serverMessage ?? defaultMessage(kind, status);
  const options: AgentApiErrorOptions = { status };
  if (fieldErrors) options.fieldErrors = fieldErrors;
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'), now);
  if (retryAfterMs !== undefined) options.retryAfterMs = retryAfterMs;
  const quota = quotaOf(body);
  if (quota !== undefined) {
    // The period's end says when more builds come; a countdown of hours would not help anyone.
    delete options.retryAfterMs;
    options.quota = quota;
    options.code = 'quota_exceeded';
  }
  return new AgentApiError(kind, message, options);
}

/** The quota of the agency proxy's `quota_exceeded` refusal, if the body is one. */
function quotaOf(body: unknown): QuotaDetails | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { code, used, limit, resets_at, period } = body as Record<string, unknown>;
  if (code !== 'quota_exceeded' || typeof used !== 'number' || typeof limit !== 'number') return undefined;
  if (typeof resets_at !== 'string' || timestampOf(resets_at) === undefined) return undefined;
  if (period !== 'day' && period !== 'week' && period !== 'month' && period !== 'seconds') return undefined;
  return { used, limit, resetsAt: resets_at, period };
}

function defaultMessage(kind: AgentErrorKind, status: number): string {
  switch (kind) {
    case 'rate_limited':
      return agentApiMessages.tooManyAttempts;
    case 'unauthorized':
      return agentApiMessages.unauthorized;
    case 'not_found':
      return 'Not found.';
    default:
      return `The Agent API answered with HTTP ${status}.`;
  }
}

/** The longest message of an event an error keeps: the API's are a sentence; an event may carry up to 16 MiB. */
const maxEventMessageChars = 1_000;

/** An event's `message`, if it is text, cut to `maxEventMessageChars` (the proxy records it in each turn). */
function eventMessage(message: unknown): string | undefined {
  if (typeof message !== 'string') return undefined;
  return message.length > maxEventMessageChars ? `${message.slice(0, maxEventMessageChars)}…` : message;
}

/** The error of a generation the server reported as failed (an `error` event or a `failed` project status). */
export function generationFailedError(message?: unknown): AgentApiError {
  return new AgentApiError('upstream', eventMessage(message) ?? outcomeMessages.generationFailed, {
    code: 'generation_failed',
  });
}

/** The error of a generation that ran out of credits (a `credits_exhausted` event or project status). */
export function creditsExhaustedError(message?: unknown): AgentApiError {
  return new AgentApiError('insufficient_credits', eventMessage(message) ?? agentApiMessages.insufficientCredits, {
    code: 'insufficient_credits',
  });
}

/** The error of a stream that ended without a terminal event (closed, broken, or silent past the idle limit). */
export function streamInterruptedError(reason: 'closed' | 'idle', cause?: unknown): AgentApiError {
  return reason === 'idle'
    ? new AgentApiError('network', outcomeMessages.streamIdle, { code: 'stream_idle', cause })
    : new AgentApiError('network', outcomeMessages.streamClosed, { code: 'stream_interrupted', cause });
}

/** Wraps anything a fetch threw: an abort stays an abort, everything else is a network failure. */
export function errorFromThrown(thrown: unknown, signal?: AbortSignal): AgentApiError {
  if (isAgentApiError(thrown)) return thrown;
  if (signal?.aborted || (thrown instanceof Error && thrown.name === 'AbortError')) {
    return new AgentApiError('aborted', 'The request was cancelled.', { cause: thrown });
  }
  return new AgentApiError('network', 'The Agent API could not be reached.', { cause: thrown });
}
