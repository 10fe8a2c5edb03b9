/** What a hook action resolves to when it cannot run: it sends nothing and changes nothing in the store. */
import { AgentApiError, type IntegrationResult } from '../../core/index.js';

const reasons = {
  signedOut: () =>
    new AgentApiError('unauthorized', 'No signed-in end user: give AgentProvider an externalUser to use this action.'),
  noProject: () => new AgentApiError('validation', 'No project yet: this action needs a project id.'),
};

/** A resolved failure: no `externalUser` on the provider (`signedOut`), or no project to act on (`noProject`). */
export function unavailableResult<T>(reason: keyof typeof reasons): Promise<IntegrationResult<T>> {
  return Promise.resolve({ ok: false, error: reasons[reason]() });
}
