/**
 * Turns an upstream JSON answer into the browser's: read within bounds (size, idle and total deadlines,
 * depth), then built from the route's allow-list (`answer-shapes.ts`), with a validated, capped
 * `Retry-After`. Nothing of the upstream's answer passes unbuilt; what cannot be read is a 502 or 504 to
 * the browser and its reason to the log.
 */
import { isFailureBody, parseRetryAfter } from '../core/index.js';
import { buildFailureAnswer, buildSuccessAnswer, dataLessSuccessMessage, UnreadableAnswer } from './answer-shapes.js';
import { jsonDeeperThan, readBoundedBody, type BodyLimits } from './bounded-json.js';
import { errorBody, proxyMessages, retryAfterSeconds, type RelayedJson } from './proxy-responses.js';
import type { RoutePolicy } from './route-policy.js';

/** Default longest pause the proxy takes from an upstream `Retry-After`. */
export const defaultMaxRetryAfterMs = 120_000;

/** What building an answer needs of the proxy. */
export interface AnswerContext {
  userId: string;
  /** The project the path names, which the user owns (checked before the upstream was asked). */
  projectId?: string | undefined;
  /** Applied to every string that goes out (the token redactor). */
  clean(text: string): string;
  /** The origins an answer may send the end user to (`codehostInstallOrigins`). */
  installOrigins: ReadonlySet<string>;
  body: BodyLimits;
  maxDepth: number;
  maxRetryAfterMs: number;
  now(): number;
}

/** The browser's answer, and why the proxy refused what the upstream sent (for the log). */
export interface BuiltAnswer {
  relayed: RelayedJson;
  /** The upstream said the call succeeded (2xx, and a body that does not say it failed): only then is it kept. */
  succeeded: boolean;
  /** Why the proxy refused the answer, or dropped part of one it relays. */
  reason?: string;
}

/** The wait an upstream `Retry-After` asks for, in ms: strictly parsed, garbage ignored, capped. */
export function cappedRetryAfterMs(header: string | null, now: number, maxMs: number): number | undefined {
  const ms = parseRetryAfter(header, now);
  return ms === undefined ? undefined : Math.min(ms, maxMs);
}

/** Reads an upstream JSON answer and builds the browser's from the route's allow-list. */
export async function buildAnswer(
  response: Response,
  policy: RoutePolicy,
  context: AnswerContext,
): Promise<BuiltAnswer> {
  const { shape } = policy;
  const waitMs = cappedRetryAfterMs(response.headers.get('retry-after'), context.now(), context.maxRetryAfterMs);
  const retryAfter = waitMs === undefined ? {} : { retryAfter: String(retryAfterSeconds(waitMs)) };
  const refuse = (status: number, message: string, reason: string): BuiltAnswer => ({
    relayed: { status, body: errorBody(shape, message) },
    succeeded: false,
    reason,
  });
  const tooManyAttempts = (): BuiltAnswer => ({
    relayed: { status: 429, body: errorBody(shape, proxyMessages.tooManyAttempts), ...retryAfter },
    succeeded: false,
  });

  const read = await readBoundedBody(response.body, context.body);
  if (read.kind === 'too_large')
    return refuse(502, proxyMessages.upstreamUnexpected, 'upstream answer over the size cap');
  if (read.kind === 'stalled') return refuse(504, proxyMessages.upstreamTimeout, 'upstream answer stalled');
  if (read.kind === 'cut') return refuse(502, proxyMessages.upstreamUnexpected, 'upstream answer cut short');
  const ok = response.status >= 200 && response.status < 300;
  // The action happened; what it produced is not known, so the browser asks for the state again.
  const happened = (message: string): BuiltAnswer => ({
    relayed: { status: 200, body: JSON.stringify({ success: true, message, data: null, errors: null }) },
    succeeded: true,
  });
  if (ok && read.text.trim() === '' && policy.emptySuccess) return happened('');
  if (jsonDeeperThan(read.text, context.maxDepth))
    return refuse(502, proxyMessages.upstreamUnexpected, 'upstream answer nested too deeply');
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    if (response.status === 429) return tooManyAttempts();
    return refuse(502, proxyMessages.upstreamUnexpected, `upstream answer is not JSON (status ${response.status})`);
  }
  // A 2xx whose body says it failed (`success: false` or `status: false`; the spec does not show the status codes of
  // domain failures) is a failure: built as one, with the upstream's status, and never kept as a success.
  const succeeded = ok && !isFailureBody(body);
  // An envelope without data after a deploy, push or link: the action happened too, and a 502 would invite a second.
  const dataLessMessage = succeeded && policy.emptySuccess ? dataLessSuccessMessage(body, context.clean) : undefined;
  if (dataLessMessage !== undefined) return happened(dataLessMessage);
  try {
    if (succeeded) {
      let dropped: string | undefined;
      const built = buildSuccessAnswer(policy.answer, body, {
        userId: context.userId,
        clean: context.clean,
        installOrigins: context.installOrigins,
        projectId: context.projectId,
        onDropped: (reason) => (dropped = reason),
      });
      const relayed = { status: response.status, body: context.clean(JSON.stringify(built)) };
      return { relayed, succeeded, ...(dropped === undefined ? {} : { reason: dropped }) };
    }
    if (ok || (response.status >= 400 && response.status < 600)) {
      const built = buildFailureAnswer(body, context.clean);
      const relayed = { status: response.status, body: context.clean(JSON.stringify(built)), ...retryAfter };
      return { relayed, succeeded };
    }
    return refuse(502, proxyMessages.upstreamUnexpected, `upstream status ${response.status}`);
  } catch (thrown) {
    if (!(thrown instanceof UnreadableAnswer)) throw thrown;
    if (response.status === 429) return tooManyAttempts();
    return refuse(502, proxyMessages.upstreamUnexpected, `upstream answer refused: ${thrown.message}`);
  }
}
