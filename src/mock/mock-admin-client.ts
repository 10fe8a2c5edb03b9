/**
 * The mock's admin from where only its `fetch` reaches it (a worker, a server): `MockAdmin`'s methods, each a request to
 * the admin's JSON routes under /__mock/admin.
 */
import {
  MockAdminError,
  type MockInstallationStatus,
  type MockProjectSnapshot,
  type MockTokenLifetime,
  type MockTokenView,
} from './mock-admin.js';
import type { MockFault } from './mock-fault.js';
import type { MockRequestRecord } from './mock-state.js';

/** What GET /__mock/admin/state answers. */
export interface MockAdminState {
  defaultTeamId: string;
  /** The default team's credits. */
  credits: number;
  /** The default team's tokens as the dashboard lists them. */
  tokens: MockTokenView[];
  projects: MockProjectSnapshot[];
  pendingFaults: MockFault[];
  requestCount: number;
}

/** `MockAdmin` over its JSON routes: the same methods, each answered once the mock has done it. */
export interface MockAdminClient {
  /** The admin's URL, ending in /__mock/admin. */
  readonly url: string;
  /** The default team, the default team's credits and tokens, the projects, the pending faults, the request count. */
  state(): Promise<MockAdminState>;
  /** Creates a team; resolves to its id. */
  createTeam(input?: { credits?: number; suspended?: boolean }): Promise<string>;
  /** Creates a token of a team (default: the default team); resolves to its full value. */
  createToken(input?: { teamId?: string; expiresInDays?: MockTokenLifetime; name?: string }): Promise<string>;
  /** Revokes a token: the next request with it gets 401 'Unauthorized.'. */
  revokeToken(token: string): Promise<void>;
  /** Moves a token past its expiration date: the next request gets 401 'API token has expired.'. */
  expireToken(token: string): Promise<void>;
  /** Sets a team's credit balance. */
  setCredits(credits: number, teamId?: string): Promise<void>;
  /** A team's credit balance. */
  credits(teamId?: string): Promise<number>;
  /** Suspends (or reinstates) a team. */
  suspendTeam(teamId?: string, suspended?: boolean): Promise<void>;
  /** Queues a fault for the next matching request (by default the next generate or follow-up). */
  injectFault(fault: MockFault): Promise<void>;
  /** Faults not yet consumed. */
  pendingFaults(): Promise<MockFault[]>;
  /** Drops every queued fault. */
  clearFaults(): Promise<void>;
  /** Changes the installation status of an external user's code-host app. */
  setCodehostInstallationStatus(externalUserId: string, status: MockInstallationStatus, teamId?: string): Promise<void>;
  /** Back to the initial state: the default token stays valid, everything else is forgotten. */
  reset(): Promise<void>;
  /** Every request the mock received (method and path, admin requests included), oldest first; the last 10,000. */
  requests(): Promise<MockRequestRecord[]>;
  /** The projects of every team. */
  projects(): Promise<MockProjectSnapshot[]>;
  /** The tokens of a team as the dashboard lists them (revoked ones are gone). */
  tokens(teamId?: string): Promise<MockTokenView[]>;
}

/** Options of `createMockAdminClient`. */
export interface MockAdminClientOptions {
  /** The mock's origin or any URL on it (its `baseUrl`, say): the admin is at /__mock/admin there. */
  url: string;
  /** A `fetch` that reaches the mock (default the global one, for a mock server). */
  fetch?: typeof globalThis.fetch;
}

/**
 * A client of the mock's admin at `url`'s origin, through `fetch`. A refused call (bad input, an unknown team or token)
 * rejects with `MockAdminError` and the admin's message, as `MockAdmin` throws it; any other answer but success rejects
 * with an `Error` naming its status.
 */
export function createMockAdminClient(options: MockAdminClientOptions): MockAdminClient {
  const { fetch: send = globalThis.fetch } = options;
  const url = new URL('/__mock/admin', options.url).href;

  async function call(method: 'GET' | 'POST', action: string, body?: object): Promise<Record<string, unknown>> {
    const response = await send(`${url}/${action}`, {
      method,
      ...(method === 'POST'
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) }
        : {}),
    });
    const answer: unknown = await response.json().catch(() => undefined);
    const fields = typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>) : {};
    if (response.ok) return fields;
    // The admin says `error`; anything else on the mock's site (no such route, no such mock) says `message`.
    const said = fields.error ?? fields.message;
    const message = typeof said === 'string' ? said : undefined;
    if (message !== undefined && (response.status === 400 || response.status === 404))
      throw new MockAdminError(message, response.status);
    throw new Error(
      `The mock's admin answered ${response.status} to ${method} ${action}${message ? `: ${message}` : '.'}`,
    );
  }
  const ofTeam = (action: string, teamId: string | undefined) =>
    teamId === undefined ? action : `${action}?${new URLSearchParams({ teamId }).toString()}`;
  const post = async (action: string, body?: object) => void (await call('POST', action, body));

  return {
    url,
    state: async () => (await call('GET', 'state')) as unknown as MockAdminState,
    createTeam: async (input = {}) => (await call('POST', 'teams', input)).teamId as string,
    createToken: async (input = {}) => (await call('POST', 'tokens', input)).token as string,
    revokeToken: (token) => post('tokens/revoke', { token }),
    expireToken: (token) => post('tokens/expire', { token }),
    setCredits: (credits, teamId) => post('credits', { credits, teamId }),
    credits: async (teamId) => (await call('GET', ofTeam('credits', teamId))).credits as number,
    suspendTeam: (teamId, suspended = true) => post('suspend', { teamId, suspended }),
    injectFault: (fault) => post('faults', fault),
    pendingFaults: async () => (await call('GET', 'faults')).faults as MockFault[],
    clearFaults: () => post('faults/clear'),
    setCodehostInstallationStatus: (externalUserId, status, teamId) =>
      post('codehost/installation', { externalUserId, status, teamId }),
    reset: () => post('reset'),
    requests: async () => (await call('GET', 'requests')).requests as MockRequestRecord[],
    projects: async () => (await call('GET', 'projects')).projects as MockProjectSnapshot[],
    tokens: async (teamId) => (await call('GET', ofTeam('tokens', teamId))).tokens as MockTokenView[],
  };
}
