/**
 * Every generation state with all the parts on one screen, each story asserting that the parts tell one
 * story: one phase, one badge text, a full bar only when the build has ended, the live app once ready (and,
 * for a follow-up, the app built before, which stays on stage while the change builds and after it failed).
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { AppPreview, Conversation, LiveBuildLog, ProjectList, ProjectStatus, defaultLabels } from 'agent-embed';
import { expect, waitFor } from 'storybook/test';
import { agentParameters, type AgentStoryParameters } from './story-agent.js';
import { reach } from './story-states.js';

function AllParts() {
  return (
    <>
      <Conversation />
      <LiveBuildLog />
      <ProjectStatus />
      <AppPreview />
      <ProjectList />
    </>
  );
}

const meta = {
  title: 'Generation/All parts agree',
  component: AllParts,
} satisfies Meta<typeof AllParts>;

export default meta;
type Story = StoryObj<typeof meta>;

const ended = new Set(['ready', 'failed', 'credits_exhausted', 'interrupted']);

/** Asserts that every part shows the same phase, and what follows from it. */
async function expectAgreement(canvasElement: HTMLElement, appFromBefore = false): Promise<void> {
  const log = canvasElement.querySelector<HTMLElement>('.ae-build-log')!;
  // The status poll may still be on its way: wait until the parts that read it have settled on one phase. The
  // project list's row is one of those parts: the list is loaded first.
  await waitFor(() => expect(canvasElement.querySelector('.ae-project-list')).toHaveAttribute('data-state', 'success'));
  await waitFor(() => {
    const phases = [...canvasElement.querySelectorAll('[data-phase]')].map((element) =>
      element.getAttribute('data-phase'),
    );
    expect(new Set(phases).size, `phases: ${phases.join(', ')}`).toBe(1);
  });
  const phase = log.getAttribute('data-phase') as keyof typeof defaultLabels.phase;
  const badges = [...canvasElement.querySelectorAll('.ae-badge')].map((badge) => badge.textContent);
  // A failed change leaves the app built before: every badge names the change, not the project, as failed.
  const badgeText =
    appFromBefore && phase === 'failed' ? defaultLabels.agentBuilder.changeFailed : defaultLabels.phase[phase];
  for (const badge of badges) await expect(badge).toBe(badgeText);
  const bar = canvasElement.querySelector('[role="progressbar"]');
  if (bar !== null) {
    const value = bar.getAttribute('aria-valuenow');
    if (ended.has(phase)) await expect(value).toBe('100');
    else await expect(value).not.toBe('100');
  }
  const frame = canvasElement.querySelector('iframe');
  if (phase === 'ready' || appFromBefore) await expect(frame).not.toBeNull();
  else await expect(frame).toBeNull();
  // The app is offered exactly where it is on the stage (the one from before, during a change and after it failed):
  // the status links it then, and nothing offers an app that is not there.
  const appLinks = [...canvasElement.querySelectorAll('a')].filter(
    (link) => link.textContent === 'Open the app' && link.closest('.ae-preview') === null,
  );
  if (phase !== 'ready' && !appFromBefore) await expect(appLinks).toHaveLength(0);
  else await expect(canvasElement.querySelector('.ae-project-status a')).not.toBeNull();
  // While the build runs past its container, nothing says the container is still being set up.
  if (phase === 'generating')
    await expect(canvasElement.textContent).not.toMatch(/Setting up|Preparing a place for your app/);
}

function agreeing(parameters: AgentStoryParameters, phase: string, appFromBefore = false): Story {
  return {
    parameters: agentParameters(parameters),
    play: async ({ canvasElement }) => {
      await waitFor(() => expect(canvasElement.querySelector('.ae-build-log')).toHaveAttribute('data-phase', phase));
      await expectAgreement(canvasElement, appFromBefore);
    },
  };
}

export const Idle: Story = { play: async ({ canvasElement }) => expectAgreement(canvasElement) };
export const Submitting = agreeing(reach.submitting, 'submitting');
export const Provisioning = agreeing(reach.provisioning(35), 'provisioning');
export const ContainerReady = agreeing(reach.containerReady, 'generating');
export const Generating = agreeing(reach.generating(5), 'generating');
export const Completed = agreeing(reach.completed, 'ready');
export const FollowUpRunning = agreeing(reach.followUpRunning, 'generating', true);
export const FollowUpFailed = agreeing(reach.followUpFailed, 'failed', true);
export const FollowUpCompleted = agreeing(reach.followUpCompleted, 'ready');
export const CreditsExhaustedDuring = agreeing(reach.creditsExhaustedDuring, 'credits_exhausted');
export const Failed = agreeing(reach.failed, 'failed');
export const Recovering = agreeing(reach.recovering, 'recovering');
export const Recovered = agreeing(reach.recovered, 'ready');
export const Interrupted = agreeing(reach.interrupted, 'interrupted');
export const Stopped = agreeing(reach.cancelled, 'stopped');
export const StoppedBeforeTheProjectWasNamed = agreeing(reach.stoppedBeforeNamed, 'stopped');
export const Gone = agreeing(reach.gone, 'gone');
export const RateLimited = agreeing(reach.rateLimited, 'idle');
export const TokenExpired = agreeing(reach.expired, 'idle');
