import { describe, expect, it } from 'vitest';
import {
  AgentApiError,
  agentApiMessages,
  errorFromResponse,
  isAgentApiError,
  parseAgentEvent,
  parseRetryAfter,
} from 'agent-embed/core';

const json = (body: unknown) => JSON.stringify(body);
const noHeaders = new Headers();

describe('errorFromResponse', () => {
  it.each([
    [401, agentApiMessages.unauthorized, 'unauthorized'],
    [401, agentApiMessages.tokenExpired, 'token_expired'],
    [403, agentApiMessages.suspended, 'suspended'],
    [403, agentApiMessages.projectForbidden, 'forbidden'],
    [400, agentApiMessages.insufficientCredits, 'insufficient_credits'],
    [404, agentApiMessages.projectNotFound, 'not_found'],
    [409, agentApiMessages.providerAccountTaken, 'conflict'],
    [500, 'Server Error', 'upstream'],
  ] as const)('reads the agent body of a %i %s', (status, message, kind) => {
    const error = errorFromResponse(status, noHeaders, json({ status: false, message }));
    expect(error).toBeInstanceOf(AgentApiError);
    expect(error).toMatchObject({ kind, status, message });
  });

  it('reads the envelope body and its field errors', () => {
    const error = errorFromResponse(
      422,
      noHeaders,
      json({
        success: false,
        message: 'The given data was invalid.',
        data: null,
        errors: { token: ['The token field is required.'] },
      }),
    );
    expect(error).toMatchObject({
      kind: 'validation',
      status: 422,
      fieldErrors: { token: ['The token field is required.'] },
    });
  });

  it('maps a domain failure by its message when the status does not say it', () => {
    const error = errorFromResponse(
      200,
      noHeaders,
      json({ success: false, message: agentApiMessages.codehostConnectionNotFound, data: null, errors: null }),
    );
    expect(error.kind).toBe('not_found');
  });

  it('copes with an HTML 502 page', () => {
    const error = errorFromResponse(502, noHeaders, '<html><body>Bad gateway</body></html>');
    expect(error).toMatchObject({ kind: 'upstream', status: 502, message: 'The Agent API answered with HTTP 502.' });
    expect(error.fieldErrors).toBeUndefined();
  });

  it('gives a 429 without a body the spec message and its Retry-After', () => {
    const error = errorFromResponse(429, new Headers({ 'retry-after': '30' }), '');
    expect(error).toMatchObject({ kind: 'rate_limited', message: 'Too Many Attempts.', retryAfterMs: 30_000 });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  it('reads seconds and HTTP-dates, and nothing else', () => {
    expect(parseRetryAfter('12', now)).toBe(12_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('isAgentApiError', () => {
  it('recognises the error and nothing else', () => {
    expect(isAgentApiError(new AgentApiError('network', 'down'))).toBe(true);
    expect(isAgentApiError(new Error('down'))).toBe(false);
    expect(isAgentApiError({ kind: 'network' })).toBe(false);
  });
});

describe('parseAgentEvent', () => {
  it('keeps known events, wraps unknown ones and reports bad JSON without throwing', () => {
    expect(parseAgentEvent('{"type":"container_progress","message":"Booting","percentage":40}')).toEqual({
      ok: true,
      event: { type: 'container_progress', message: 'Booting', percentage: 40 },
    });
    expect(parseAgentEvent('{"type":"future_event"}')).toEqual({
      ok: true,
      event: { type: 'unknown', originalType: 'future_event', data: { type: 'future_event' } },
    });
    expect(parseAgentEvent('[1,2]')).toMatchObject({ ok: false });
    expect(parseAgentEvent('{"type":')).toMatchObject({ ok: false });
  });
});
