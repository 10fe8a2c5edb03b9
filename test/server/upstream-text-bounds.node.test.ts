/**
 * Upstream text the proxy cannot trust, however it is shaped: an event of any depth is redacted and relayed
 * without losing the events before it; the token in any spelling a JSON reader decodes is redacted in valid
 * and invalid JSON alike; log reasons never copy the upstream's text and stay one short line.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryProxyStore, type AgentProxyOptions, type AgentProxyUser } from 'agent-embed/server';
import {
  createBodyReader,
  createManualTimers,
  createScriptedProxy,
  createStreamingProxy,
  eventsOf,
  fakeToken,
  json,
  type UpstreamCall,
} from './scripted-upstream.js';

const appOrigin = 'https://app.example.test';
const basePath = '/api/agent';
const alice: AgentProxyUser = { externalUserId: 'alice' };

function setup(answer: (call: UpstreamCall) => Response, options: Partial<AgentProxyOptions> = {}) {
  return createScriptedProxy(answer, {
    basePath,
    authorize: () => alice,
    store: createMemoryProxyStore(),
    appUrl: appOrigin,
    timers: createManualTimers(),
    heartbeatMs: 0,
    ...options,
  });
}

function call(method: string, path: string, body?: unknown): Request {
  return new Request(`${appOrigin}${basePath}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A generate whose upstream stream the test writes; the browser's side is read to its end. */
async function generate(options: Partial<AgentProxyOptions> = {}) {
  const proxied = createStreamingProxy(options);
  const response = await proxied.proxy(call('POST', '/agent/generate', { prompt: 'A recipe box with tags please' }));
  return { ...proxied, text: createBodyReader(response.body).rest() };
}

/** Text with its JSON escapes decoded as a JSON reader would, whether or not the whole is valid JSON. */
function decodeEscapes(text: string): string {
  const short: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g, (_, hex: string | undefined, letter: string) =>
    hex === undefined ? (short[letter] ?? '') : String.fromCharCode(parseInt(hex, 16)),
  );
}

/** The token spelled unit by unit: every unit as `\uXXXX` (`'lower'`, `'upper'`), or every other one and `\/`. */
function spell(token: string, how: 'lower' | 'upper' | 'mixed'): string {
  const escape = (unit: string) => {
    const hex = `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
    return how === 'upper' ? hex.toUpperCase().replace('\\U', '\\u') : hex;
  };
  if (how !== 'mixed') return [...token].map(escape).join('');
  return [...token].map((unit, index) => (unit === '/' ? '\\/' : index % 2 === 0 ? escape(unit) : unit)).join('');
}

describe('a deeply nested event', () => {
  it('is rebuilt from its allow-list, redacted, and relayed after the events of the same upstream write', async () => {
    const { proxy, stream, text, store, logs } = await generate();
    const depth = 20_000;
    const deep = `{"type":"tool_progress","message":"Bearer ${spell(fakeToken, 'lower')}","x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    // One upstream write: a genuine project_created, then the deep event (with backslashes: JSON escapes).
    stream.write(
      `data: ${JSON.stringify({ type: 'project_created', project_id: 'p-deep', app_url: 'https://p.example' })}\n\n` +
        `data: ${deep}\n\n`,
    );
    stream.event({ type: 'stream_end', project_id: 'p-deep' });
    stream.close();
    const events = eventsOf(await text);

    expect(events.map(({ id, data }) => [id, (JSON.parse(data) as { type: string }).type])).toEqual([
      ['1', 'project_created'],
      ['2', 'tool_progress'],
      ['3', 'stream_end'],
    ]);
    // Its unknown field (the nesting) is not relayed; its message is, redacted.
    expect(events[1]?.data).toBe('{"type":"tool_progress","message":"Bearer [redacted]"}');
    expect(await store.getProjectOwner('p-deep')).toBe('alice');
    expect(logs.find((entry) => entry.event === 'stream_closed')?.reason).toBe('upstream completed');
    // The project is the user's: the events route replays all three.
    const replay = eventsOf(await (await proxy(call('GET', '/projects/p-deep/events'))).text());
    expect(replay.map(({ id }) => id)).toEqual(['1', '2', '3']);
  });

  it('an event of megabytes opening a million arrays is dropped unread; long text with few brackets is relayed', async () => {
    const { stream, text } = await generate();
    const arrays = `{"type":"tool_progress","message":"Filling memory","x":[${'[],'.repeat(1_000_000)}[]]}`;
    const long = `{"type":"tool_progress","message":"${'[ok] ' + 'done, '.repeat(200_000)}"}`;
    expect(arrays.length).toBeGreaterThan(1024 * 1024);
    expect(long.length).toBeGreaterThan(1024 * 1024);
    stream.event({ type: 'project_created', project_id: 'p-arrays', app_url: 'https://p.example' });
    stream.write(`data: ${arrays}\n\n`);
    stream.write(`data: ${long}\n\n`);
    stream.event({ type: 'stream_end', project_id: 'p-arrays' });
    stream.close();
    const events = eventsOf(await text).map(({ data }) => JSON.parse(data) as { type: string; message?: string });
    expect(events.map((event) => event.type)).toEqual(['project_created', 'tool_progress', 'stream_end']);
    expect(events[1]?.message).toBe('[ok] ' + 'done, '.repeat(200_000));
  });

  it('an event over the size limit fails the stream only after the events of the same upstream write', async () => {
    const { stream, text, store, logs } = await generate();
    stream.write(
      `data: ${JSON.stringify({ type: 'project_created', project_id: 'p-big', app_url: 'https://p.example' })}\n\n` +
        `data: ${'x'.repeat(16 * 1024 * 1024 + 1)}`,
    );
    stream.event({ type: 'stream_end', project_id: 'p-big' });
    const events = eventsOf(await text);

    expect(events.map(({ data }) => (JSON.parse(data) as { type: string }).type)).toEqual(['project_created']);
    expect(await store.getProjectOwner('p-big')).toBe('alice');
    expect(logs.find((entry) => entry.event === 'stream_closed')?.reason).toMatch(/^upstream failed: .*exceeded/);
    // Nothing after the failure is read: the upstream is let go.
    expect(stream.state.cancelled).toBe(true);
  });

  it('`event:` and `id:` lines count towards the limit: one event of 3 x 6 MiB fails the stream, unrelayed', async () => {
    const { stream, text, logs } = await generate();
    const six = 'x'.repeat(6 * 1024 * 1024);
    stream.write(`data: ${JSON.stringify({ type: 'project_created', project_id: 'p-lines' })}\n\n`);
    // Each line under the parser's own cap (data and the unfinished line), 18 MiB in all before the blank line.
    stream.write(`event: ${six}\n`);
    stream.write(`id: ${six}\n`);
    stream.write(`data: {"type":"tool_progress","message":"${six}"}\n`);
    stream.write('\n');
    stream.event({ type: 'stream_end', project_id: 'p-lines' });
    stream.close();
    const events = eventsOf(await text);

    expect(events.map(({ data }) => (JSON.parse(data) as { type: string }).type)).toEqual(['project_created']);
    expect(logs.find((entry) => entry.event === 'stream_closed')?.reason).toMatch(/^upstream failed: .*exceeded/);
  });
});

describe('line endings', () => {
  it('reads CRLF split across chunks, CR alone and a CR ending the stream as the SSE spec does', async () => {
    const { stream, text } = await generate();
    const event = (message: string) => `data: ${JSON.stringify({ type: 'tool_progress', message })}`;
    // CRLF whose LF starts the next chunk: one line ending, not a blank line that would end the event early.
    stream.write(`${event('split')}\r`);
    stream.write('\n\r');
    stream.write('\n');
    // CR alone, and CRLF.
    stream.write(`${event('cr')}\r\r${event('crlf')}\r\n\r\n`);
    // Comments with one CR each, as an upstream may mix them.
    stream.write(':\n:\n:\r\n');
    // The last blank line is a CR at the very end of the stream.
    stream.write(`${event('last')}\n\r`);
    stream.close();
    expect(eventsOf(await text).map(({ data }) => (JSON.parse(data) as { message: string }).message)).toEqual([
      'split',
      'cr',
      'crlf',
      'last',
    ]);
  });
});

describe('the token spelled with JSON escapes in an event', () => {
  // A token of base64's alphabet, so that `/` is in it (spelled `\/` too).
  const token = `${fakeToken}+/=`;

  it('reaches neither the browser, nor the events route, nor the log, in any spelling a JSON reader decodes', async () => {
    const { proxy, stream, text, logs } = await generate({ apiToken: token });
    stream.event({ type: 'project_created', project_id: 'p-esc', app_url: 'https://p.example' });
    for (const how of ['lower', 'upper', 'mixed'] as const) {
      const event = `{"type":"tool_progress","message":"Invalid header Authorization: Bearer ${spell(token, how)}`;
      // Cut short (no closing quote or brace): JSON.parse fails on it, and it is dropped.
      stream.write(`data: ${event}\n\n`);
      // Whole: relayed with the token replaced in its decoded message.
      stream.write(`data: ${event}"}\n\n`);
    }
    stream.close();
    const relayed = await text;
    const replayed = await (await proxy(call('GET', '/projects/p-esc/events'))).text();

    for (const seen of [relayed, replayed, JSON.stringify(logs)]) {
      expect(seen).not.toContain(token);
      expect(decodeEscapes(seen)).not.toContain(token);
    }
    for (const sent of [relayed, replayed])
      expect(eventsOf(sent).map(({ data }) => data)).toEqual([
        expect.stringContaining('project_created'),
        ...Array.from(
          { length: 3 },
          () => '{"type":"tool_progress","message":"Invalid header Authorization: Bearer [redacted]"}',
        ),
      ]);
  });
});

describe('upstream text in log reasons', () => {
  const hostileKey = `<script>alert(1)</script>\n[error] forged log line ${'k'.repeat(1 << 20)}`;

  it.each([
    [{ [hostileKey]: [], connections: [] }, 'the listing holds 2 lists under connections and 1 unexpected key'],
    [{ [hostileKey]: [] }, 'the listing holds a list under 1 unexpected key'],
  ])('a listing with a 1 MiB key of its own: 502, and the reason names none of it', async (data, reason) => {
    const { proxy, logs } = setup(() => json({ success: true, message: 'ok', data }));
    const response = await proxy(call('GET', '/deployments/vercel/connections'));

    expect(response.status).toBe(502);
    const logged = JSON.stringify(logs);
    for (const part of ['<script>', 'forged log line', 'kkkk']) expect(logged).not.toContain(part);
    expect(logs.find((entry) => entry.event === 'upstream_refused')?.reason).toBe(`upstream answer refused: ${reason}`);
  });

  it('every reason reaching onLog is one line of at most 500 characters, however long an error says', async () => {
    const { stream, text, logs } = await generate({
      onGeneration: () => {
        throw new Error(`line one\nline two\r\u2028${'e'.repeat(1 << 20)}`);
      },
    });
    stream.event({ type: 'project_created', project_id: 'p-log', app_url: 'https://p.example' });
    stream.event({ type: 'stream_end', project_id: 'p-log' });
    stream.close();
    await text;

    const failure = logs.find((entry) => entry.event === 'internal_error')?.reason ?? '';
    expect(failure).toMatch(/^onGeneration threw: Error: line one line two {2}e+…$/);
    for (const { reason = '' } of logs) {
      expect(reason.length).toBeLessThanOrEqual(501);
      expect(reason).not.toMatch(/[\n\r\u2028]/);
    }
  });

  it('a reason holds the token in no spelling a JSON reader decodes', async () => {
    const { stream, text, logs } = await generate({
      onGeneration: () => {
        throw new Error(`upstream said "Bearer ${spell(fakeToken, 'upper')}" and ${fakeToken}`);
      },
    });
    stream.event({ type: 'stream_end', project_id: 'p-log' });
    stream.close();
    await text;
    const failure = logs.find((entry) => entry.event === 'internal_error')?.reason ?? '';
    expect(failure).toBe('onGeneration threw: Error: upstream said "Bearer [redacted]" and [redacted]');
    expect(decodeEscapes(JSON.stringify(logs))).not.toContain(fakeToken);
  });
});
