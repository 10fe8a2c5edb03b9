/**
 * The mutation mechanism (docs/architecture.md, "Server actions: mutations") through `agent-embed/core`, against
 * a transport whose every answer the test gives by hand, in the order it chooses, and a clock it moves.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentApiError,
  createAgentClient,
  createAgentStore,
  idleMutation,
  mutationKeys,
  selectMutation,
  type AgentLogEntry,
  type AgentTransport,
  type TransportRequest,
} from 'agent-embed/core';

interface Pending {
  request: TransportRequest;
  answer(body: unknown): void;
  refuse(error: AgentApiError): void;
}

/** A store whose JSON requests wait until the test answers them, on a clock the test sets. */
function setup() {
  const pending: Pending[] = [];
  const sent: TransportRequest[] = [];
  const transport: AgentTransport = {
    json: (request) =>
      new Promise((resolve, reject) => {
        sent.push(request);
        pending.push({ request, answer: resolve, refuse: reject });
      }),
    stream: () => Promise.reject(new AgentApiError('not_found', 'Not found.', { status: 404 })),
  };
  const clock = { now: 1_000 };
  const log: AgentLogEntry[] = [];
  const store = createAgentStore({
    client: createAgentClient({ transport }),
    storage: null,
    now: () => clock.now,
    onLog: (entry) => log.push(entry),
  });
  /** The oldest unanswered POST to `path`. */
  const take = (path: string): Pending => {
    const index = pending.findIndex((entry) => entry.request.path === path && entry.request.method === 'POST');
    if (index === -1) throw new Error(`no request for ${path}`);
    return pending.splice(index, 1)[0]!;
  };
  const posts = (path: string) => sent.filter((request) => request.path === path && request.method === 'POST');
  return { store, clock, log, take, posts, state: () => store.getState() };
}

const deployPath = '/deployments/vercel/project/p1/deploy';
const pushPath = '/codehost/project/p1/push';
const pushed = (name: string, created: boolean) => ({
  repo_url: `https://github.com/ada/${name}`,
  codehost_login: 'ada',
  branch: 'main',
  repo_created: created,
});

describe('mutations', () => {
  it('is idle before it runs; pending with its variables and start time, then success with data and end time', async () => {
    const { state, clock, take } = setup();
    const deploy = mutationKeys.deploy('vercel', 'p1');
    expect(selectMutation(state(), deploy)).toBe(idleMutation);
    expect(selectMutation(state(), undefined)).toBe(idleMutation);

    const running = state().deploy('vercel', 'p1', 'ada');
    expect(selectMutation(state(), deploy)).toEqual({
      status: 'pending',
      data: undefined,
      error: undefined,
      variables: { provider: 'vercel', projectId: 'p1' },
      startedAt: 1_000,
      endedAt: undefined,
    });
    clock.now = 4_500;
    const site = { deployment_id: 'd1', status: 'ready', url: 'https://p1.vercel.app' };
    take(deployPath).answer({ success: true, data: site });
    expect(await running).toEqual({ ok: true, data: site });
    expect(selectMutation(state(), deploy)).toEqual({
      status: 'success',
      data: site,
      error: undefined,
      variables: { provider: 'vercel', projectId: 'p1' },
      startedAt: 1_000,
      endedAt: 4_500,
    });
  });

  it('a failure is error with the error kept, and a new run starts clean', async () => {
    const { state, clock, take } = setup();
    const deploy = mutationKeys.deploy('vercel', 'p1');
    const failing = state().deploy('vercel', 'p1', 'ada');
    clock.now = 2_000;
    take(deployPath).refuse(new AgentApiError('upstream', 'Service unavailable.', { status: 503 }));
    expect(await failing).toMatchObject({ ok: false, error: { kind: 'upstream' } });
    expect(selectMutation(state(), deploy)).toMatchObject({
      status: 'error',
      data: undefined,
      error: { kind: 'upstream', message: 'Service unavailable.' },
      startedAt: 1_000,
      endedAt: 2_000,
    });

    clock.now = 3_000;
    void state().deploy('vercel', 'p1', 'ada');
    expect(selectMutation(state(), deploy)).toMatchObject({
      status: 'pending',
      error: undefined,
      startedAt: 3_000,
      endedAt: undefined,
    });
  });

  it('two concurrent deploys of a project send one request and share one promise', async () => {
    const { state, take, posts } = setup();
    const first = state().deploy('vercel', 'p1', 'ada');
    const second = state().deploy('vercel', 'p1', 'ada');
    expect(second).toBe(first);
    expect(posts(deployPath)).toHaveLength(1);
    take(deployPath).answer({ success: true, data: { deployment_id: 'd1', status: 'ready', url: null } });
    await first;
    // Once it answered, the next click is a new deploy.
    void state().deploy('vercel', 'p1', 'ada');
    expect(posts(deployPath)).toHaveLength(2);
  });

  it("a newer request's answer wins over an older one that answers late", async () => {
    const { state, take, posts } = setup();
    const push = mutationKeys.repositoryPush('p1');
    const older = state().pushRepository('p1', 'ada', { owner: 'ada', name: 'old-site' });
    const newer = state().pushRepository('p1', 'ada', { owner: 'ada', name: 'new-site' });
    expect(newer).not.toBe(older);
    expect(posts(pushPath).map((request) => (request.body as { repo_name: string }).repo_name)).toEqual([
      'old-site',
      'new-site',
    ]);
    const olderRequest = take(pushPath);
    take(pushPath).answer({ success: true, data: pushed('new-site', true) });
    await newer;
    expect(selectMutation(state(), push)).toMatchObject({
      status: 'success',
      variables: { owner: 'ada', name: 'new-site' },
      data: { repo_created: true },
    });

    // The older push answers last, and fails: its caller hears it, the store keeps the newer answer.
    olderRequest.refuse(new AgentApiError('upstream', 'Service unavailable.', { status: 503 }));
    expect(await older).toMatchObject({ ok: false, error: { kind: 'upstream' } });
    expect(selectMutation(state(), push)).toMatchObject({
      status: 'success',
      variables: { owner: 'ada', name: 'new-site' },
      error: undefined,
    });
  });

  it("a failed connect's error, the state and the log never hold the token", async () => {
    const token = 'vercel_secret_token_5150';
    const { state, log, take } = setup();
    const connecting = state().connectDeployment('vercel', 'ada', token);
    const request = take('/deployments/vercel/connections');
    expect(request.request.body).toMatchObject({ token });
    expect(JSON.stringify(state())).not.toContain(token);
    request.refuse(
      new AgentApiError('validation', `The token ${token} was rejected by Vercel.`, {
        status: 422,
        fieldErrors: { token: [`${token} is not valid`], external_user_id: ['ok'] },
      }),
    );
    const result = await connecting;
    const connect = selectMutation(state(), mutationKeys.deploymentConnect('vercel', 'ada'));
    expect(connect).toMatchObject({
      status: 'error',
      variables: { provider: 'vercel', externalUserId: 'ada' },
      error: { kind: 'validation', message: 'The token ••• was rejected by Vercel.' },
    });
    expect(connect.error?.fieldErrors).toEqual({ token: ['••• is not valid'], external_user_id: ['ok'] });
    expect(result.ok ? undefined : result.error).toBe(connect.error);
    const everything = [JSON.stringify(state()), JSON.stringify(log), connect.error?.message, connect.error?.stack];
    for (const text of everything) expect(text).not.toContain(token);
  });

  it('after destroy an answer writes nothing, and a new action is refused without a request', async () => {
    const { store, state, take, posts } = setup();
    const running = state().deploy('vercel', 'p1', 'ada');
    store.destroy();
    take(deployPath).answer({ success: true, data: { deployment_id: 'd1', status: 'ready', url: null } });
    await running;
    expect(selectMutation(state(), mutationKeys.deploy('vercel', 'p1')).status).toBe('pending');
    expect(await state().linkRepository('p1', 'ada', { owner: 'ada', name: 'site' })).toMatchObject({
      ok: false,
      error: { kind: 'aborted' },
    });
    expect(posts('/codehost/project/p1/link')).toHaveLength(0);
  });
});
