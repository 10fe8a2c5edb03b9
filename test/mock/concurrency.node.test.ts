/** The mock under many concurrent streams: every wait cleans up its timer and abort listener. */
import { createMockAgentApi } from 'agent-embed/mock';
import { afterEach, describe, expect, it } from 'vitest';
import { call, readToEnd } from './mock-helpers.js';

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);

afterEach(() => {
  process.off('warning', onWarning);
});

describe('mock concurrency', () => {
  it('holds 1,000 concurrent streams without a MaxListenersExceededWarning', async () => {
    process.on('warning', onWarning);
    const api = createMockAgentApi({ speed: 'realistic', rateLimit: false });
    const responses = await Promise.all(
      Array.from({ length: 1000 }, (_, index) =>
        call(api, 'POST', '/agent/generate', {
          body: { prompt: `Build a todo app number ${index}` },
          headers: { accept: 'text/event-stream' },
        }),
      ),
    );
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const reads = responses.map((response) => readToEnd(response));
    // Every stream is now waiting in the mock's sleep; give the waits a few turns to pile up.
    await new Promise((resolve) => setTimeout(resolve, 200));
    api.dispose();
    await Promise.all(reads);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
