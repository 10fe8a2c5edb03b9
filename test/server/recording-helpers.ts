/** Helpers of the recording tests: a burst of file events, the ids a browser got, and reading them as they come. */
import { expect } from 'vitest';
import type { AgentProxyOptions, ProxyStore } from 'agent-embed/server';
import {
  createBodyReader,
  createManualTimers,
  createScriptedProxy,
  createScriptedStream,
  json,
  type UpstreamCall,
} from './scripted-upstream.js';

export const appOrigin = 'https://app.example.test';
export const basePath = '/api/agent';

/** Alice's generate request (the recording proxy's default user). */
export const generateRequest = () =>
  new Request(`${appOrigin}${basePath}/agent/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'A recipe box with tags please' }),
  });

/**
 * A proxy recording into `store` for Alice (unless `options.authorize` says otherwise), in front of an upstream
 * that answers each generate and follow-up with a new scripted stream (`streams`, in order) and anything else with
 * a ready project, or with `answer`; its timers fire only when a test says so, and it has no idle or stall limits
 * unless `options` set them.
 */
export function createRecordingProxy(
  store: ProxyStore,
  options: Partial<AgentProxyOptions> = {},
  answer?: (call: UpstreamCall) => Response,
) {
  const streams: ReturnType<typeof createScriptedStream>[] = [];
  const scripted = (call: UpstreamCall) => {
    if (answer !== undefined) return answer(call);
    if (!/\/agent\/(generate|follow)/.test(call.url.pathname))
      return json({ status: true, project_id: 'p-x', project_status: 'ready', name: 'X', app_url: null });
    const stream = createScriptedStream();
    streams.push(stream);
    return stream.response();
  };
  const timers = createManualTimers();
  const proxy = createScriptedProxy(scripted, {
    basePath,
    authorize: () => ({ externalUserId: 'alice' }),
    appUrl: appOrigin,
    store,
    timers,
    heartbeatMs: 0,
    upstreamIdleTimeoutMs: 0,
    upstreamStreamTimeoutMs: 0,
    statusCacheMs: 0,
    ...options,
  });
  return { ...proxy, streams, timers };
}

/** A file event of about `size` characters. */
export const fileEvent = (n: number, size = 80) => ({
  type: 'file_created',
  path: `src/${n}-${'x'.repeat(size)}.tsx`,
});

/** The ids of the complete events in SSE text. */
export const idsIn = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));

/** The whole numbers from `from` to `to`. */
export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

/** Writes a generate's burst upstream: its project named, `count` file events, its end; then closes the stream. */
export function writeBurst(stream: ReturnType<typeof createScriptedStream>, projectId: string, count: number): void {
  stream.event({ type: 'project_created', project_id: projectId });
  for (let n = 1; n <= count; n++) stream.event(fileEvent(n));
  stream.event({ type: 'stream_end', project_id: projectId });
  stream.close();
}

/**
 * Reads a relayed body to its end and gives the ids it carried; as each chunk arrives, checks that the store had
 * recorded every event in it (so a resume from any id the browser saw finds it).
 */
export async function idsSentAfterRecording(
  body: ReadableStream<Uint8Array> | null,
  recorded: ReadonlySet<number>,
): Promise<number[]> {
  const reader = createBodyReader(body);
  const sent: number[] = [];
  for (let chunk = await reader.next(); chunk !== undefined; chunk = await reader.next()) {
    const ids = idsIn(chunk);
    expect(ids.filter((id) => !recorded.has(id))).toEqual([]);
    sent.push(...ids);
  }
  return sent;
}
