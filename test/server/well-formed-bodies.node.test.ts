/**
 * A hostile browser's lone UTF-16 surrogates never reach the upstream as `\ud800` escapes, which its JSON decoder
 * refuses (the end user would read 'The prompt field is required.'): every string the proxy sends upstream is
 * well-formed, lone surrogates made U+FFFD, a valid pair (an emoji) unchanged, and the turn the proxy records keeps the
 * prompt that was sent.
 */
import { describe, expect, it } from 'vitest';
import {
  appOrigin,
  browserRequest,
  createTwoUserProxy,
  everyRouteAnswer,
  type UpstreamCall,
} from './scripted-upstream.js';

const answer = everyRouteAnswer;

/** Lone high and low surrogates, at the ends and inside, beside a valid pair. */
const hostile = '\uD800Build a page \uDBFF\uDFFF (a pair), \uDC00 lone, \uD83D\uDE00 kept, a high one last \uDBFF';
const sent = '\uFFFDBuild a page \uDBFF\uDFFF (a pair), \uFFFD lone, \u{1F600} kept, a high one last \uFFFD';

const isWellFormed = (text: string) => (text as string & { isWellFormed(): boolean }).isWellFormed();

/** A received body as a strict decoder reads it: no escape of a surrogate at all, every string well-formed. */
function readStrictly(call: UpstreamCall | undefined): Record<string, unknown> {
  const body = call?.body ?? '';
  expect(body).not.toMatch(/\\u[dD][89a-fA-F]/);
  const parsed = JSON.parse(body) as Record<string, unknown>;
  for (const value of Object.values(parsed)) if (typeof value === 'string') expect(isWellFormed(value)).toBe(true);
  return parsed;
}

describe('what the proxy sends upstream is well-formed', () => {
  it('a generate and a follow-up with lone surrogates go upstream with U+FFFD, the emoji intact, and are recorded so', async () => {
    expect(isWellFormed(hostile)).toBe(false);
    const { proxy, upstream } = createTwoUserProxy(answer);
    const generated = await proxy(browserRequest('POST', '/agent/generate', { prompt: hostile, mode: 'design' }));
    expect(generated.status).toBe(200);
    await generated.text();
    const followedUp = await proxy(browserRequest('POST', '/agent/generate/p-alice', { prompt: hostile }));
    expect(followedUp.status).toBe(200);
    await followedUp.text();

    expect(upstream.calls.map((call) => call.url.pathname)).toEqual([
      '/api/v1/agent/generate',
      '/api/v1/agent/generate/p-alice',
    ]);
    expect(readStrictly(upstream.calls[0])).toEqual({ prompt: sent, mode: 'design' });
    expect(readStrictly(upstream.calls[1])).toEqual({ prompt: sent });

    // The conversation keeps what the upstream was sent, not what the browser wrote.
    for (const project of ['p-new', 'p-alice']) {
      const conversation = (await (await proxy(browserRequest('GET', `/projects/${project}/conversation`))).json()) as {
        turns: { prompt: string }[];
      };
      expect(conversation.turns.map((turn) => turn.prompt)).toEqual([sent]);
    }
  });

  it("the browser's other fields and the session's profile are made well-formed too", async () => {
    const { proxy, upstream } = createTwoUserProxy(answer, {
      authorize: () => ({ externalUserId: 'alice', name: 'Al\uDC00ice', email: 'a@example.test' }),
    });
    const linked = await proxy(
      browserRequest('POST', '/codehost/project/p-alice/link', { repo_owner: 'own\uD800er', repo_name: 'site\uDFFF' }),
    );
    await linked.text();
    const started = await proxy(
      browserRequest('POST', '/codehost/connect/start', { return_url: `${appOrigin}/projects/p-alice` }),
    );
    expect(started.status).toBe(200);
    expect(readStrictly(upstream.calls[0])).toMatchObject({ repo_owner: 'own\uFFFDer', repo_name: 'site\uFFFD' });
    expect(readStrictly(upstream.calls[1])).toMatchObject({ external_user_name: 'Al\uFFFDice' });
  });
});
