/**
 * Ready-made `parameters.agent` values for the generation states: `prepare.*` only sets the mock up (a play
 * function then acts like a person would), `reach.*` also runs a generation through the store until it is
 * in the state, frozen there with a `pause_after` fault where the state would otherwise move on.
 */
import { AgentApiError, type AgentTransport, type GenerationState } from 'agent-embed/core';
import type { MockFault, MockScenario } from 'agent-embed/mock';
import {
  currentGeneration,
  followUpUntil,
  generateUntil,
  installCodehost,
  storyUser,
  waitForStore,
  type AgentStoryParameters,
  type StoryAgent,
} from './story-agent.js';

/** The message of the `error` event of failed stories. */
export const storyFailureMessage = 'The build failed: npm install exited with code 1.';

/** Where the `buy credits` link of stories goes. */
export const storyBillingUrl = 'https://agency.example.test/billing';

/** Container progress steps of the mock: percentage → events sent once it is shown (project_created first). */
const eventsAtPercentage = { 10: 2, 35: 3, 60: 4, 85: 5, 100: 6 } as const;

/** A container percentage the mock reports. */
export type StoryPercentage = keyof typeof eventsAtPercentage;

/**
 * Events sent once the mock's default script has created `files` files: 7 container events, 2 plan
 * steps, the files, and a `write_files` step after every fourth file.
 */
export function eventsAfterFiles(files: number): number {
  return 9 + files + Math.floor((files - 1) / 4);
}

function inject(agent: StoryAgent, fault: MockFault): Promise<void> {
  return agent.admin.injectFault(fault);
}

/**
 * A transport whose event-stream requests on the paths `lost` picks reach the server, which builds, while the page
 * sees the network fail before any answer.
 */
function losingAnswers(lost: (path: string) => boolean): (mock: AgentTransport) => AgentTransport {
  return (mock) => ({
    json: (request) => mock.json(request),
    async stream(request, handlers) {
      if (!lost(request.path)) return mock.stream(request, handlers);
      // The request goes out and the server starts the build; nothing of its answer comes back.
      const { signal: _pageSignal, ...sent } = request;
      void mock.stream(sent, { onEvent: () => undefined }).catch(() => undefined);
      throw new AgentApiError('network', 'The Agent API could not be reached.', {
        cause: new TypeError('Failed to fetch'),
      });
    },
  });
}

const status = (wanted: GenerationState['status']) => (generation: GenerationState) => generation.status === wanted;

/** Mock conditions only: the story's play function submits the prompt. */
export const prepare = {
  /** The stream opens and no event ever comes: the generation stays `submitting`. */
  holdBeforeFirstEvent: { setup: (agent) => inject(agent, { kind: 'pause_after', events: 0 }) },
  /** No credits left: the generate request is refused with 400. */
  noCredits: { setup: (agent) => agent.admin.setCredits(0) },
  /** Credits for three files: the stream ends with `credits_exhausted`. */
  creditsForThreeFiles: { setup: (agent) => agent.admin.setCredits(3) },
  /** The stream ends with an `error` event after ten events. */
  failing: { setup: (agent) => inject(agent, { kind: 'error_event', afterEvents: 10, message: storyFailureMessage }) },
  /** The generate request gets 429 with Retry-After: 30. */
  rateLimited: { setup: (agent) => inject(agent, { kind: 'rate_limited', retryAfterSeconds: 30, route: 'generate' }) },
  /** The token was revoked: 401 'Unauthorized.'. */
  unauthorized: { setup: (agent) => agent.admin.revokeToken(agent.token) },
  /** The token is past its expiration date: 401 'API token has expired.'. */
  expired: { setup: (agent) => agent.admin.expireToken(agent.token) },
  /** The team is suspended: 403 'This team is currently suspended.'. */
  suspended: { setup: (agent) => agent.admin.suspendTeam() },
  /**
   * A new project's request reaches the server, which builds it, but its answer is lost on the way back: the page sees
   * the network fail before any event, as when a connection drops just after sending.
   */
  answerLost: { transport: losingAnswers((path) => path === '/agent/generate') },
  /** A project built to the end, then a change to it whose answer is lost the same way (the server builds it). */
  changeLost: {
    transport: losingAnswers((path) => path.startsWith('/agent/generate/')),
    setup: async (agent) => void (await completedProject(agent)),
  },
  /**
   * The same, with the change building slowly at the server (about 6 s): the store's look 3 s after the loss finds it
   * building, and follows it to its end.
   */
  changeLostThenFound: {
    transport: losingAnswers((path) => path.startsWith('/agent/generate/')),
    setup: async (agent) => {
      await completedProject(agent);
      await inject(agent, { kind: 'slow_drip', intervalMs: 700, route: 'followUp' });
    },
  },
  /** The stream is cut after ten events and the project stays `generating`: recovery keeps polling. */
  cutAndStalled: { setup: (agent) => inject(agent, { kind: 'pause_after', events: 10, drop: true }) },
  /** The stream is cut after ten events; the generation completes at the mock, so recovery finds it ready. */
  cutThenCompleted: {
    setup: (agent) => inject(agent, { kind: 'drop_after', events: 10 }),
    store: { pollIntervalMs: 40, maxPollIntervalMs: 80 },
  },
} satisfies Record<string, AgentStoryParameters>;

/** A project that was generated to the end, for follow-up and preview stories. */
export async function completedProject(agent: StoryAgent): Promise<GenerationState> {
  return generateUntil(agent, status('completed'));
}

type Prepare = (agent: StoryAgent) => void | Promise<void>;

/** Parameters that prepare the mock, then generate until the generation has the status. */
function generateTo(
  wanted: GenerationState['status'],
  before?: Prepare,
  extra: AgentStoryParameters = {},
): AgentStoryParameters {
  return {
    ...extra,
    setup: async (agent) => {
      await before?.(agent);
      await generateUntil(agent, status(wanted));
    },
  };
}

/** Runs a generation through the store until it is in the state. */
export const reach = {
  submitting: generateTo('submitting', prepare.holdBeforeFirstEvent.setup),
  provisioning: (percentage: StoryPercentage): AgentStoryParameters => ({
    setup: async (agent) => {
      await inject(agent, { kind: 'pause_after', events: eventsAtPercentage[percentage] });
      await generateUntil(agent, (generation) => generation.container.percentage === percentage);
    },
  }),
  /** Container ready, AI generation starting, no file yet. */
  containerReady: {
    setup: async (agent) => {
      await inject(agent, { kind: 'pause_after', events: 7 });
      await generateUntil(agent, (generation) => generation.container.ready);
    },
  },
  /** Generating, with `files` files so far (out of `total`, default at least 13). */
  generating: (files: number, total = Math.max(13, files + 10)): AgentStoryParameters => ({
    mock: { scenario: { files: total }, credits: total + 100 },
    setup: async (agent) => {
      await inject(agent, { kind: 'pause_after', events: eventsAfterFiles(files) });
      await generateUntil(agent, (generation) => generation.files.length === files);
    },
  }),
  completed: generateTo('completed'),
  /** A completed build of 120 agent steps (more than the log shows). */
  manySteps: generateTo('completed', undefined, {
    mock: {
      scenario: {
        steps: Array.from({ length: 120 }, (_, index) => ({
          type: 'tool' as const,
          tool: index % 2 === 0 ? 'write_files' : 'lint',
          message: `Step ${index + 1} of 120`,
          status: 'completed',
        })),
      },
    },
  }),
  /** A follow-up on a completed project, frozen after it modified `src/App.tsx`. */
  followUpRunning: {
    setup: async (agent) => {
      const project = await completedProject(agent);
      await inject(agent, { kind: 'pause_after', events: 3, route: 'followUp' });
      await followUpUntil(agent, project.projectId as string, (generation) => generation.files.length === 1);
    },
  },
  /** A follow-up that completed. */
  followUpCompleted: {
    setup: async (agent) => {
      const project = await completedProject(agent);
      await followUpUntil(agent, project.projectId as string, status('completed'));
    },
  },
  /** A follow-up on a completed project that ended with an `error` event after one event. */
  followUpFailed: {
    setup: async (agent) => {
      const project = await completedProject(agent);
      await inject(agent, { kind: 'error_event', afterEvents: 1, message: storyFailureMessage, route: 'followUp' });
      await followUpUntil(agent, project.projectId as string, status('failed'));
    },
  },
  creditsExhaustedBefore: generateTo('credits_exhausted', prepare.noCredits.setup),
  creditsExhaustedDuring: generateTo('credits_exhausted', prepare.creditsForThreeFiles.setup),
  failed: generateTo('failed', prepare.failing.setup),
  /** The stream was cut and the project is still generating: the store keeps polling. */
  recovering: generateTo('recovering', prepare.cutAndStalled.setup),
  /** The stream was cut; polling found the project ready. */
  recovered: generateTo('completed', prepare.cutThenCompleted.setup, { store: prepare.cutThenCompleted.store }),
  /** The stream was cut before the project was created: the outcome cannot be known. */
  interrupted: generateTo('interrupted', (agent) => inject(agent, { kind: 'drop_after', events: 0 })),
  /** Cancelled while provisioning. */
  cancelled: {
    setup: async (agent) => {
      await inject(agent, { kind: 'pause_after', events: 3 });
      await generateUntil(agent, status('provisioning'));
      agent.store.getState().stopWatching();
      await waitForStore(
        agent.store,
        (state) => state.currentKey !== undefined && state.generations[state.currentKey]?.status === 'aborted',
      );
    },
  },
  /** Stopped before the stream named its project: nothing here can follow the build. */
  stoppedBeforeNamed: {
    setup: async (agent) => {
      await inject(agent, { kind: 'pause_after', events: 0 });
      await generateUntil(agent, status('submitting'));
      agent.store.getState().stopWatching();
      await waitForStore(
        agent.store,
        (state) => state.currentKey !== undefined && state.generations[state.currentKey]?.status === 'aborted',
      );
    },
  },
  /** A project opened from an old link or a saved page that its status answers is not there (404). */
  gone: { setup: async (agent) => void (await agent.store.getState().openProject('proj_removed_4821')) },
  rateLimited: generateTo('failed', prepare.rateLimited.setup),
  unauthorized: generateTo('failed', prepare.unauthorized.setup),
  expired: generateTo('failed', prepare.expired.setup),
  suspended: generateTo('failed', prepare.suspended.setup),
} satisfies Record<string, AgentStoryParameters | ((...args: never[]) => AgentStoryParameters)>;

/** A connected code host (with `scenario` repositories) and a completed project to link and push, then `then`. */
export function codehostConnected(
  scenario: MockScenario = {},
  then?: (agent: StoryAgent) => Promise<unknown>,
): AgentStoryParameters {
  return {
    mock: { scenario },
    setup: async (agent) => {
      await installCodehost(agent);
      await reach.completed.setup?.(agent);
      await then?.(agent);
    },
  };
}

/** The story's project and the end user's repository at `index` of the first page. */
export async function projectAndRepository(agent: StoryAgent, index: number) {
  const projectId = currentGeneration(agent.store.getState())?.projectId;
  const page = await agent.client.codehost.listRepositories(storyUser.id, { page: 1, per_page: 10 });
  const [owner = '', name = ''] = page.items[index]?.full_name.split('/') ?? [];
  if (projectId === undefined || name === '') throw new Error('The story has no project or no repository.');
  return { projectId, repository: { owner, name } };
}

/** Connected, then the project linked to the repository at `index` through the store, as the Link button does. */
export function codehostLinked(
  index: number,
  then?: (agent: StoryAgent, projectId: string) => Promise<unknown>,
): AgentStoryParameters {
  return codehostConnected({}, async (agent) => {
    const { projectId, repository } = await projectAndRepository(agent, index);
    await agent.store.getState().linkRepository(projectId, storyUser.id, repository);
    await then?.(agent, projectId);
  });
}

/** Connected, nothing linked, then the code saved to the end user's new repository `name`, as Create and save does. */
export function codehostPushedToNew(name: string): AgentStoryParameters {
  return codehostConnected({}, async (agent) => {
    const { projectId } = await projectAndRepository(agent, 0);
    await agent.store.getState().pushRepository(projectId, storyUser.id, { owner: 'ada-lovelace', name });
  });
}
