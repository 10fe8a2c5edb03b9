/**
 * Stages that share a slicing share one slice per task: in a page the in-browser mock's producer, the proxy's relay
 * and the client can run in one task through the streams' promise callbacks, and a slice each would let them hold it
 * for three budgets. The clock and the yield are injected; nothing is timed.
 */
import { expect, it } from 'vitest';
import { createSlicer, type StreamSlicing } from 'agent-embed/core';

function manualSlicing() {
  let clock = 0;
  const slicing: StreamSlicing = { now: () => clock, yieldTask: async () => {} };
  return {
    slicing,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

/** Asks a slicer up to 32 times (the most events between two reads of the clock) whether its slice is over. */
function dueAfterACheck(slicer: ReturnType<typeof createSlicer>): boolean {
  for (let ask = 0; ask < 32; ask++) if (slicer.due()) return true;
  return false;
}

it('a stage resuming in a new task starts the slice every stage sharing its slicing works in', async () => {
  const { slicing, advance } = manualSlicing();
  const producer = createSlicer(slicing);
  const relay = createSlicer(slicing);
  advance(9);
  // Both worked in the first task, past its 8 ms: both are due.
  expect(dueAfterACheck(producer)).toBe(true);
  expect(dueAfterACheck(relay)).toBe(true);
  // The producer hands the thread back; in the next task it resumes, and the relay runs after it in that task.
  await producer.pause();
  advance(3);
  expect(dueAfterACheck(relay)).toBe(false);
  advance(6);
  // 9 ms into the new task, for both together (a slice each would have given the relay its own 8 ms more).
  expect(dueAfterACheck(relay)).toBe(true);
  expect(dueAfterACheck(producer)).toBe(true);
});

it('a new stream starts a new slice', () => {
  const { slicing, advance } = manualSlicing();
  const earlier = createSlicer(slicing);
  advance(50);
  expect(dueAfterACheck(earlier)).toBe(true);
  // Its answer arrived in a task of its own: it is not charged with the earlier task's time.
  const next = createSlicer(slicing);
  expect(dueAfterACheck(next)).toBe(false);
});

it('without a slicing (Node, workers) a slicer is never due', () => {
  expect(dueAfterACheck(createSlicer(undefined))).toBe(false);
});
