/**
 * The recording of a relayed generation in batches, for a store that writes a batch in one call (`appendEvents`, as
 * the Redis store does): while the store writes one batch, the proxy reads and records the events that follow (a
 * bounded number), and writes them together in the next call, so a burst costs a store call (a Redis round trip)
 * per batch. A store without `appendEvents` gets each event in turn. Every event still reaches the browser only once it is recorded, in order,
 * each recorded once; a store that fails mid-stream stops the recording, never the relay; and a store that never
 * answers holds a bounded read-ahead, not the upstream's whole stream.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryProxyStore, type ProxyStore, type RecordedEvent } from 'agent-embed/server';
import {
  createRecordingProxy,
  generateRequest,
  fileEvent,
  idsIn,
  idsSentAfterRecording,
  range,
  writeBurst,
} from './recording-helpers.js';

/**
 * A memory store whose event writes wait for `gate()` to say so: each call is noted with its ids; `recorded` holds
 * the ids written so far.
 */
function gatedStore(gate: (call: number) => Promise<void>) {
  const inner = createMemoryProxyStore();
  const calls: number[][] = [];
  const recorded = new Set<number>();
  const write = async (projectId: string, generation: number, events: readonly RecordedEvent[]) => {
    calls.push(events.map((event) => event.id));
    await gate(calls.length);
    for (const event of events) await inner.appendEvent(projectId, generation, event);
    for (const event of events) recorded.add(event.id);
  };
  const store: ProxyStore = {
    ...inner,
    appendEvent: (projectId, generation, event) => write(projectId, generation, [event]),
    appendEvents: write,
  };
  return { store, inner, calls, recorded };
}

describe('the recording of a burst', () => {
  it('writes the events that waited for a write together, and sends each only once it is recorded', async () => {
    const { store, inner, calls, recorded } = gatedStore(() => new Promise((resolve) => setTimeout(resolve, 5)));
    const { proxy, streams } = createRecordingProxy(store);
    const response = await proxy(generateRequest());
    const stream = streams[0]!;
    writeBurst(stream, 'p-burst', 2_000);
    // Whenever the browser has an event, the store has it: a resume from that id finds it.
    const all = range(1, 2_002);
    expect(await idsSentAfterRecording(response.body, recorded)).toEqual(all);
    // Each event recorded once, in order, in far fewer writes than events (a write per event took 2,002).
    expect(calls.flat()).toEqual(all);
    expect(calls.length).toBeLessThan(50);
    expect(Math.max(...calls.map((ids) => ids.length))).toBeGreaterThan(100);
    const log = await inner.readEvents('p-burst', 0);
    expect(log?.ended).toBe(true);
    expect(log?.events.map((event) => event.id)).toEqual(all);
  });

  it('reads at most a bounded batch ahead of a store that does not answer, and goes on once it does', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The first write (the project's first event) goes through; the second hangs until released.
    const { store, calls } = gatedStore((call) => (call === 2 ? released : Promise.resolve()));
    const { proxy, streams } = createRecordingProxy(store);
    const text = (await proxy(generateRequest())).text();
    const stream = streams[0]!;
    stream.event({ type: 'project_created', project_id: 'p-stuck' });
    for (let n = 1; n <= 5_000; n++) stream.event(fileEvent(n));
    stream.event({ type: 'stream_end', project_id: 'p-stuck' });
    stream.close();

    await expect.poll(() => calls.length).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Waiting for its store, the proxy holds the events of the write under way and of the next one: at most 512
    // of them read ahead, not the 5,000 the upstream sent.
    expect(calls.length).toBe(2);
    expect(stream.drained()).toBe(false);
    release();
    expect(idsIn(await text)).toEqual(range(1, 5_002));
    const written = calls.flat();
    expect(written).toEqual(range(1, 5_002));
    // After the hang, the 511 read meanwhile (512 held, with the one being written) went in one write.
    expect(calls[2]?.length).toBe(511);
  });

  it('stops recording when the store fails mid-stream, and relays every event regardless', async () => {
    const { store, calls } = gatedStore(async (call) => {
      if (call === 3) throw new Error('Redis went away');
    });
    const { proxy, streams, logs } = createRecordingProxy(store);
    const text = (await proxy(generateRequest())).text();
    const stream = streams[0]!;
    stream.event({ type: 'project_created', project_id: 'p-lost' });
    for (let n = 1; n <= 300; n++) {
      stream.event(fileEvent(n));
      // A chunk at a time, so that there are several writes.
      if (n % 100 === 0) await expect.poll(() => stream.drained()).toBe(true);
    }
    stream.event({ type: 'stream_end', project_id: 'p-lost' });
    stream.close();
    expect(idsIn(await text)).toEqual(range(1, 302));
    // Nothing more was written after the failure.
    expect(calls.length).toBe(3);
    expect(logs.filter((entry) => entry.reason?.includes('Redis went away'))).toHaveLength(1);
  });

  it('gives a store without appendEvents each event in turn, reading none ahead of its write', async () => {
    const inner = createMemoryProxyStore();
    const written: number[] = [];
    let writing = 0;
    let mostAtOnce = 0;
    const store: ProxyStore = {
      ...inner,
      async appendEvent(projectId, generation, event) {
        mostAtOnce = Math.max(mostAtOnce, ++writing);
        written.push(event.id);
        await new Promise((resolve) => setTimeout(resolve, 1));
        await inner.appendEvent(projectId, generation, event);
        writing--;
      },
    };
    const { proxy, streams } = createRecordingProxy(store);
    const text = (await proxy(generateRequest())).text();
    const stream = streams[0]!;
    writeBurst(stream, 'p-turns', 200);
    const all = range(1, 202);
    expect(idsIn(await text)).toEqual(all);
    expect(written).toEqual(all);
    expect(mostAtOnce).toBe(1);
  });
});
