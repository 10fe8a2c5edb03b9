/** In a page (jsdom here: a document and animation frames), every stream shares the page's one slicing. */
import { expect, it } from 'vitest';
import { defaultStreamSlicing } from 'agent-embed/core';

it('the page has one slicing, so its stages share one slice per task and one frame wait', () => {
  const slicing = defaultStreamSlicing();
  expect(slicing).toBeDefined();
  expect(defaultStreamSlicing()).toBe(slicing);
});
