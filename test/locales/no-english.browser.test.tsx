/**
 * No English left: every story, rendered in Chromium in each built-in locale (the Storybook toolbar's locale
 * global), shows no text and no accessible name that is one of the English default strings. Strings the
 * language shares with English (a brand, "Chat") and a story's own label overrides are not leaks. Stories
 * render in the state their setup reaches; play functions (which speak English) do not run.
 */
/// <reference types="vite/client" />
import { composeStories, setProjectAnnotations, type composeStory } from '@storybook/react-vite';
import { cleanup, render } from '@testing-library/react';
import { defaultLabels, pickLocale, type AgentLabelsOverride } from 'agent-embed';
import { afterEach, describe, expect, it } from 'vitest';
import previewAnnotations from '../../.storybook/preview.js';
import { disposeStoryAgents } from '../../stories/story-agent.js';
import { storyLocales } from '../../stories/story-locale.js';

type StoryFile = Parameters<typeof composeStories>[0];
type ComposedStory = ReturnType<typeof composeStory>;

setProjectAnnotations([previewAnnotations]);
const files = import.meta.glob<StoryFile>('../../stories/*.stories.tsx', { eager: true });

afterEach(() => {
  cleanup();
  disposeStoryAgents();
});

/** Every string of a label tree (functions are the same code in every pack: their words are checked by the packs' test). */
function strings(tree: object | undefined): string[] {
  if (tree === undefined) return [];
  return Object.values(tree).flatMap((value: unknown) =>
    typeof value === 'string' ? [value] : typeof value === 'object' && value !== null ? strings(value) : [],
  );
}

const englishStrings = new Set(strings(defaultLabels).filter((text) => text.trim() !== ''));

/**
 * The English strings that would be a leak in this locale and story: not those the pack says the same way, nor
 * the story's own content (its args, its label overrides). `undefined` when the story fixes an English locale.
 */
function leakable(tag: string, story: ComposedStory): Set<string> | undefined {
  const provider = (story.parameters.agent as { provider?: { labels?: AgentLabelsOverride; locale?: string } })
    ?.provider;
  const pack = pickLocale(storyLocales, provider?.locale ?? tag);
  if (pack === undefined) return undefined;
  const allowed = new Set([...strings(pack), ...strings(provider?.labels), ...strings(story.args)]);
  return new Set([...englishStrings].filter((text) => !allowed.has(text)));
}

const namingAttributes = ['aria-label', 'aria-valuetext', 'aria-description', 'title', 'placeholder', 'alt'];

/** What a person sees or hears on the page: visible text, and the names and descriptions given by attributes. */
function shownTexts(root: HTMLElement): string[] {
  const texts: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const element = node instanceof Element ? node : node.parentElement;
    if (element === null || element.closest('[aria-hidden="true"]') !== null || !element.checkVisibility()) continue;
    if (node instanceof Text) texts.push(node.data.trim());
    else for (const name of namingAttributes) texts.push((node as Element).getAttribute(name)?.trim() ?? '');
  }
  return texts.filter((text) => text !== '');
}

/** Resolves once the page has not changed for a few frames in a row (the mock answers at once, in a few turns). */
function settled(root: HTMLElement): Promise<void> {
  return new Promise((resolve) => {
    let quietFrames = 0;
    let frames = 0;
    const observer = new MutationObserver(() => (quietFrames = 0));
    observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
    const tick = () => {
      quietFrames++;
      frames++;
      if (quietFrames >= 5 || frames >= 300) {
        observer.disconnect();
        resolve();
      } else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

it('has stories and packs to check', () => {
  expect(Object.keys(files).length).toBeGreaterThanOrEqual(4);
  expect(Object.keys(storyLocales)).toEqual(['de', 'fr', 'es', 'pt-BR', 'ja', 'ar']);
});

describe.each(Object.keys(storyLocales))('in %s', (tag) => {
  for (const [path, file] of Object.entries(files)) {
    const stories = Object.entries(
      composeStories(file, { initialGlobals: { locale: tag, colorScheme: 'light', appearance: 'default' } }),
    ) as Array<[string, ComposedStory]>;
    describe(path.replace('../../stories/', ''), () => {
      for (const [name, Story] of stories) {
        it(`${name} shows no English default string`, async () => {
          await Story.load();
          const { container } = render(<Story />);
          await settled(document.body);
          // The story really rendered the embed, in this locale.
          expect(container.querySelector(`[data-agent-embed][lang]`)).not.toBeNull();
          const english = leakable(tag, Story);
          if (english === undefined) return; // The story is about English (a date format): nothing to compare.
          expect(shownTexts(document.body).filter((text) => english.has(text))).toEqual([]);
        });
      }
    });
  }
});
