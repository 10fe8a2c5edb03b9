/** The usage slice of the store: the signed-in end user's quota usage, from the agency proxy. */
import type { AgentApiError } from '../wire/errors.js';
import type { Usage } from '../wire/proxy-resources.js';
import type { ListStatus } from './slice-context.js';
import { createSliceRunner, type IntegrationResult, type SliceContext } from './slice-context.js';

/** The end user's quota usage (`usage` is undefined until loaded). */
export interface UsageState {
  status: ListStatus;
  usage: Usage | undefined;
  error: AgentApiError | undefined;
}

/** State and actions of the usage slice. */
export interface UsageSlice {
  usage: UsageState;
  /** Loads the usage (one request however many callers). */
  loadUsage(): Promise<IntegrationResult<Usage>>;
}

/** Creates the usage slice. */
export function createUsageSlice(context: SliceContext<UsageSlice>): UsageSlice {
  const { client, get, set } = context;
  const run = createSliceRunner(context.signal);
  const patch = (next: Partial<UsageState>) => set({ usage: { ...get().usage, ...next } });
  return {
    usage: { status: 'idle', usage: undefined, error: undefined },
    loadUsage: () =>
      run({
        key: 'load:usage',
        record: 'usage',
        call: (signal) => client.usage.get({ signal }),
        start: () => patch({ status: 'loading' }),
        succeed: (usage) => patch({ status: 'loaded', usage, error: undefined }),
        fail: (error) => patch({ status: 'error', error }),
      }),
  };
}
