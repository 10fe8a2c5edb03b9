/**
 * The stories' mocks run off the page in a browser: one worker for the page hosts each story's mock and proxy at an
 * origin of its own, a story's admin and builds reach it through messages, and a story that ends stops its mock.
 */
import type { StoryContext } from '@storybook/react-vite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentLoader, disposeStoryAgents, storyPrompt, type StoryAgent } from '../../stories/story-agent.js';

afterEach(() => {
  disposeStoryAgents();
  vi.unstubAllGlobals();
});

async function loadAgent(agent: object): Promise<StoryAgent> {
  const loaded = (await agentLoader({ parameters: { agent } } as unknown as StoryContext)) as { agent: StoryAgent };
  return loaded.agent;
}

describe('the stories’ mock worker', () => {
  it('hosts every story’s mock in one worker, each at its own origin with its own state', async () => {
    let made = 0;
    vi.stubGlobal(
      'Worker',
      class extends Worker {
        constructor(...args: ConstructorParameters<typeof Worker>) {
          super(...args);
          made++;
        }
      },
    );
    const first = await loadAgent({ mock: { credits: 3, scenario: { files: 2 } } });
    const second = await loadAgent({ setup: (agent: StoryAgent) => agent.admin.setCredits(0) });
    // One worker for the page (none, or one per story, would fail), started by the first story.
    expect(made).toBe(1);
    expect(new URL(first.baseUrl).origin).not.toBe(new URL(second.baseUrl).origin);

    const built = await first.client.generate({ prompt: storyPrompt });
    expect(built.outcome).toBe('completed');
    expect(await first.admin.credits()).toBe(1);
    expect((await first.admin.projects()).map((project) => project.id)).toEqual([built.projectId]);
    // The second story's mock saw none of it, and keeps its own setup.
    expect(await second.admin.projects()).toEqual([]);
    expect(await second.admin.credits()).toBe(0);
    await expect(second.client.generate({ prompt: storyPrompt })).rejects.toMatchObject({
      code: 'insufficient_credits',
    });
  });

  it('stops a story’s mock when its story ends', async () => {
    const agent = await loadAgent({});
    expect(await agent.admin.credits()).toBe(200);
    disposeStoryAgents();
    await expect(agent.admin.credits()).rejects.toMatchObject({
      name: 'MockAdminError',
      status: 404,
      message: 'No story mock here: it was stopped, or never started.',
    });
  });

  it('refuses mock options that cannot cross to the worker, with the reason', async () => {
    await expect(loadAgent({ mock: { scenario: { script: () => [] } } })).rejects.toThrow(
      "The story's mock option script is a function",
    );
  });
});
