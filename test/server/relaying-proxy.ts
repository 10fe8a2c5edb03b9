/** A proxy whose status and generate answers a test scripts, for the status route's tests while a build is relayed. */
import { expect } from 'vitest';
import { createMemoryProxyStore, type AgentProxyOptions, type ProxyStore } from 'agent-embed/server';
import {
  createManualTimers,
  createScriptedProxy,
  createScriptedStream,
  json,
  type UpstreamCall,
} from './scripted-upstream.js';
import { appOrigin, basePath } from './recording-helpers.js';

type Stream = ReturnType<typeof createScriptedStream>;

/**
 * A proxy for alice (who owns p-alice, p-other and p-new) in front of an upstream that answers each generate and
 * follow-up with a new scripted stream and each status with `statuses` (default `ready`); its clock stands still.
 */
export function createRelayingProxy(options: Partial<AgentProxyOptions> & { store?: ProxyStore } = {}) {
  const statuses: Record<string, string> = {};
  /** The HTTP status of each project's status answer (default 200). */
  const codes: Record<string, number> = {};
  /** A whole status body of the upstream's for a project, in place of the usual one (a broken upstream). */
  const bodies: Record<string, unknown> = {};
  const streams: Stream[] = [];
  // While set, a generate or follow-up waits for it: a Response is the upstream's answer, else a new stream.
  let postGate: Promise<Response | undefined> | undefined;
  /** Holds the next generate or follow-up's upstream answer; gives its opening (with a refusal, or a new stream). */
  const gatePost = () => {
    let open!: (answer?: Response) => void;
    postGate = new Promise<Response | undefined>((resolve) => (open = resolve));
    return (answer?: Response) => {
      postGate = undefined;
      open(answer);
    };
  };
  const streamAnswer = () => {
    const stream = createScriptedStream();
    streams.push(stream);
    return stream.response();
  };
  const answer = (call: UpstreamCall) => {
    if (call.method === 'POST') {
      return postGate === undefined ? streamAnswer() : postGate.then((answered) => answered ?? streamAnswer());
    }
    const projectId = call.url.pathname.split('/').pop() ?? '';
    if (projectId in bodies) return json(bodies[projectId], codes[projectId]);
    return json(
      {
        status: true,
        project_id: projectId,
        app_url: `https://${projectId}.example`,
        project_status: statuses[projectId] ?? 'ready',
        name: 'App',
      },
      codes[projectId],
    );
  };
  const store =
    options.store ?? createMemoryProxyStore({ owners: { 'p-alice': 'alice', 'p-other': 'alice', 'p-new': 'alice' } });
  const proxied = createScriptedProxy(answer, {
    basePath,
    authorize: () => ({ externalUserId: 'alice' }),
    appUrl: appOrigin,
    timers: createManualTimers(),
    heartbeatMs: 0,
    upstreamIdleTimeoutMs: 0,
    upstreamStreamTimeoutMs: 0,
    statusCacheMs: 0,
    now: () => 1_000_000,
    ...options,
    store,
  });
  const post = (path: string, signal?: AbortSignal) =>
    proxied.proxy(
      new Request(`${appOrigin}${basePath}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'Add a dark mode toggle please' }),
        ...(signal === undefined ? {} : { signal }),
      }),
    );
  const statusText = async (projectId = 'p-alice') => {
    const response = await proxied.proxy(new Request(`${appOrigin}${basePath}/agent/project/${projectId}`));
    expect(response.status).toBe(200);
    return response.text();
  };
  const status = async (projectId = 'p-alice') =>
    (JSON.parse(await statusText(projectId)) as { project_status: string }).project_status;
  const closedStreams = () => proxied.logs.filter((entry) => entry.event === 'stream_closed').length;
  /** Ends the upstream stream and waits until the proxy has read it to its end. */
  const endUpstream = async (stream: Stream, projectId = 'p-alice') => {
    const closed = closedStreams();
    stream.event({ type: 'stream_end', project_id: projectId });
    stream.close();
    await expect.poll(closedStreams).toBe(closed + 1);
  };
  /** Waits until the upstream has heard of this many generates and follow-ups. */
  const untilPosted = (posts: number) =>
    expect.poll(() => proxied.upstream.calls.filter((call) => call.method === 'POST').length).toBe(posts);
  return {
    ...proxied,
    store,
    statuses,
    codes,
    bodies,
    streams,
    gatePost,
    untilPosted,
    post,
    status,
    statusText,
    endUpstream,
  };
}
