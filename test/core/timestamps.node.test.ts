/** An answer's timestamps are ISO 8601 dates or nothing (`Date.parse` alone reads "0" as the year 2000). */
import { describe, expect, it } from 'vitest';
import { errorFromResponse, timestampOf } from 'agent-embed/core';

describe('timestampOf', () => {
  it('reads ISO 8601 dates, with or without a time, a zone or fractions', () => {
    expect(timestampOf('2024-05-01T10:00:00.000Z')).toBe(Date.UTC(2024, 4, 1, 10));
    expect(timestampOf('2024-05-01T10:00:00.000000Z')).toBe(Date.UTC(2024, 4, 1, 10));
    expect(timestampOf('2024-05-01T12:00:00+02:00')).toBe(Date.UTC(2024, 4, 1, 10));
    expect(timestampOf('2024-05-01')).toBe(Date.UTC(2024, 4, 1));
    expect(timestampOf('2024-05-01 10:00:00')).toBe(Date.parse('2024-05-01 10:00:00'));
  });

  it('reads nothing else, whatever Date.parse makes of it', () => {
    for (const value of ['0', '1', '5', '2024', 'Dec 6', ' 2024-05-01', 'Wed, 01 May 2024 10:00:00 GMT', '2024-13-45'])
      expect(timestampOf(value), value).toBeUndefined();
    for (const value of [0, 5, null, undefined, {}, [], true, new Date()]) expect(timestampOf(value)).toBeUndefined();
  });
});

describe('a quota refusal whose resets_at is not a date', () => {
  it('is a plain rate limit, not a quota that ends in 2001', () => {
    const body = { code: 'quota_exceeded', used: 20, limit: 20, resets_at: '1', period: 'day' };
    const error = errorFromResponse(429, new Headers(), JSON.stringify(body));
    expect(error.quota).toBeUndefined();
  });
});
