/** Programmatic control of the mock, also served as JSON under /__mock/admin for the playground. */
import type { MockContext } from './mock-context.js';
import { faultProblem, type MockFault } from './mock-fault.js';
import { jsonResponse } from './mock-responses.js';
import { isoTime, randomHex, type MockProject, type MockRequestRecord, type MockTeam } from './mock-state.js';

/** Token lifetimes the dashboard offers; null is "No expiration". */
export type MockTokenLifetime = 30 | 60 | 90 | null;

/** A project as the admin API shows it. */
export interface MockProjectSnapshot extends Pick<
  MockProject,
  'id' | 'teamId' | 'name' | 'status' | 'mode' | 'appUrl' | 'prompts' | 'linkedRepository'
> {
  files: string[];
  deploymentConnections: Record<string, number>;
}

/** A token as the dashboard lists it: never the full value. */
export interface MockTokenView {
  name: string;
  teamId: string;
  maskedValue: string;
  createdAt: string;
  expiresAt: string;
  status: 'Active' | 'Expired';
}

/** Code-host installation states the mock can put a connection in. */
export type MockInstallationStatus = 'active' | 'suspended' | 'deleted';

/** Control of the mock for tests, stories and the playground's scenario panel. */
export interface MockAdmin {
  /** The team of the default token. */
  readonly defaultTeamId: string;
  /** Creates a team; returns its id. */
  createTeam(input?: { credits?: number; suspended?: boolean }): string;
  /** Creates a token of a team (default: the default team); returns its full value. */
  createToken(input?: { teamId?: string; expiresInDays?: MockTokenLifetime; name?: string }): string;
  /** Revokes a token: the next request with it gets 401 'Unauthorized.'. */
  revokeToken(token: string): void;
  /** Moves a token past its expiration date: the next request gets 401 'API token has expired.'. */
  expireToken(token: string): void;
  /** Sets a team's credit balance. */
  setCredits(credits: number, teamId?: string): void;
  /** A team's credit balance. */
  credits(teamId?: string): number;
  /** Suspends (or reinstates) a team. */
  suspendTeam(teamId?: string, suspended?: boolean): void;
  /** Queues a fault for the next matching request (by default the next generate or follow-up). */
  injectFault(fault: MockFault): void;
  /** Faults not yet consumed. */
  pendingFaults(): MockFault[];
  /** Drops every queued fault. */
  clearFaults(): void;
  /** Changes the installation status of an external user's code-host app. */
  setCodehostInstallationStatus(externalUserId: string, status: MockInstallationStatus, teamId?: string): void;
  /** Back to the initial state: the default token stays valid, everything else is forgotten. */
  reset(): void;
  /** Every request received (method and path), oldest first; bounded to the last 10,000. */
  readonly requests: readonly MockRequestRecord[];
  /** The projects of every team. */
  projects(): MockProjectSnapshot[];
  /** The tokens of a team as the dashboard lists them (revoked ones are gone). */
  tokens(teamId?: string): MockTokenView[];
}

/** A failure of an admin call, with the HTTP status the admin API answers. */
export class MockAdminError extends Error {
  override readonly name = 'MockAdminError';
  constructor(
    message: string,
    readonly status: 400 | 404 = 400,
  ) {
    super(message);
  }
}

/** What the admin needs from the mock that owns it. */
export interface MockAdminHost {
  context(): MockContext;
  defaultTeamId: string;
  requests: MockRequestRecord[];
  reset(): void;
}

const day = 24 * 60 * 60 * 1000;

/** Creates the admin of a mock. */
export function createMockAdmin(host: MockAdminHost): MockAdmin {
  const state = () => host.context().state;
  const team = (teamId: string = host.defaultTeamId): MockTeam => {
    const found = state().teams.get(teamId);
    if (found === undefined) throw new MockAdminError(`Unknown team: ${teamId}.`, 404);
    return found;
  };
  const token = (value: string) => {
    const found = state().tokens.get(value);
    if (found === undefined) throw new MockAdminError('Unknown token.', 404);
    return found;
  };
  const checkCredits = (credits: unknown): number => {
    if (typeof credits !== 'number' || !Number.isInteger(credits) || credits < 0)
      throw new MockAdminError('credits must be a non-negative integer.');
    return credits;
  };

  return {
    get defaultTeamId() {
      return host.defaultTeamId;
    },
    createTeam(input = {}) {
      const id = `team_${randomHex(6)}`;
      state().teams.set(id, { id, credits: checkCredits(input.credits ?? 100), suspended: input.suspended === true });
      return id;
    },
    createToken(input = {}) {
      const owner = team(input.teamId);
      const lifetime = input.expiresInDays ?? null;
      if (lifetime !== null && lifetime !== 30 && lifetime !== 60 && lifetime !== 90)
        throw new MockAdminError('expiresInDays must be 30, 60, 90 or null.');
      const createdAt = host.context().now();
      const value = `mock_${randomHex(20)}`;
      state().tokens.set(value, {
        value,
        teamId: owner.id,
        name: input.name ?? 'Mock token',
        createdAt,
        expiresAt: lifetime === null ? null : createdAt + lifetime * day,
        revoked: false,
      });
      return value;
    },
    revokeToken(value) {
      token(value).revoked = true;
    },
    expireToken(value) {
      const found = token(value);
      found.expiresAt = Math.min(found.expiresAt ?? Number.POSITIVE_INFINITY, host.context().now());
    },
    setCredits(credits, teamId) {
      team(teamId).credits = checkCredits(credits);
    },
    credits: (teamId) => team(teamId).credits,
    suspendTeam(teamId, suspended = true) {
      team(teamId).suspended = suspended;
    },
    injectFault(fault) {
      const problem = faultProblem(fault);
      if (problem !== undefined) throw new MockAdminError(problem);
      host.context().faults.add(fault);
    },
    pendingFaults: () => host.context().faults.pending(),
    clearFaults: () => host.context().faults.clear(),
    setCodehostInstallationStatus(externalUserId, status, teamId = host.defaultTeamId) {
      if (status !== 'active' && status !== 'suspended' && status !== 'deleted')
        throw new MockAdminError('status must be active, suspended or deleted.');
      const record = state().codehostConnections.find(
        (item) => item.teamId === teamId && item.connection.external_user_id === externalUserId,
      );
      if (record === undefined) throw new MockAdminError(`No code-host connection for ${externalUserId}.`, 404);
      record.connection.installation_status = status;
      record.connection.updated_at = isoTime(host.context().now());
    },
    reset: () => host.reset(),
    get requests() {
      return host.requests;
    },
    projects: () =>
      [...state().projects.values()].map((project) => ({
        id: project.id,
        teamId: project.teamId,
        name: project.name,
        status: project.status,
        mode: project.mode,
        appUrl: project.appUrl,
        files: [...project.files.keys()],
        prompts: [...project.prompts],
        linkedRepository: project.linkedRepository === null ? null : { ...project.linkedRepository },
        deploymentConnections: Object.fromEntries(project.deploymentConnections),
      })),
    tokens(teamId = host.defaultTeamId) {
      team(teamId);
      const now = host.context().now();
      return [...state().tokens.values()]
        .filter((item) => item.teamId === teamId && !item.revoked)
        .map((item) => ({
          name: item.name,
          teamId: item.teamId,
          maskedValue: `${'*'.repeat(12)}${item.value.slice(-4)}`,
          createdAt: isoTime(item.createdAt),
          expiresAt: item.expiresAt === null ? 'Never' : isoTime(item.expiresAt),
          status: item.expiresAt !== null && now >= item.expiresAt ? 'Expired' : 'Active',
        }));
    },
  };
}

const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
};

function teamIdOf(body: Record<string, unknown>): string | undefined {
  if (body.teamId === undefined || body.teamId === null) return undefined;
  if (typeof body.teamId !== 'string') throw new MockAdminError('teamId must be a string.');
  return body.teamId;
}

function stringField(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw new MockAdminError(`${field} must be a non-empty string.`);
  return value;
}

/**
 * Serves the admin over HTTP (JSON, camelCase, CORS open so a playground on another origin can use it):
 * GET state | requests | projects | faults | credits | tokens (the last two of `?teamId=`, default the default team);
 * POST teams | tokens | tokens/revoke | tokens/expire | credits | suspend | faults | faults/clear |
 * codehost/installation | reset. `createMockAdminClient` is its typed client.
 */
export async function handleAdminRequest(request: Request, path: string, admin: MockAdmin): Promise<Response> {
  const respond = (status: number, body: unknown) => jsonResponse(status, body, corsHeaders);
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
  const query: Record<string, unknown> = Object.fromEntries(new URL(request.url).searchParams);
  let body: Record<string, unknown> = {};
  if (request.method === 'POST') {
    const text = await request.text();
    try {
      const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        return respond(400, { error: 'The body must be a JSON object.' });
      body = parsed as Record<string, unknown>;
    } catch {
      return respond(400, { error: 'The body must be valid JSON.' });
    }
  }
  try {
    switch (`${request.method} ${path.replace(/\/+$/, '') || '/'}`) {
      case 'GET /':
      case 'GET /state':
        return respond(200, {
          defaultTeamId: admin.defaultTeamId,
          credits: admin.credits(),
          tokens: admin.tokens(),
          projects: admin.projects(),
          pendingFaults: admin.pendingFaults(),
          requestCount: admin.requests.length,
        });
      case 'GET /requests':
        return respond(200, { requests: admin.requests });
      case 'GET /projects':
        return respond(200, { projects: admin.projects() });
      case 'GET /faults':
        return respond(200, { faults: admin.pendingFaults() });
      case 'GET /credits':
        return respond(200, { credits: admin.credits(teamIdOf(query)) });
      case 'GET /tokens':
        return respond(200, { tokens: admin.tokens(teamIdOf(query)) });
      case 'POST /teams': {
        const input: { credits?: number; suspended?: boolean } = {};
        if (body.credits !== undefined) input.credits = body.credits as number;
        if (body.suspended !== undefined) input.suspended = body.suspended === true;
        return respond(201, { teamId: admin.createTeam(input) });
      }
      case 'POST /tokens': {
        const input: { teamId?: string; expiresInDays?: MockTokenLifetime; name?: string } = {};
        const teamId = teamIdOf(body);
        if (teamId !== undefined) input.teamId = teamId;
        if (body.expiresInDays !== undefined) input.expiresInDays = body.expiresInDays as MockTokenLifetime;
        if (body.name !== undefined) input.name = stringField(body, 'name');
        return respond(201, { token: admin.createToken(input) });
      }
      case 'POST /tokens/revoke':
        admin.revokeToken(stringField(body, 'token'));
        return respond(200, { ok: true });
      case 'POST /tokens/expire':
        admin.expireToken(stringField(body, 'token'));
        return respond(200, { ok: true });
      case 'POST /credits':
        admin.setCredits(body.credits as number, teamIdOf(body));
        return respond(200, { ok: true, credits: admin.credits(teamIdOf(body)) });
      case 'POST /suspend':
        admin.suspendTeam(teamIdOf(body), body.suspended !== false);
        return respond(200, { ok: true });
      case 'POST /faults':
        admin.injectFault(body as unknown as MockFault);
        return respond(201, { ok: true, faults: admin.pendingFaults() });
      case 'POST /faults/clear':
        admin.clearFaults();
        return respond(200, { ok: true });
      case 'POST /codehost/installation':
        admin.setCodehostInstallationStatus(
          stringField(body, 'externalUserId'),
          body.status as MockInstallationStatus,
          teamIdOf(body),
        );
        return respond(200, { ok: true });
      case 'POST /reset':
        admin.reset();
        return respond(200, { ok: true });
      default:
        return respond(404, { error: `No admin action ${request.method} ${path}.` });
    }
  } catch (thrown) {
    if (thrown instanceof MockAdminError) return respond(thrown.status, { error: thrown.message });
    if (thrown instanceof TypeError) return respond(400, { error: thrown.message });
    throw thrown;
  }
}
