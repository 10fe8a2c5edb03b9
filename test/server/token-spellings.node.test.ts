/**
 * The token leaves in no spelling a URL or a form gives it (percent-encoded, hex digits in either case, encoded twice,
 * `+` for a space), in base64 (standard or URL-safe, at any offset, as in a `Basic` credential) or in hex, nor, for an
 * `id|secret` token (Laravel Sanctum), as its secret part alone, which is a working token on its own: not in a JSON
 * answer, an error's message or field errors, a URL field, a relayed or replayed event, or the log.
 */
import { describe, expect, it } from 'vitest';
import type { AgentProxyOptions } from 'agent-embed/server';
import {
  createBodyReader,
  createManualTimers,
  createScriptedProxy,
  createStreamingProxy,
  eventsOf,
  json,
  type UpstreamCall,
} from './scripted-upstream.js';

const appOrigin = 'https://app.example.test';
const basePath = '/api/agent';
const secretPart = 'Q8xV2mLr7TnK4pWz9bYc3HdJ6fGs1aEo5uRiXkNq';
const sanctumToken = `42|${secretPart}`;

/** Every UTF-8 byte of a text as `%xx`, lower-case hex. */
const everyByte = (text: string) =>
  [...new TextEncoder().encode(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

const spellings: [string, string][] = [
  ['percent-encoded as encodeURIComponent does', encodeURIComponent(sanctumToken)],
  [
    'percent-encoded with lower-case hex',
    encodeURIComponent(sanctumToken).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
  ],
  ['every byte percent-encoded, upper-case hex', everyByte(sanctumToken).toUpperCase()],
  ['percent-encoded twice', encodeURIComponent(encodeURIComponent(sanctumToken))],
  ['its secret part alone', secretPart],
  ['its secret part alone, every byte percent-encoded', everyByte(secretPart)],
];

function call(method: string, path: string, body?: unknown): Request {
  return new Request(`${appOrigin}${basePath}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

function setup(answer: (call: UpstreamCall) => Response, options: Partial<AgentProxyOptions> = {}) {
  return createScriptedProxy(answer, {
    basePath,
    apiToken: sanctumToken,
    authorize: () => ({ externalUserId: 'alice' }),
    appUrl: appOrigin,
    timers: createManualTimers(),
    heartbeatMs: 0,
    teamAnswersCacheMs: 0,
    ...options,
  });
}

/**
 * A generate of p-spelled whose upstream sends `events` (and whose `onGeneration` throws with `spelled` in its message):
 * the browser's stream, the events route's replay of it, and the log.
 */
async function relayAndReplay(spelled: string, events: object[]) {
  const { proxy, stream, logs } = createStreamingProxy({
    apiToken: sanctumToken,
    onGeneration: () => {
      throw new Error(`upstream said ${spelled}`);
    },
  });
  const response = await proxy(call('POST', '/agent/generate', { prompt: 'A recipe box with tags please' }));
  const relaying = createBodyReader(response.body).rest();
  for (const event of events) stream.event(event);
  stream.close();
  const relayed = await relaying;
  const replayed = await (await proxy(call('GET', '/projects/p-spelled/events'))).text();
  return { relayed, replayed, logs };
}

describe.each(spellings)('the token %s', (_, spelled) => {
  it('is redacted in a JSON answer’s message and in its URL field', async () => {
    const { proxy } = setup(() =>
      json({
        success: true,
        message: `Flow started for ${spelled}.`,
        data: { redirect_url: `https://github.com/apps/x/installations/new?state=s&t=${spelled}`, state: 's' },
        errors: null,
      }),
    );
    const text = await (await proxy(call('POST', '/codehost/connect/start', {}))).text();
    expect(text).not.toContain(spelled);
    expect(JSON.parse(text)).toEqual({
      success: true,
      message: 'Flow started for [redacted].',
      data: { redirect_url: 'https://github.com/apps/x/installations/new?state=s&t=[redacted]', state: 's' },
      errors: null,
    });
  });

  it('is redacted in an error’s message and in its field errors', async () => {
    const { proxy } = setup((sent) =>
      sent.method === 'GET'
        ? json({ success: false, message: `Token ${spelled} is not valid.`, data: null, errors: null }, 401)
        : json(
            { message: 'The given data was invalid.', errors: { token: [`GET /x?api_token=${spelled} failed`] } },
            422,
          ),
    );
    const refused = await (await proxy(call('GET', '/codehost/connections'))).text();
    expect(refused).not.toContain(spelled);
    expect(JSON.parse(refused)).toMatchObject({ success: false, message: 'Token [redacted] is not valid.' });
    const invalid = await (await proxy(call('POST', '/deployments/vercel/connections', { token: 'vercel' }))).text();
    expect(invalid).not.toContain(spelled);
    expect(JSON.parse(invalid)).toMatchObject({ errors: { token: ['GET /x?api_token=[redacted] failed'] } });
  });

  it('is redacted in a relayed and a replayed event, and in the log', async () => {
    const { relayed, replayed, logs } = await relayAndReplay(spelled, [
      { type: 'project_created', project_id: 'p-spelled', app_url: `https://p.example/?t=${spelled}` },
      { type: 'tool_progress', message: `Bearer ${spelled}` },
      { type: 'stream_end', project_id: 'p-spelled' },
    ]);

    for (const sent of [relayed, replayed]) {
      expect(sent).not.toContain(spelled);
      expect(eventsOf(sent).map(({ data }) => data)).toEqual([
        '{"type":"project_created","project_id":"p-spelled","app_url":"https://p.example/?t=[redacted]"}',
        '{"type":"tool_progress","message":"Bearer [redacted]"}',
        '{"type":"stream_end","project_id":"p-spelled"}',
      ]);
    }
    expect(JSON.stringify(logs)).not.toContain(spelled);
    expect(logs.find((entry) => entry.event === 'internal_error')?.reason).toBe(
      'onGeneration threw: Error: upstream said [redacted]',
    );
  });
});

describe('spellings beyond a Sanctum token', () => {
  it('redacts a token with a space and reserved characters as a URL and as a form encode it', async () => {
    const token = 'team key!(x)*~+/=';
    const form = new URLSearchParams({ t: token }).toString().slice(2);
    const uri = encodeURIComponent(token);
    const { proxy } = setup(() => json({ success: true, message: `${form} ${uri}`, data: [], errors: null }), {
      apiToken: token,
    });
    const text = await (await proxy(call('GET', '/subscription-plans'))).text();
    expect(JSON.parse(text)).toMatchObject({ message: '[redacted] [redacted]' });
  });

  it('redacts a token with a short secret part only whole, and leaves ordinary text with percent signs as it is', async () => {
    const token = '7|shortpart';
    const ordinary = 'shortpart is 50% done: https://p.example/a%20b?q=7%7C';
    const { proxy } = setup(
      () => json({ success: true, message: `${ordinary} ${encodeURIComponent(token)}`, data: [], errors: null }),
      { apiToken: token },
    );
    const text = await (await proxy(call('GET', '/subscription-plans'))).text();
    expect(JSON.parse(text)).toMatchObject({ message: `${ordinary} [redacted]` });
  });
});

/** Base64 of a text's UTF-8 bytes. */
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
const hex = (text: string) =>
  [...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

/** Whether a run of base64 or hex in `text`, read from any offset, decodes to something holding the secret part. */
function decodesToSecret(text: string): boolean {
  for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{16,}/g)) {
    const standard = run.replace(/-/g, '+').replace(/_/g, '/');
    for (let offset = 0; offset < 4; offset++) {
      const body = standard.slice(offset);
      const decoded = atob(body.slice(0, body.length - (body.length % 4)));
      if (decoded.includes(secretPart)) return true;
    }
    for (let offset = 0; offset < 2; offset++) {
      const pairs = run.slice(offset).match(/[0-9a-fA-F]{2}/g) ?? [];
      if (
        pairs
          .map((pair) => String.fromCharCode(parseInt(pair, 16)))
          .join('')
          .includes(secretPart)
      )
        return true;
    }
  }
  return false;
}

describe.each([
  ['in base64', base64(sanctumToken)],
  ['in base64 from the second byte of a group, as a `Basic` credential holds it', base64(`:${sanctumToken}`)],
  ['in base64 from the third byte of a group', base64(`ab${sanctumToken}`)],
  ['in URL-safe base64', base64(sanctumToken).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')],
  ['in hex', hex(sanctumToken)],
  ['in upper-case hex', hex(sanctumToken).toUpperCase()],
  ['its secret part alone, in base64', base64(`x${secretPart}`)],
])('the token %s', (_, spelled) => {
  it('decodes to no secret in a JSON answer, a relayed and a replayed event, or the log', async () => {
    const { proxy: answering } = setup(() =>
      json({ success: false, message: `Rejected Basic ${spelled}`, data: null, errors: null }, 401),
    );
    const answered = await (await answering(call('GET', '/codehost/connections'))).text();
    expect(decodesToSecret(answered)).toBe(false);
    expect(answered).toContain('[redacted]');

    const { relayed, replayed, logs } = await relayAndReplay(spelled, [
      { type: 'project_created', project_id: 'p-spelled' },
      { type: 'error', message: `auth header was ${spelled}`, project_id: 'p-spelled' },
    ]);
    for (const sent of [relayed, replayed]) {
      expect(decodesToSecret(sent)).toBe(false);
      expect(sent).toContain('[redacted]');
    }
    expect(decodesToSecret(JSON.stringify(logs))).toBe(false);
  });
});

describe('base64 and hex that are not the token', () => {
  it('are left as they are', async () => {
    const ordinary = `sha256 ${hex('a commit of the app')} image ${base64('a picture of a bakery, not a secret')}`;
    const { proxy } = setup(() => json({ success: true, message: ordinary, data: [], errors: null }));
    const text = await (await proxy(call('GET', '/subscription-plans'))).text();
    expect(JSON.parse(text)).toMatchObject({ message: ordinary });
  });
});
