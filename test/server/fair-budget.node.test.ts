import { describe, expect, it } from 'vitest';
import { decideBudget, defaultReserve, type BudgetEntry } from 'agent-embed/server';

const limits = { limit: 10, windowMs: 60_000 };
const entries = (userId: string, count: number, at = 0): BudgetEntry[] =>
  Array.from({ length: count }, (_, index) => ({ userId, at: at + index }));

describe('decideBudget', () => {
  it('lets a lone user use the budget but the reserve', () => {
    expect(defaultReserve(10)).toBe(2);
    expect(decideBudget(entries('alice', 7), 'alice', 100, limits)).toEqual({ ok: true });
    expect(decideBudget(entries('alice', 8), 'alice', 100, limits)).toMatchObject({ ok: false, reason: 'team' });
    expect(decideBudget(entries('alice', 8), 'bob', 100, limits)).toEqual({ ok: true });
  });

  it('never exceeds the team limit, and says when the oldest slot frees', () => {
    const log = [...entries('alice', 9), { userId: 'bob', at: 50 }];
    expect(decideBudget(log, 'carol', 100, limits)).toEqual({ ok: false, reason: 'team', retryAfterMs: 60_000 - 100 });
  });

  it('caps each user at floor(limit / active users) while several are active', () => {
    const log = [...entries('alice', 3), ...entries('bob', 1, 10)];
    // alice, bob and carol are active: a share of 3 each.
    expect(decideBudget(log, 'carol', 100, limits)).toEqual({ ok: true });
    expect(decideBudget(log, 'bob', 100, limits)).toEqual({ ok: true });
    expect(decideBudget(log, 'alice', 100, limits)).toEqual({ ok: true });
    const withCarol = [...log, { userId: 'carol', at: 20 }];
    expect(decideBudget(withCarol, 'alice', 100, limits)).toEqual({
      ok: false,
      reason: 'fair_share',
      retryAfterMs: 60_000 - 100,
    });
    expect(decideBudget(withCarol, 'bob', 100, limits)).toEqual({ ok: true });
  });

  it('forgets entries that left the window', () => {
    expect(decideBudget(entries('alice', 10), 'alice', 60_010, limits)).toEqual({ ok: true });
  });

  it('gives every user at least one slot however many are active', () => {
    const small = { limit: 4, windowMs: 60_000, reserve: 0 };
    const log = Array.from({ length: 3 }, (_, index) => ({ userId: `user-${index}`, at: index }));
    expect(decideBudget(log, 'newcomer', 10, small)).toEqual({ ok: true });
    expect(decideBudget(log, 'user-0', 10, small)).toMatchObject({ ok: false, reason: 'fair_share' });
  });
});
