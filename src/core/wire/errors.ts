/** Typed failures of the Agent API, built from any response without throwing anything else. */

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

/** Options of the `AgentApiError` constructor. */
export interface AgentApiErrorOptions {
  status?: number;
  fieldErrors?: Record<string, string[]>;
  retryAfterMs?: number;
  cause?: unknown;
}

/** A failed Agent API call: `kind` says what went wrong, `message` is the server's when it sent one. */
export class AgentApiError extends Error {
  override readonly name = 'AgentApiError';
  readonly kind: AgentErrorKind;
  readonly status?: number;
  readonly fieldErrors?: Record<string, string[]>;
  readonly retryAfterMs?: number;

  constructor(kind: AgentErrorKind, message: string, options: AgentApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    if (options.status !== undefined) this.status = options.status;
    if (options.fieldErrors !== undefined) this.fieldErrors = options.fieldErrors;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/** Whether a value is an `AgentApiError`, also across bundle copies. */
export function isAgentApiError(value: unknown): value is AgentApiError {
  return (
    value instanceof AgentApiError || (value instanceof Error && value.name === 'AgentApiError' && 'kind' in value)
  );
}

/** Milliseconds to wait from a Retry-After header (delay-seconds or HTTP-date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

const kindByMessage = new Map<string, AgentErrorKind>([
  [agentApiMessages.unauthorized, 'unauthorized'],
  [agentApiMessages.tokenExpired, 'token_expired'],
  [agentApiMessages.suspended, 'suspended'],
  [agentApiMessages.insufficientCredits, 'insufficient_credits'],
  [agentApiMessages.projectForbidden, 'forbidden'],
  [agentApiMessages.projectNotFound, 'not_found'],
  [agentApiMessages.providerNotFound, 'not_found'],
  [agentApiMessages.providerAccountTaken, 'conflict'],
  [agentApiMessages.deploymentConnectionNotFound, 'not_found'],
  [agentApiMessages.codehostConnectionNotFound, 'not_found'],
]);

function kindFromStatus(status: number, message: string | undefined): AgentErrorKind {
  const byMessage = message === undefined ? undefined : kindByMessage.get(message);
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
  return new AgentApiError(kind, message, options);
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

/** Wraps anything a fetch threw: an abort stays an abort, everything else is a network failure. */
export function errorFromThrown(thrown: unknown, signal?: AbortSignal): AgentApiError {
  if (isAgentApiError(thrown)) return thrown;
  if (signal?.aborted || (thrown instanceof Error && thrown.name === 'AbortError')) {
    return new AgentApiError('aborted', 'The request was cancelled.', { cause: thrown });
  }
  return new AgentApiError('network', 'The Agent API could not be reached.', { cause: thrown });
}
