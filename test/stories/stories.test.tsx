/**
 * Every story of every stories/*.stories.tsx file, run as a test: loaders (a fresh mock and store),
 * render, play function (its assertions), then the a11y addon's axe check, whose violations fail the test.
 */
/// <reference types="vite/client" />
import * as a11yAnnotations from '@storybook/addon-a11y/preview';
import { composeStories, setProjectAnnotations, type composeStory } from '@storybook/react-vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import previewAnnotations from '../../.storybook/preview.js';
import { disposeStoryAgents } from '../../stories/story-agent.js';

type StoryFile = Parameters<typeof composeStories>[0];
type ComposedStory = ReturnType<typeof composeStory>;

const project = setProjectAnnotations([a11yAnnotations, previewAnnotations]);
const files = import.meta.glob<StoryFile>('../../stories/*.stories.tsx', { eager: true });

beforeAll(project.beforeAll);
afterAll(disposeStoryAgents);

it('finds the story files', () => {
  expect(Object.keys(files).length).toBeGreaterThanOrEqual(4);
});

for (const [path, file] of Object.entries(files)) {
  const stories = Object.entries(composeStories(file)) as Array<[string, ComposedStory]>;
  describe(path.replace('../../stories/', ''), () => {
    it('has stories', () => {
      expect(stories.length).toBeGreaterThan(0);
    });
    for (const [name, Story] of stories) {
      // A story that waits on the store's own clock (a look 3 s after a loss) says how long it may take.
      const timeout = (Story.parameters as { testTimeoutMs?: number }).testTimeoutMs;
      it(
        name,
        async () => {
          // A story without a play function would only prove that it renders.
          expect(Story.play, `${name} has no play function`).toBeTypeOf('function');
          await Story.run();
          const a11y = Story.parameters.a11y as { test?: string; disable?: boolean } | undefined;
          if (a11y?.test !== 'off' && a11y?.disable !== true) {
            // Axe really ran on the rendered story: a missing report would hide violations.
            expect(Story.reporting.reports.map((report) => report.type)).toContain('a11y');
          }
          const failed = Story.reporting.reports.filter((report) => report.status !== 'passed');
          expect(failed.map((report) => ({ type: report.type, result: summarize(report.result) }))).toEqual([]);
        },
        timeout,
      );
    }
  });
}

function summarize(result: unknown): unknown {
  if (typeof result !== 'object' || result === null || !('violations' in result)) return result;
  const violations = (result as { violations: Array<{ id: string; help: string; nodes: Array<{ html: string }> }> })
    .violations;
  return violations.map(
    (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.html).join(' | ')})`,
  );
}
