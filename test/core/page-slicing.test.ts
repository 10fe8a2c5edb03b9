/** In a page (jsdom here: a document and animation frames), every stream shares the page's one slicing. */
import { expect, it, vi } from 'vitest';
import { defaultStreamSlicing } from 'agent-embed/core';

it('the page has one slicing, so its stages share one slice per task and one frame wait', () => {
  const slicing = defaultStreamSlicing();
  expect(slicing).toBeDefined();
  expect(defaultStreamSlicing()).toBe(slicing);
});

it('waits for a frame after 16 ms of continuous work, but not when the work waited for the network', async () => {
  const slicing = defaultStreamSlicing()!;
  const frames: FrameRequestCallback[] = [];
  const original = window.requestAnimationFrame;
  const clock = vi.spyOn(performance, 'now');
  window.requestAnimationFrame = (callback) => frames.push(callback);
  try {
    // Long after the last frame waited for: a slice that ran out waits for one.
    clock.mockReturnValue(1_000_000);
    let resumed = false;
    const paused = slicing.yieldTask().then(() => (resumed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(frames).toHaveLength(1);
    expect(resumed).toBe(false);
    frames.shift()!(0);
    await paused;
    // A chunk that arrived after the page sat waiting for the network: a new task, no frame.
    clock.mockReturnValue(2_000_000);
    await slicing.yieldTask(true);
    expect(frames).toHaveLength(0);
  } finally {
    window.requestAnimationFrame = original;
    clock.mockRestore();
  }
});
