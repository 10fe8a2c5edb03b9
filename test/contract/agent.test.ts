import { agentApiMessages, type AgentApiError } from 'agent-embed/core';
import { creditsExhaustedMessage } from 'agent-embed/mock';
import { describe, expect, it } from 'vitest';
import { collector, expectApiError, generatePosts, startHarness, useHarness } from './contract-helpers.js';

const prompt = 'Build a todo app with dark mode';
const h = useHarness();

describe('contract: generate, follow-up and project status', () => {
  it('streams a new project in the spec order and completes', async () => {
    const seen = collector();
    const result = await h.client.generate({ prompt }, { onEvent: seen.onEvent });
    expect(result.outcome).toBe('completed');
    expect(result.error).toBeUndefined();
    const order = seen.types();
    expect(order.slice(0, 7)).toEqual([
      'project_created',
      'container_progress',
      'container_progress',
      'container_progress',
      'container_progress',
      'container_progress',
      'container_ready',
    ]);
    const generation = order.slice(7, -1);
    expect(generation.length).toBeGreaterThan(0);
    expect(generation.every((type) => type === 'file_created' || type === 'tool_progress')).toBe(true);
    expect(generation).toContain('file_created');
    expect(generation).toContain('tool_progress');
    expect(order.at(-1)).toBe('stream_end');

    const created = seen.events[0];
    if (created?.type !== 'project_created') throw new Error('the first event must be project_created');
    expect(result.projectId).toBe(created.project_id);
    expect(result.appUrl).toBe(created.app_url);
    expect(result.appUrl).toBe(`${h.server.url.replace('/api/v1', '')}/apps/${result.projectId}/`);

    const project = await h.client.getProject(result.projectId!);
    expect(project).toEqual({
      status: true,
      project_id: result.projectId,
      app_url: result.appUrl,
      project_status: 'ready',
      name: 'Todo App',
    });
    expect(generatePosts(h.server)).toBe(1);
  });

  it('streams a follow-up directly with AI-generation events', async () => {
    const first = await h.client.generate({ prompt, mode: 'design' });
    const seen = collector();
    const result = await h.client.followUp(
      first.projectId!,
      { prompt: 'Make the header sticky and blue' },
      { onEvent: seen.onEvent },
    );
    expect(result).toMatchObject({ outcome: 'completed', projectId: first.projectId, appUrl: first.appUrl });
    const order = seen.types();
    expect(order.at(-1)).toBe('stream_end');
    expect(order.slice(0, -1).every((type) => type === 'file_created' || type === 'tool_progress')).toBe(true);
    expect(order).not.toContain('project_created');
    expect(order).not.toContain('container_progress');
    expect(order).not.toContain('container_ready');
    expect(generatePosts(h.server, `/api/v1/agent/generate/${first.projectId}`)).toBe(1);
  });

  it('ends with credits_exhausted when credits run out mid-stream', async () => {
    h.server.api.admin.setCredits(2);
    const seen = collector();
    const result = await h.client.generate({ prompt }, { onEvent: seen.onEvent });
    expect(result.outcome).toBe('credits_exhausted');
    expect(result.projectId).toBeDefined();
    expect(result.error).toMatchObject({ kind: 'insufficient_credits', message: creditsExhaustedMessage });
    expect(seen.types().filter((type) => type === 'file_created')).toHaveLength(2);
    expect(seen.types().at(-1)).toBe('credits_exhausted');
    expect(seen.types()).not.toContain('stream_end');
    expect((await h.client.getProject(result.projectId!)).project_status).toBe('credits_exhausted');
  });

  it('reports interrupted when the stream drops, and the outcome is recoverable by polling', async () => {
    h.server.api.admin.injectFault({ kind: 'drop_after', events: 3 });
    const seen = collector();
    const result = await h.client.generate({ prompt }, { onEvent: seen.onEvent });
    expect(result.outcome).toBe('interrupted');
    expect(seen.events).toHaveLength(3);
    expect(result.projectId).toBe((seen.events[0] as { project_id: string }).project_id);
    expect((await h.client.getProject(result.projectId!)).project_status).toBe('ready');
    expect(generatePosts(h.server)).toBe(1);
  });

  it('reports failed on an error event', async () => {
    h.server.api.admin.injectFault({ kind: 'error_event', afterEvents: 1, message: 'The agent gave up.' });
    const result = await h.client.generate({ prompt });
    expect(result).toMatchObject({ outcome: 'failed', error: { message: 'The agent gave up.' } });
    expect(result.projectId).toBeDefined();
    expect((await h.client.getProject(result.projectId!)).project_status).toBe('failed');
  });

  it('reports one malformed line as a protocol problem and carries on', async () => {
    h.server.api.admin.injectFault({ kind: 'malformed_line', afterEvents: 2 });
    const problems: AgentApiError[] = [];
    const result = await h.client.generate({ prompt }, { onProtocolError: (error) => problems.push(error) });
    expect(result.outcome).toBe('completed');
    expect(problems).toHaveLength(1);
    expect(problems[0]?.kind).toBe('protocol');
  });

  it('ignores heartbeats while the stream drips slowly', async () => {
    const dripping = await startHarness({
      heartbeatMs: 15,
      scenario: { script: () => [{ type: 'file', path: 'index.html' }] },
    });
    try {
      dripping.server.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 40 });
      const seen = collector();
      const result = await dripping.client.generate({ prompt }, { onEvent: seen.onEvent });
      expect(result.outcome).toBe('completed');
      expect(seen.types()).toEqual([
        'project_created',
        ...Array(5).fill('container_progress'),
        'container_ready',
        'file_created',
        'stream_end',
      ]);
    } finally {
      await dripping.server.close();
    }
  });

  it('reports aborted when the caller cancels mid-stream, without a second POST', async () => {
    const slow = await startHarness({ speed: 'realistic' });
    try {
      const controller = new AbortController();
      const seen = collector();
      const result = await slow.client.generate(
        { prompt },
        {
          signal: controller.signal,
          onEvent: (event) => {
            seen.onEvent(event);
            if (event.type === 'project_created') controller.abort();
          },
        },
      );
      expect(result.outcome).toBe('aborted');
      expect(result.projectId).toBeDefined();
      expect(seen.types()).toEqual(['project_created']);
      expect(generatePosts(slow.server)).toBe(1);
    } finally {
      await slow.server.close();
    }
  });
});

describe('contract: agent endpoint errors', () => {
  it('422 validation with errors.prompt, before any stream', async () => {
    await expectApiError(h.client.generate({ prompt: 'short' }), {
      kind: 'validation',
      status: 422,
      message: 'The prompt must be at least 10 characters.',
      fieldErrors: { prompt: ['The prompt must be at least 10 characters.'] },
    });
    await expectApiError(h.client.generate({ prompt: '' }), {
      kind: 'validation',
      status: 422,
      message: 'The prompt field is required.',
      fieldErrors: { prompt: ['The prompt field is required.'] },
    });
    await expectApiError(h.client.generate({ prompt, mode: 'turbo' as never }), {
      kind: 'validation',
      status: 422,
      fieldErrors: { mode: ['The selected mode is invalid.'] },
    });
    const { projectId } = await h.client.generate({ prompt });
    await expectApiError(h.client.followUp(projectId!, { prompt: 'tiny' }), {
      kind: 'validation',
      status: 422,
      fieldErrors: { prompt: [agentApiMessages.promptTooShort] },
    });
  });

  it('400 not enough credits', async () => {
    h.server.api.admin.setCredits(0);
    const expected = {
      kind: 'insufficient_credits',
      status: 400,
      message: 'Not enough credits. Please purchase more credits to continue.',
    } as const;
    await expectApiError(h.client.generate({ prompt }), expected);
    h.server.api.admin.setCredits(100);
    const { projectId } = await h.client.generate({ prompt });
    h.server.api.admin.setCredits(0);
    await expectApiError(h.client.followUp(projectId!, { prompt }), expected);
  });

  it('401 Unauthorized. and API token has expired.', async () => {
    const revoked = h.server.api.admin.createToken();
    h.server.api.admin.revokeToken(revoked);
    const expired = h.server.api.admin.createToken({ expiresInDays: 30 });
    h.server.api.admin.expireToken(expired);
    for (const client of [h.clientWith('not-a-token'), h.clientWith(revoked)]) {
      await expectApiError(client.generate({ prompt }), {
        kind: 'unauthorized',
        status: 401,
        message: 'Unauthorized.',
      });
      await expectApiError(client.getProject('proj_x'), {
        kind: 'unauthorized',
        status: 401,
        message: 'Unauthorized.',
      });
    }
    await expectApiError(h.clientWith(expired).generate({ prompt }), {
      kind: 'token_expired',
      status: 401,
      message: 'API token has expired.',
    });
    await expectApiError(h.clientWith(expired).getProject('proj_x'), {
      kind: 'token_expired',
      status: 401,
      message: 'API token has expired.',
    });
  });

  it('403 This team is currently suspended.', async () => {
    h.server.api.admin.suspendTeam();
    await expectApiError(h.client.generate({ prompt }), {
      kind: 'suspended',
      status: 403,
      message: 'This team is currently suspended.',
    });
    await expectApiError(h.client.getProject('proj_x'), {
      kind: 'suspended',
      status: 403,
      message: 'This team is currently suspended.',
    });
  });

  it('403 Project does not belong to the specified team. and 404 Project not found.', async () => {
    const otherTeam = h.server.api.admin.createToken({ teamId: h.server.api.admin.createTeam({ credits: 50 }) });
    const { projectId } = await h.clientWith(otherTeam).generate({ prompt });
    await expectApiError(h.client.followUp(projectId!, { prompt }), {
      kind: 'forbidden',
      status: 403,
      message: 'Project does not belong to the specified team.',
    });
    await expectApiError(h.client.getProject(projectId!), {
      kind: 'forbidden',
      status: 403,
      message: 'Project does not belong to the specified team.',
    });
    await expectApiError(h.client.followUp('proj_missing', { prompt }), {
      kind: 'not_found',
      status: 404,
      message: 'Project not found.',
    });
    await expectApiError(h.client.getProject('proj_missing'), {
      kind: 'not_found',
      status: 404,
      message: 'Project not found.',
    });
  });

  it('429 with retryAfterMs from Retry-After', async () => {
    const limited = await startHarness({ rateLimit: { limit: 2, windowMs: 60_000 }, now: () => 1_000_000 });
    try {
      await limited.client.generate({ prompt });
      await limited.client.getProject('proj_missing').catch(() => undefined);
      await expectApiError(limited.client.generate({ prompt }), {
        kind: 'rate_limited',
        status: 429,
        message: 'Too Many Attempts.',
        retryAfterMs: 60_000,
      });
      await expectApiError(limited.client.getProject('proj_missing'), {
        kind: 'rate_limited',
        status: 429,
        retryAfterMs: 60_000,
      });
      expect(generatePosts(limited.server)).toBe(2);
    } finally {
      await limited.server.close();
    }
    h.server.api.admin.injectFault({ kind: 'rate_limited', retryAfterSeconds: 7 });
    await expectApiError(h.client.generate({ prompt }), { kind: 'rate_limited', status: 429, retryAfterMs: 7000 });
  });

  it('upstream for a 500 (JSON or text/event-stream) and an HTML 502, each POSTed once', async () => {
    h.server.api.admin.injectFault({ kind: 'http_500' });
    await expectApiError(h.client.generate({ prompt }), { kind: 'upstream', status: 500 });
    h.server.api.admin.injectFault({ kind: 'http_500', asEventStream: true });
    await expectApiError(h.client.generate({ prompt }), { kind: 'upstream', status: 500 });
    h.server.api.admin.injectFault({ kind: 'non_json_502' });
    await expectApiError(h.client.generate({ prompt }), { kind: 'upstream', status: 502 });
    expect(generatePosts(h.server)).toBe(3);
    h.server.api.admin.injectFault({ kind: 'non_json_502', route: 'getProject' });
    await expectApiError(h.client.getProject('proj_x'), { kind: 'upstream', status: 502 });
    h.server.api.admin.injectFault({ kind: 'http_500', route: 'any' });
    await expectApiError(h.client.plans.list(), { kind: 'upstream', status: 500 });
  });
});
