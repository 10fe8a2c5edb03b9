import { describe, expect, it } from 'vitest';
import {
  AgentApiError,
  agentApiMessages,
  agentErrorTable,
  agentIdPattern,
  agentRoutes,
  creditsExhaustedError,
  errorFromResponse,
  familyOfPath,
  generationFailedError,
  isPromptLongEnough,
  matchRoute,
  minimumPromptLength,
  proxyRoutes,
  streamInterruptedError,
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

  it('refuses what Date.parse alone would read (a bare number, decimals, other date forms)', () => {
    for (const garbage of ['1.5', '-1', '1e3', 'Sunday, 22-Nov-26 10:00:30 GMT', '99999999999999', 'x 12'])
      expect(parseRetryAfter(garbage, now)).toBeUndefined();
  });
});

describe('the proxy’s quota refusal', () => {
  it('becomes a typed quota_exceeded error with the quota (when the period ends, not a countdown)', () => {
    const body = {
      status: false,
      message: 'The build limit for this period has been reached.',
      code: 'quota_exceeded',
      used: 20,
      limit: 20,
      resets_at: '2026-11-26T00:00:00.000Z',
      period: 'day',
    };
    const error = errorFromResponse(429, new Headers({ 'retry-after': '3600' }), JSON.stringify(body));
    expect(error).toMatchObject({
      kind: 'rate_limited',
      code: 'quota_exceeded',
      quota: { used: 20, limit: 20, resetsAt: '2026-11-26T00:00:00.000Z', period: 'day' },
    });
    expect(error.retryAfterMs).toBeUndefined();
  });

  it('stays a plain rate limit when the body is not the proxy’s quota answer', () => {
    const error = errorFromResponse(429, new Headers(), JSON.stringify({ code: 'quota_exceeded', used: '20' }));
    expect(error.code).toBe('rate_limited');
    expect(error.quota).toBeUndefined();
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

describe('error codes', () => {
  it.each([
    [401, agentApiMessages.unauthorized, 'unauthorized'],
    [401, agentApiMessages.tokenExpired, 'token_expired'],
    [403, agentApiMessages.suspended, 'team_suspended'],
    [403, agentApiMessages.projectForbidden, 'project_forbidden'],
    [400, agentApiMessages.insufficientCredits, 'insufficient_credits'],
    [404, agentApiMessages.projectNotFound, 'project_not_found'],
    [404, agentApiMessages.providerNotFound, 'provider_not_found'],
    [409, agentApiMessages.providerAccountTaken, 'account_taken'],
    [404, agentApiMessages.deploymentConnectionNotFound, 'connection_not_found'],
    [404, agentApiMessages.codehostConnectionNotFound, 'connection_not_found'],
    [429, agentApiMessages.tooManyAttempts, 'rate_limited'],
    [500, 'Server Error', 'upstream_error'],
    [418, 'I am a teapot', 'protocol_error'],
    [403, 'Forbidden by a policy', 'unknown'],
  ] as const)('gives a %i %s the code %s', (status, message, code) => {
    expect(errorFromResponse(status, noHeaders, json({ status: false, message })).code).toBe(code);
  });

  it('reads prompt_too_short from the field errors of a 422, whatever the top-level message', () => {
    const error = errorFromResponse(
      422,
      noHeaders,
      json({
        status: false,
        message: 'The given data was invalid.',
        errors: { prompt: [agentApiMessages.promptTooShort] },
      }),
    );
    expect(error).toMatchObject({ kind: 'validation', code: 'prompt_too_short' });
    const other = errorFromResponse(
      422,
      noHeaders,
      json({
        status: false,
        message: 'The given data was invalid.',
        errors: { prompt: ['The prompt field is required.'] },
      }),
    );
    expect(other.code).toBe('validation_failed');
  });

  it('gives every error a code, the outcome errors their own, and keeps an explicit code', () => {
    expect(new AgentApiError('network', 'offline').code).toBe('network');
    expect(new AgentApiError('aborted', 'The request was cancelled.').code).toBe('aborted');
    expect(generationFailedError()).toMatchObject({
      kind: 'upstream',
      code: 'generation_failed',
      message: 'The generation failed.',
    });
    expect(generationFailedError('boom').message).toBe('boom');
    expect(creditsExhaustedError()).toMatchObject({
      kind: 'insufficient_credits',
      code: 'insufficient_credits',
      message: agentApiMessages.insufficientCredits,
    });
    expect(streamInterruptedError('idle').code).toBe('stream_idle');
    expect(streamInterruptedError('closed').code).toBe('stream_interrupted');
    expect(new AgentApiError('upstream', 'x', { code: 'generation_failed' }).code).toBe('generation_failed');
  });

  it('has one row per spec message, each classified back to its own kind and code', () => {
    for (const row of agentErrorTable) {
      const error = errorFromResponse(row.status, noHeaders, json({ status: false, message: row.message }));
      expect(error).toMatchObject({ kind: row.kind, code: row.code });
    }
    expect(new Set(agentErrorTable.map((row) => row.message)).size).toBe(agentErrorTable.length);
  });
});

describe('route metadata', () => {
  it('gives every route a family: agent endpoints, envelopes and the proxy own routes', () => {
    const agent = Object.entries(agentRoutes).filter(([, route]) => route.family === 'agent');
    expect(agent.map(([name]) => name).sort()).toEqual(['followUp', 'generate', 'getProject']);
    expect(Object.values(proxyRoutes).every((route) => route.family === 'proxy')).toBe(true);
    expect(familyOfPath('/codehost/anything')).toBe('envelope');
    expect(familyOfPath('/agent/anything')).toBe('agent');
  });

  it('holds the id rule and the minimum prompt length once', () => {
    expect(agentIdPattern.test('abc_DEF-123')).toBe(true);
    for (const bad of ['', 'a/b', 'a.b', '..', 'a%2Fb', 'a\nb', 'x'.repeat(129)])
      expect(agentIdPattern.test(bad)).toBe(false);
    expect(matchRoute('GET', '/agent/project/a.b')).toBeUndefined();
    expect(minimumPromptLength).toBe(10);
    expect(isPromptLongEnough('123456789')).toBe(false);
    expect(isPromptLongEnough('  1234567890  ')).toBe(true);
    expect(isPromptLongEnough('ééééééééé')).toBe(false);
  });
});
