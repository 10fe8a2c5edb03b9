/**
 * The generation machine, exhaustively: every action case in every status leads where the one table says,
 * and an action the table ignores changes nothing at all. The table printed in docs/architecture.md is the
 * table the code runs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AgentApiError,
  applyGenerationAction,
  createGenerationDraft,
  generationActionCase,
  generationActionCases,
  generationCounts,
  generationOutcome,
  generationStatuses,
  generationTransitions,
  isDeployable,
  isGenerationRunning,
  isGenerationSettled,
  isPreviewable,
  reduceGenerationEvent,
  settleTurnOutcome,
  type GenerationAction,
  type GenerationActionCase,
  type GenerationDraft,
  type GenerationStatus,
} from 'agent-embed/core';

const at = 1_000;

/** One action of each case (a drop before the project is known needs a draft without a project id). */
const sampleActions: Record<GenerationActionCase, GenerationAction> = {
  started: { type: 'started' },
  project_created: {
    type: 'event',
    event: { type: 'project_created', project_id: 'p1', app_url: 'https://p1.example.test' },
    at,
  },
  container_progress: { type: 'event', event: { type: 'container_progress', message: 'Pulling', percentage: 40 }, at },
  container_ready: { type: 'event', event: { type: 'container_ready', message: 'Ready' }, at },
  file_created: { type: 'event', event: { type: 'file_created', path: 'src/App.tsx' }, at },
  tool_progress: { type: 'event', event: { type: 'tool_progress', tool: 'write', status: 'running' }, at },
  stream_end: {
    type: 'event',
    event: { type: 'stream_end', project_id: 'p1', app_url: 'https://p1.example.test' },
    at,
  },
  credits_exhausted: { type: 'event', event: { type: 'credits_exhausted', message: 'Out of credits.' }, at },
  error: { type: 'event', event: { type: 'error', message: 'It broke.' }, at },
  unknown: { type: 'event', event: { type: 'unknown', originalType: 'deploy_started', data: {} }, at },
  refused: { type: 'refused', error: new AgentApiError('validation', 'The prompt is too short.'), at },
  refused_credits: {
    type: 'refused',
    error: new AgentApiError('insufficient_credits', 'Not enough credits.', { code: 'insufficient_credits' }),
    at,
  },
  dropped: { type: 'dropped', error: new AgentApiError('network', 'The stream closed.'), at },
  dropped_unnamed: { type: 'dropped', error: new AgentApiError('network', 'The stream closed.'), at },
  stop_watching: { type: 'stop_watching', error: new AgentApiError('aborted', 'The request was cancelled.'), at },
  poll_ready: { type: 'poll_result', project_status: 'ready', app_url: 'https://p1-new.example.test', at },
  poll_failed: { type: 'poll_result', project_status: 'failed', at },
  poll_credits_exhausted: { type: 'poll_result', project_status: 'credits_exhausted', at },
  poll_building: { type: 'poll_result', project_status: 'generating', at },
  poll_building_after_loss: { type: 'poll_result', project_status: 'provisioning', at },
  recovery_failed: { type: 'recovery_failed', error: new AgentApiError('not_found', 'Project not found.'), at },
  retry: { type: 'retry' },
  adopted_unknown: { type: 'adopted', as: 'unknown', at },
  adopted_building: { type: 'adopted', as: 'building', at },
  adopted_ready: { type: 'adopted', as: 'ready', app_url: 'https://p1.example.test', at },
  adopted_failed: { type: 'adopted', as: 'failed', at },
  adopted_credits_exhausted: { type: 'adopted', as: 'credits_exhausted', at },
  adopted_stopped: { type: 'adopted', as: 'stopped', at },
  adopted_interrupted: { type: 'adopted', as: 'interrupted', at },
};

/**
 * A draft in `status`, as the machine leaves one there (settled statuses carry their end time); `lost`: refused by the
 * network before any answer, as a POST that may have reached the server is.
 */
function draftIn(status: GenerationStatus, named: boolean, lost = false): GenerationDraft {
  const draft = createGenerationDraft({ kind: 'generate', projectId: named ? 'p1' : undefined, toolLimit: 10 });
  draft.status = status;
  if (isGenerationSettled(status)) draft.endedAt = 1;
  if (status === 'recovering') draft.error = new AgentApiError('network', 'The first drop.');
  if (lost) {
    draft.refused = true;
    draft.error = new AgentApiError('network', 'Failed to fetch.');
  }
  return draft;
}

/** Everything an action may touch, to tell that an ignored one touched nothing. */
function facts(draft: GenerationDraft) {
  return {
    status: draft.status,
    projectId: draft.projectId,
    appUrl: draft.appUrl,
    error: draft.error,
    refused: draft.refused,
    endedAt: draft.endedAt,
    eventCount: draft.eventCount,
    fileCount: draft.fileCount,
    modifiedCount: draft.modifiedCount,
    toolCount: draft.toolCount,
    unknownEventCount: draft.unknownEventCount,
    container: { ...draft.container },
  };
}

describe('the transition table', () => {
  it('has a sample for every action case and a row for every status', () => {
    expect(Object.keys(sampleActions).sort()).toEqual([...generationActionCases].sort());
    expect(generationStatuses).toHaveLength(10);
    expect(generationActionCases).toHaveLength(29);
  });

  describe.each(generationStatuses)('in %s', (status) => {
    it.each(generationActionCases)('%s goes where the table says, or changes nothing', (name) => {
      const draft = draftIn(status, name !== 'dropped_unnamed', name === 'poll_building_after_loss');
      const action = sampleActions[name];
      expect(generationActionCase(draft, action)).toBe(name);
      const before = facts(draft);
      const applied = applyGenerationAction(draft, action);
      const next = generationTransitions[name][status];
      if (next === undefined) {
        expect(applied).toBe(false);
        expect(facts(draft)).toEqual(before);
        return;
      }
      expect(applied).toBe(true);
      expect(draft.status).toBe(next);
      // What every status promises, whatever led there.
      if (isGenerationSettled(next)) expect(draft.endedAt).toBeDefined();
      if (isGenerationRunning(next)) expect(draft.endedAt).toBeUndefined();
      if (next === 'completed') expect(draft.error).toBeUndefined();
      if (next === 'failed' || next === 'credits_exhausted' || next === 'interrupted')
        expect(draft.error).toBeDefined();
      expect(draft.refused).toBe(name === 'refused' || name === 'refused_credits');
      // A lost change found building is a dropped stream's recovery: why its answer was lost stays the reason.
      if (name === 'poll_building_after_loss') expect(draft.error?.message).toBe('Failed to fetch.');
    });
  });

  it('is the table docs/architecture.md prints', () => {
    const docs = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
    const rows = generationActionCases.map((name) => {
      const byTarget = new Map<GenerationStatus, GenerationStatus[]>();
      for (const from of generationStatuses) {
        const to = generationTransitions[name][from];
        if (to !== undefined) byTarget.set(to, [...(byTarget.get(to) ?? []), from]);
      }
      const cells = [...byTarget].map(([to, from]) => `${from.join(', ')} → ${to}`);
      return `| \`${name}\` | ${cells.length === 0 ? 'ignored everywhere' : cells.join('; ')} |`;
    });
    expect(docs).toContain(
      ['| action case | from → to (every other status ignores it) |', '|---|---|', ...rows].join('\n'),
    );
  });
});

describe('the machine in sequence', () => {
  it('a build stopped mid-way that a poll finds ready is completed, deployable and previewable', () => {
    const draft = createGenerationDraft({ kind: 'generate', toolLimit: 10 });
    applyGenerationAction(draft, { type: 'started' });
    for (const name of ['project_created', 'container_ready', 'file_created'] as const)
      applyGenerationAction(draft, sampleActions[name]);
    applyGenerationAction(draft, sampleActions.stop_watching);
    expect(draft.status).toBe('aborted');
    expect(isDeployable(draft)).toBe(false);
    // A poll before the end changes nothing; the poll that sees it ready settles it.
    expect(applyGenerationAction(draft, sampleActions.poll_building)).toBe(false);
    expect(applyGenerationAction(draft, sampleActions.poll_ready)).toBe(true);
    expect(generationOutcome(draft)).toBe('completed');
    expect(isDeployable(draft)).toBe(true);
    expect(isPreviewable(draft)).toBe(true);
    expect(draft.appUrl).toBe('https://p1-new.example.test');
    expect(draft.error).toBeUndefined();
  });

  it('a live stream is fresher than any poll: a poll never ends a generation that is streaming', () => {
    const draft = createGenerationDraft({ kind: 'followUp', projectId: 'p1', toolLimit: 10 });
    applyGenerationAction(draft, { type: 'started' });
    applyGenerationAction(draft, sampleActions.file_created);
    expect(applyGenerationAction(draft, sampleActions.poll_ready)).toBe(false);
    expect(draft.status).toBe('generating');
  });

  it('counts distinct files and distinct tool steps, once, whatever the number of events', () => {
    const draft = createGenerationDraft({ kind: 'generate', toolLimit: 10 });
    applyGenerationAction(draft, { type: 'started' });
    const events = [
      { type: 'file_created', path: 'a.ts' },
      { type: 'file_created', path: 'b.ts' },
      { type: 'file_created', path: 'a.ts', action: 'modified' },
      { type: 'tool_progress', tool: 'write', status: 'running' },
      { type: 'tool_progress', tool: 'write', status: 'running', message: 'still writing' },
      { type: 'tool_progress', tool: 'write', status: 'completed' },
      { type: 'tool_progress', tool: 'lint', status: 'completed' },
    ] as const;
    for (const event of events) reduceGenerationEvent(draft, event, at);
    expect(generationCounts(draft)).toEqual({ filesCreated: 1, filesModified: 1, steps: 2 });
  });

  it('keeps the file list within its memory, whatever the upstream sends, and still counts every file', () => {
    // Each kept path costs its length and 64: 100-character paths, 164 each, six fit in 1,000.
    const draft = createGenerationDraft({ kind: 'generate', toolLimit: 10, fileMemoryChars: 1_000 });
    applyGenerationAction(draft, { type: 'started' });
    const path = (index: number) => `src/${String(index).padStart(96, '0')}`;
    for (let index = 0; index < 20; index++)
      reduceGenerationEvent(draft, { type: 'file_created', path: path(index) }, at);
    expect(draft.files?.size).toBe(6);
    expect(draft.fileMemory).toBe(1_000 - 6 * 164);
    // A kept path sent again is a modification; one the list could not keep counts as a new file again.
    reduceGenerationEvent(draft, { type: 'file_created', path: path(0), action: 'modified' }, at);
    reduceGenerationEvent(draft, { type: 'file_created', path: path(19) }, at);
    expect(draft.files?.size).toBe(6);
    expect(generationCounts(draft)).toEqual({ filesCreated: 20, filesModified: 1, steps: 0 });
    // A real build's paths fit the default memory (8 Mi characters) many times over.
    const roomy = createGenerationDraft({ kind: 'generate', toolLimit: 10 });
    applyGenerationAction(roomy, { type: 'started' });
    for (let index = 0; index < 13_334; index++)
      reduceGenerationEvent(
        roomy,
        { type: 'file_created', path: `src/components/generated/component-${index}.tsx` },
        at,
      );
    expect(roomy.files?.size).toBe(13_334);
  });

  it('a recorded turn lost on the way is settled by a terminal status, counts kept; other turns stay', () => {
    const lost = { status: 'interrupted', files_created: 3, files_modified: 1, steps: 2 } as const;
    expect(settleTurnOutcome(lost, 'ready', at)).toEqual({ ...lost, status: 'completed' });
    expect(settleTurnOutcome(lost, 'failed', at)).toMatchObject({ status: 'failed', files_created: 3 });
    expect(settleTurnOutcome(lost, 'generating', at)).toBeUndefined();
    expect(settleTurnOutcome({ ...lost, status: 'completed' }, 'failed', at)).toBeUndefined();
  });
});
