/**
 * One model per idea, for server resources: parts of the screen that show the same server datum (the code-host
 * connection and its repositories, the linked repository, the deployment connection and the deployment, the project
 * list, the usage) are rendered side by side over the in-browser mock (which runs the real proxy), driven through a
 * sequence of actions, and read back from the DOM (and the store's own cached answers). Two parts, or a part and the
 * server, that tell different stories fail the test. A failing test is a finding, marked `// FINDING:`.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentProvider,
  CodehostConnect,
  DeployButton,
  GeneratePanel,
  ProjectList,
  ProjectStatus,
  RepoPicker,
  UsageMeter,
  useDeployment,
  useDeploymentConnections,
} from 'agent-embed';
import {
  agentApiMessages,
  createAgentClient,
  createAgentStore,
  errorFromResponse,
  resourceSpecs,
  selectResource,
  type AgentTransport,
  type TransportRequest,
  type Usage,
} from 'agent-embed/core';
import { createMockAgentApi, createMockTransport, type MockAgentApi } from 'agent-embed/mock';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';
import { createMemoryStorage } from '../store/fakes.js';

afterEach(cleanupRendered);

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const prompt = 'A portfolio site for a ceramic artist';

// ---------------------------------------------------------------------------------------------------------------
// The server

/** Completes the code-host install for Ada as the account `name` (the mock's login is the slug of the name). */
async function installCodehost(api: MockAgentApi, name = ada.name) {
  // The proxy fills the end user's name from its session: a session with this name installs that account.
  const transport = createMockTransport({ api, externalUser: { ...ada, name } });
  const client = createAgentClient({ transport });
  const started = await client.codehost.startConnect({
    external_user_id: 'ada',
    external_user_name: name,
    external_user_email: ada.email,
    return_url: 'http://localhost:3000/',
  });
  const state = new URL(started.redirect_url).searchParams.get('state')!;
  const back = await api.fetch(new Request(new URL(`/__mock/codehost/callback?state=${state}`, started.redirect_url)));
  expect(back.status).toBe(302);
}

/** A mock where Ada has a finished project and (optionally) the code host installed. */
async function serverWithProject(options: { codehost?: boolean } = {}) {
  const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
  if (options.codehost !== false) await installCodehost(api);
  const client = createAgentClient({ transport: createMockTransport({ api, externalUser: ada }) });
  const projectId = (await client.generate({ prompt })).projectId;
  return { api, projectId };
}

/** What the server says the project is linked to ("owner/name"), or null. */
function serverLink(api: MockAgentApi, projectId: string): string | null {
  const linked = api.admin.projects().find((project) => project.id === projectId)?.linkedRepository;
  return linked == null ? null : `${linked.owner}/${linked.name}`;
}

/** A transport layer that records requests and can fail or hold chosen ones. */
function tap() {
  const sent: TransportRequest[] = [];
  const failures: { match: (request: TransportRequest) => boolean; error: () => unknown }[] = [];
  const deferred: { match: (request: TransportRequest) => boolean; gate: Promise<void> }[] = [];
  const heldFailures: { match: (request: TransportRequest) => boolean; gate: Promise<void>; error: () => unknown }[] =
    [];
  const answers: { match: (request: TransportRequest) => boolean; data: unknown }[] = [];
  const holds: { match: (request: TransportRequest) => boolean; gate: Promise<void> }[] = [];
  const wrap = (inner: AgentTransport): AgentTransport => ({
    json: async (request) => {
      sent.push(request);
      for (const wait of deferred) if (wait.match(request)) await wait.gate;
      const heldFailure = heldFailures.find((item) => item.match(request));
      if (heldFailure !== undefined) {
        heldFailures.splice(heldFailures.indexOf(heldFailure), 1);
        const error = heldFailure.error();
        await heldFailure.gate;
        throw error;
      }
      const hold = holds.find((item) => item.match(request));
      if (hold !== undefined) {
        holds.splice(holds.indexOf(hold), 1);
        // The answer is read now (the server's state of this moment) and delivered after the gate opens.
        const answer = inner.json(request).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
        await hold.gate;
        const settled = await answer;
        if ('error' in settled) throw settled.error;
        return settled.value;
      }
      const answer = answers.find((item) => item.match(request));
      if (answer !== undefined) return { success: true, message: 'ok', data: answer.data };
      const failure = failures.find((item) => item.match(request));
      if (failure !== undefined) throw failure.error();
      return inner.json(request);
    },
    stream: inner.stream,
  });
  return {
    sent,
    wrap,
    /** Every matching request fails with `error` until `heal()`. */
    fail(match: (request: TransportRequest) => boolean, error: () => unknown) {
      const entry = { match, error };
      failures.push(entry);
      return () => void failures.splice(failures.indexOf(entry), 1);
    },
    /** Every matching request waits, unsent, until `release()` (then all of them, and later ones, go through). */
    defer(match: (request: TransportRequest) => boolean) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      deferred.push({ match, gate });
      return release;
    },
    /** The next matching request fails with `error`, delivered only once `release()` is called. */
    holdFailure(match: (request: TransportRequest) => boolean, error: () => unknown) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      heldFailures.push({ match, gate, error });
      return release;
    },
    /** Every matching request is answered with `data` (in the API's envelope) from now on. */
    answer(match: (request: TransportRequest) => boolean, data: unknown) {
      answers.push({ match, data });
    },
    /** The next matching request is answered with the server's state of now, but only once `release()` is called. */
    hold(match: (request: TransportRequest) => boolean) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      holds.push({ match, gate });
      return release;
    },
  };
}

const apiError = (status: number, message: string) =>
  errorFromResponse(status, new Headers(), JSON.stringify({ success: false, message, data: null }));

// ---------------------------------------------------------------------------------------------------------------
// Reading the screen

/** CodehostConnect and RepoPicker for the project side by side in one provider, over `api` (through `wire`, if given). */
function renderCodehostBesidePicker(api: MockAgentApi, projectId: string | undefined, wire?: ReturnType<typeof tap>) {
  return renderWithMock(
    <>
      <CodehostConnect navigate={() => {}} />
      <RepoPicker projectId={projectId!} perPage={10} />
    </>,
    { mock: { api }, provider: { externalUser: ada }, ...(wire === undefined ? {} : { wrapTransport: wire.wrap }) },
  );
}

const codehostRegion = () => screen.getByRole('region', { name: 'Save the code to GitHub' });
const pickerRegion = () => screen.getByRole('region', { name: 'Repository' });
const repoNames = () =>
  [...pickerRegion().querySelectorAll('.ae-repo-name')].map((element) => element.getAttribute('title') ?? '');
const deployRegions = () => screen.getAllByRole('region', { name: 'Publish to the web' });
const linkedBox = () =>
  [...pickerRegion().querySelectorAll('.ae-repo-actions > .ae-outcome')].map((box) => box.textContent ?? '');

async function pickAndLink(user: ReturnType<typeof renderWithMock>['user'], index: number): Promise<string> {
  await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-state', 'ready'));
  const option = within(pickerRegion()).getAllByRole('option')[index]!;
  const fullName = option.querySelector('.ae-repo-name')!.getAttribute('title')!;
  await user.click(option);
  await user.click(within(pickerRegion()).getByRole('button', { name: `Use ${fullName}` }));
  return fullName;
}

async function pushNew(user: ReturnType<typeof renderWithMock>['user'], name: string) {
  const field = within(pickerRegion()).getByLabelText('New repository name');
  await user.clear(field);
  await user.type(field, name);
  await user.click(within(pickerRegion()).getByRole('button', { name: 'Create and save' }));
}

// ---------------------------------------------------------------------------------------------------------------

describe('code host: CodehostConnect and RepoPicker side by side', () => {
  it('connect after mount: both go from "not connected" to the connected account and its repositories', async () => {
    const { api, projectId } = await serverWithProject({ codehost: false });
    renderCodehostBesidePicker(api, projectId);
    await waitFor(() => expect(codehostRegion()).toHaveAttribute('data-state', 'missing'));
    expect(pickerRegion()).toHaveAttribute('data-state', 'not_connected');
    await installCodehost(api);
    act(() => void window.dispatchEvent(new Event('focus')));
    await waitFor(() => expect(codehostRegion()).toHaveAttribute('data-state', 'connected'));
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-state', 'ready'));
    expect(codehostRegion()).toHaveTextContent('ada-lovelace');
    expect(repoNames().every((name) => name.startsWith('ada-lovelace/'))).toBe(true);
  });

  it('a "connection not found" from a link, in RepoPicker, makes CodehostConnect say "not connected" too', async () => {
    const { api, projectId } = await serverWithProject();
    const wire = tap();
    const { user } = renderCodehostBesidePicker(api, projectId, wire);
    await waitFor(() => expect(codehostRegion()).toHaveAttribute('data-state', 'connected'));
    // The connection was removed on the code host's side, behind the page's back.
    wire.fail(
      (request) => request.path.startsWith('/codehost/'),
      () => apiError(404, agentApiMessages.codehostConnectionNotFound),
    );
    await pickAndLink(user, 0);
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-link', 'error'));
    await waitFor(() => expect(codehostRegion()).toHaveAttribute('data-state', 'missing'));
    expect(pickerRegion()).toHaveAttribute('data-state', 'not_connected');
  });

  // Found by this audit: after a reconnect to another code-host account RepoPicker kept listing the old account's
  // repositories; an answer of the codehostConnection resource with another account or installation now drops the
  // repository pages (its `settle`), so they are listed again through the new connection.
  it('a reconnect to another code-host account: RepoPicker lists that account’s repositories', async () => {
    const { api, projectId } = await serverWithProject();
    renderCodehostBesidePicker(api, projectId);
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-state', 'ready'));
    expect(repoNames()[0]).toMatch(/^ada-lovelace\//);
    await installCodehost(api, 'Ada Byron');
    // Back from the install page, restored from the back/forward cache: the connection is read again.
    act(() => void window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
    await waitFor(() => expect(codehostRegion()).toHaveTextContent('ada-byron'));
    await waitFor(() => expect(repoNames().filter((name) => !name.startsWith('ada-byron/'))).toEqual([]), {
      timeout: 2_000,
    });
  });

  it('two providers over one store: a connect seen by one provider’s CodehostConnect is the other’s RepoPicker’s', async () => {
    const { api, projectId } = await serverWithProject({ codehost: false });
    const transport = createMockTransport({ api, externalUser: ada });
    const store = createAgentStore({ client: createAgentClient({ transport }), storage: null });
    render(
      <>
        <AgentProvider store={store} externalUser={ada}>
          <CodehostConnect navigate={() => {}} />
        </AgentProvider>
        <AgentProvider store={store} externalUser={ada}>
          <RepoPicker projectId={projectId!} perPage={10} />
        </AgentProvider>
      </>,
    );
    await waitFor(() => expect(codehostRegion()).toHaveAttribute('data-state', 'missing'));
    expect(pickerRegion()).toHaveAttribute('data-state', 'not_connected');
    await installCodehost(api);
    act(() => void window.dispatchEvent(new Event('focus')));
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-state', 'ready'));
    expect(codehostRegion()).toHaveAttribute('data-state', 'connected');
    // Both providers' hooks asked once between them for the connection's detail.
    const details = api.admin.requests.filter((request) => request.path.endsWith('/codehost/connections/ada'));
    expect(details.length).toBeLessThanOrEqual(2);
    store.destroy();
  });
  // Found by this audit: a late "connection not found" from a push sent before the reconnect overwrote the newer
  // "connected"; resource writes are now ordered by when their request was sent (putResource's `sentAt`), so older
  // news never overwrites newer data.
  it('a late "connection not found" from a push sent before the reconnect never overwrites the reconnect', async () => {
    const { api, projectId } = await serverWithProject();
    const wire = tap();
    const { user } = renderCodehostBesidePicker(api, projectId, wire);
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-state', 'ready'));
    const answerPush = wire.holdFailure(
      (request) => request.path.endsWith('/push'),
      () => apiError(404, agentApiMessages.codehostConnectionNotFound),
    );
    await pushNew(user, 'late-site');
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-push', 'pending'));
    // Reinstalled meanwhile, and back on the page: the connection is read again, after the push was sent.
    await installCodehost(api);
    act(() => void window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
    await waitFor(() =>
      expect(wire.sent.filter((request) => request.path === '/codehost/connections/ada').length).toBeGreaterThanOrEqual(
        2,
      ),
    );
    await waitFor(() => expect(codehostRegion()).toHaveAttribute('data-state', 'connected'));
    answerPush();
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-push', 'error'));
    expect(codehostRegion()).toHaveAttribute('data-state', 'connected');
    expect(pickerRegion()).not.toHaveAttribute('data-state', 'not_connected');
  });
});

describe('the linked repository: RepoPicker and the server', () => {
  // Found by this audit: a push to the linked repository made the picker forget the link (it read the latest push's
  // variables); the linked repository is now a resource told by each successful link or push answer.
  it('a push to the linked repository keeps it linked on screen', async () => {
    const { api, projectId } = await serverWithProject();
    const { user } = renderWithMock(<RepoPicker projectId={projectId!} perPage={10} />, {
      mock: { api },
      provider: { externalUser: ada },
    });
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-state', 'ready'));
    await pushNew(user, 'studio-site');
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-push', 'success'));
    expect(serverLink(api, projectId!)).toBe('ada-lovelace/studio-site');
    // Before: the box names the repository the code went to, and the one action saves there again.
    expect(linkedBox().join(' ')).toContain('ada-lovelace/studio-site');
    const save = within(pickerRegion()).getByRole('button', { name: 'Save the code to ada-lovelace/studio-site' });
    await user.click(save);
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-push', 'success'));
    expect(serverLink(api, projectId!)).toBe('ada-lovelace/studio-site');
    await waitFor(() => expect(linkedBox().join(' ')).toContain('ada-lovelace/studio-site'));
    expect(
      within(pickerRegion()).getByRole('button', { name: 'Save the code to ada-lovelace/studio-site' }),
    ).toBeInTheDocument();
  });

  // Found by this audit: after two pushes by name the action named the second repository while the API kept the
  // first linked; a push by name now links only when nothing is linked, as the API does, so the action names the
  // repository a push without a name goes to.
  it('after two pushes by name, "Save the code to X" saves to X', async () => {
    const { api, projectId } = await serverWithProject();
    const { user } = renderWithMock(<RepoPicker projectId={projectId!} perPage={10} />, {
      mock: { api },
      provider: { externalUser: ada },
    });
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-state', 'ready'));
    await pushNew(user, 'first-site');
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-push', 'success'));
    await pushNew(user, 'second-site');
    await waitFor(() => expect(pickerRegion()).toHaveTextContent('ada-lovelace/second-site'));
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-push', 'success'));
    const action = within(pickerRegion()).queryByRole('button', { name: /^Save the code to / });
    const promised = action?.textContent?.replace('Save the code to ', '').trim();
    expect(serverLink(api, projectId!)).toBe('ada-lovelace/first-site');
    expect(promised, 'the one push action names the server’s linked repository').toBe(serverLink(api, projectId!));
  });

  // Found by this audit: a failed re-link hid the repository the server still links; a failure no longer changes the
  // linked-repository resource (kept in storage with the same rule).
  it('a failed re-link keeps the repository the server still links', async () => {
    const { api, projectId } = await serverWithProject();
    const wire = tap();
    const { user } = renderWithMock(<RepoPicker projectId={projectId!} perPage={10} />, {
      mock: { api },
      provider: { externalUser: ada },
      wrapTransport: wire.wrap,
    });
    const first = await pickAndLink(user, 0);
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-link', 'success'));
    expect(serverLink(api, projectId!)).toBe(first);
    expect(linkedBox().join(' ')).toContain(first);
    wire.fail(
      (request) => request.path.endsWith('/link'),
      () => apiError(500, 'Server Error'),
    );
    await pickAndLink(user, 1);
    await waitFor(() => expect(pickerRegion()).toHaveAttribute('data-link', 'error'));
    expect(serverLink(api, projectId!)).toBe(first);
    expect(linkedBox().join(' ')).toContain(first);
  });
});

describe('deployment: DeployButton twice, and the connection listing', () => {
  async function renderTwoDeployButtons(extra?: ReactNode) {
    const { api, projectId } = await serverWithProject({ codehost: false });
    const wire = tap();
    const rendered = renderWithMock(
      <>
        <DeployButton provider="vercel" projectId={projectId!} />
        <DeployButton provider="vercel" projectId={projectId!} />
        {extra}
      </>,
      { mock: { api }, provider: { externalUser: ada }, wrapTransport: wire.wrap, store: {} },
    );
    await waitFor(() => expect(deployRegions()[0]).toHaveAttribute('data-state', 'missing'));
    return { ...rendered, api, projectId: projectId!, wire };
  }

  async function connectIn(
    user: ReturnType<typeof renderWithMock>['user'],
    region: HTMLElement,
    token = 'ada-account:token',
  ) {
    await user.click(within(region).getByRole('button', { name: 'Connect Vercel' }));
    const dialog = screen.getByRole('dialog', { name: 'Connect Vercel' });
    await user.type(within(dialog).getByLabelText('Vercel access token'), token);
    await user.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
  }

  const shown = () =>
    deployRegions().map((region) => ({
      state: region.getAttribute('data-state'),
      connection: region.getAttribute('data-connection'),
      url: region.querySelector('a.ae-deploy-url')?.getAttribute('href') ?? null,
    }));

  it('connect in one, deploy in the other, deploy fails, deploy again: both tell the same story at every step', async () => {
    const { user, wire, api } = await renderTwoDeployButtons();
    const [left, right] = deployRegions() as [HTMLElement, HTMLElement];
    await connectIn(user, left);
    await waitFor(() => expect(shown().map((part) => part.connection)).toEqual(['connected', 'connected']));
    await user.click(within(right).getByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(shown().map((part) => part.state)).toEqual(['deployed', 'deployed']));
    expect(shown()[0]!.url).toMatch(/^https:\/\//);
    expect(shown()[0]!.url).toBe(shown()[1]!.url);
    // One GET of the connection for both buttons, and none again after the connect (its answer is the resource).
    const gets = api.admin.requests.filter((request) => request.path.endsWith('/deployments/vercel/connections/ada'));
    expect(gets.length).toBeLessThanOrEqual(1);

    const heal = wire.fail(
      (request) => request.path.endsWith('/deploy'),
      () => apiError(500, 'Server Error'),
    );
    await user.click(within(left).getByRole('button', { name: 'Redeploy' }));
    await waitFor(() => expect(shown().map((part) => part.state)).toEqual(['failed', 'failed']));
    heal();
    await user.click(within(left).getByRole('button', { name: /Deploy to Vercel|Redeploy/ }));
    await waitFor(() => expect(shown().map((part) => part.state)).toEqual(['deployed', 'deployed']));
    expect(shown()[0]!.url).toBe(shown()[1]!.url);
  });

  // Found by this audit: a failed redeploy hid the live deployment; the latest successful deploy is now the
  // `deployment` resource, shown beside the latest run's failure.
  it('a failed redeploy keeps the live deployment on screen', async () => {
    const { user, wire } = await renderTwoDeployButtons();
    const [left] = deployRegions() as [HTMLElement, HTMLElement];
    await connectIn(user, left);
    await user.click(await within(left).findByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(shown().map((part) => part.state)).toEqual(['deployed', 'deployed']));
    const live = shown()[0]!.url;
    expect(live).toMatch(/^https:\/\//);
    wire.fail(
      (request) => request.path.endsWith('/deploy'),
      () => apiError(500, 'Server Error'),
    );
    await user.click(within(left).getByRole('button', { name: 'Redeploy' }));
    await waitFor(() => expect(shown().map((part) => part.state)).toEqual(['failed', 'failed']));
    expect(shown().map((part) => part.url)).toEqual([live, live]);
  });

  // Found by this audit: a deploy's "connection not found" reached the connection but not the listing; it now puts
  // the connection and reloads the listing, whose answer is also the end user's connection.
  it('a deploy that finds no connection: DeployButton and useDeploymentConnections agree', async () => {
    function Listing() {
      const connections = useDeploymentConnections('vercel');
      const mine = connections.data?.filter((connection) => connection.external_user_id === 'ada') ?? [];
      return <output data-testid="listing">{connections.status === 'success' ? String(mine.length) : ''}</output>;
    }
    const { user, wire } = await renderTwoDeployButtons(<Listing />);
    const [left] = deployRegions() as [HTMLElement, HTMLElement];
    await connectIn(user, left);
    await waitFor(() => expect(screen.getByTestId('listing')).toHaveTextContent('1'));
    // The connection is removed on the server's side, behind the page's back: the deploy finds none, and the
    // listing (asked now) has none for Ada.
    wire.fail(
      (request) => request.path.endsWith('/deploy'),
      () => apiError(404, agentApiMessages.deploymentConnectionNotFound),
    );
    wire.answer((request) => request.method === 'GET' && request.path === '/deployments/vercel/connections', []);
    await user.click(within(left).getByRole('button', { name: 'Deploy to Vercel' }));
    await waitFor(() => expect(shown().map((part) => part.connection)).toEqual(['missing', 'missing']));
    await waitFor(() => expect(screen.getByTestId('listing')).not.toHaveTextContent('1'), { timeout: 1_000 });
  });

  // Found by this audit: after a deploy the listing and the end user's connection disagreed on `last_used_at`; the
  // listing's answer now also writes each held connection of that provider, in the same update.
  it('after a deploy, useDeployment and useDeploymentConnections say the same about the connection', async () => {
    let seen: { own: unknown; listed: unknown } = { own: undefined, listed: undefined };
    function Both({ projectId }: { projectId: string }) {
      const own = useDeployment('vercel', projectId);
      const listing = useDeploymentConnections('vercel');
      seen = {
        own: own.data?.last_used_at,
        listed: listing.data?.find((connection) => connection.external_user_id === 'ada')?.last_used_at,
      };
      return null;
    }
    const { api, projectId } = await serverWithProject({ codehost: false });
    const { store } = renderWithMock(<Both projectId={projectId!} />, {
      mock: { api },
      provider: { externalUser: ada },
      store: {},
    });
    expect((await store!.getState().connectDeployment('vercel', 'ada', 'ada-account:token')).ok).toBe(true);
    expect((await store!.getState().deploy('vercel', projectId!, 'ada')).ok).toBe(true);
    await waitFor(() => expect(seen.listed).toEqual(expect.any(String)));
    expect(seen.own).toBe(seen.listed);
  });

  it('a refresh of the connection that answers after a connect never overwrites the connect', async () => {
    const { api, projectId } = await serverWithProject({ codehost: false });
    const wire = tap();
    const { store } = renderWithMock(<DeployButton provider="vercel" projectId={projectId!} />, {
      mock: { api },
      provider: { externalUser: ada },
      wrapTransport: wire.wrap,
      store: {},
    });
    await waitFor(() => expect(deployRegions()[0]).toHaveAttribute('data-state', 'missing'));
    // A refresh (the window came back, a Retry) reads "no connection" now, and its answer is late.
    const release = wire.hold((request) => request.path === '/deployments/vercel/connections');
    const refreshing = store!.getState().fetchResource(resourceSpecs.deploymentConnection('vercel', 'ada'));
    await waitFor(() =>
      expect(wire.sent.some((request) => request.path === '/deployments/vercel/connections')).toBe(true),
    );
    expect((await store!.getState().connectDeployment('vercel', 'ada', 'ada-account:token')).ok).toBe(true);
    await waitFor(() => expect(deployRegions()[0]).toHaveAttribute('data-connection', 'connected'));
    release();
    await refreshing;
    await act(async () => {});
    expect(deployRegions()[0]).toHaveAttribute('data-connection', 'connected');
    expect(selectResource(store!.getState(), resourceSpecs.deploymentConnection('vercel', 'ada')).data).not.toBeNull();
  });

  it('unmount and remount: the same cached connection, no second request', async () => {
    const { api, projectId } = await serverWithProject({ codehost: false });
    function Toggle() {
      const [shown, setShown] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setShown((value) => !value)}>
            toggle
          </button>
          {shown && <DeployButton provider="vercel" projectId={projectId!} />}
          {shown && <CodehostConnect navigate={() => {}} />}
        </>
      );
    }
    const { user } = renderWithMock(<Toggle />, { mock: { api }, provider: { externalUser: ada } });
    await waitFor(() => expect(deployRegions()[0]).toHaveAttribute('data-state', 'missing'));
    await waitFor(() => expect(codehostRegion()).toHaveAttribute('data-state', 'missing'));
    const count = () => api.admin.requests.length;
    const before = count();
    await user.click(screen.getByRole('button', { name: 'toggle' }));
    await user.click(screen.getByRole('button', { name: 'toggle' }));
    expect(deployRegions()[0]).toHaveAttribute('data-state', 'missing');
    expect(codehostRegion()).toHaveAttribute('data-state', 'missing');
    expect(count()).toBe(before);
  });
});

describe('projects: ProjectList beside ProjectStatus', () => {
  function renderProjects(wrap?: (transport: AgentTransport) => AgentTransport) {
    return renderWithMock(
      <>
        <GeneratePanel />
        <ProjectStatus />
        <ProjectList />
      </>,
      {
        provider: { externalUser: ada },
        store: { pollIntervalMs: 30, maxPollIntervalMs: 60 },
        ...(wrap === undefined ? {} : { wrapTransport: wrap }),
      },
    );
  }
  const status = () => document.querySelector<HTMLElement>('.ae-project-status')!;
  const statusName = () => status().querySelector('.ae-details dd')?.textContent ?? '';
  const row = () => document.querySelector<HTMLElement>('.ae-project-item[aria-current="true"]');

  it('a finished build: the list’s row and the status name the same project, phase and app', async () => {
    const { user } = renderProjects();
    await user.type(screen.getByLabelText('Describe the app you want'), prompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(status()).toHaveAttribute('data-phase', 'ready'));
    await waitFor(() => expect(row()).toHaveAttribute('data-phase', 'ready'));
    await waitFor(() => expect(statusName()).toBe('Portfolio Site'));
    expect(row()!.textContent).toContain(statusName());
    expect(status().querySelector('a')).not.toBeNull();
  });

  // Found by this audit: the list kept `name: null` after the project's status named it; a status answer now
  // updates that project's row in the cached list (ordered: a list answered after it already says it).
  it('the list’s answer names the project the status names, once the build has ended', async () => {
    const wire = tap();
    const { user, store } = renderProjects(wire.wrap);
    await waitFor(() => expect(selectResource(store!.getState(), resourceSpecs.projects).status).toBe('success'));
    const listLoadedAt = selectResource(store!.getState(), resourceSpecs.projects).updatedAt!;
    // The status answers are slow today: they arrive after the list was loaded again.
    const release = wire.defer((request) => request.method === 'GET' && request.path.startsWith('/agent/project/'));
    await user.type(screen.getByLabelText('Describe the app you want'), prompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(status()).toHaveAttribute('data-phase', 'ready'));
    const projectId = store!.getState().generations[store!.getState().currentKey!]!.projectId!;
    const listed = () =>
      selectResource(store!.getState(), resourceSpecs.projects).data?.find((item) => item.project_id === projectId);
    await waitFor(() => {
      expect(selectResource(store!.getState(), resourceSpecs.projects).updatedAt).toBeGreaterThan(listLoadedAt);
      expect(listed()).toBeDefined();
    });
    release();
    await waitFor(() => expect(statusName()).toBe('Portfolio Site'));
    expect(row()!.textContent).toContain('Portfolio Site');
    await waitFor(() => expect(listed()?.name, JSON.stringify(listed())).toBe(statusName()), { timeout: 1_000 });
  });
});

describe('usage: two meters and GeneratePanel’s hold', () => {
  const resetsAt = new Date(Date.now() + 3 * 3_600_000).toISOString();

  /** A proxy with a quota of `limit` builds, kept across pages (renders). */
  function quota(limit: number, startUsed: number) {
    let used = startUsed;
    const wrap = (inner: AgentTransport): AgentTransport => ({
      json: async (request) =>
        request.path === '/usage'
          ? ({ status: true, used, limit, resets_at: resetsAt, period: 'day' } satisfies Usage & { status: true })
          : inner.json(request),
      stream: async (request, handlers) => {
        if (used >= limit) {
          const body = { status: false, message: 'The build limit for this period has been reached.' };
          const details = { code: 'quota_exceeded', used, limit, resets_at: resetsAt, period: 'day' };
          throw errorFromResponse(
            429,
            new Headers({ 'retry-after': '10800' }),
            JSON.stringify({ ...body, ...details }),
          );
        }
        used++;
        return inner.stream(request, handlers);
      },
    });
    return { wrap };
  }

  const meters = () => [...document.querySelectorAll('.ae-usage')].map((meter) => meter.textContent);

  it('the last build: both meters say none left, Generate holds, and the next page says the same', async () => {
    const server = quota(20, 19);
    const ui = (
      <>
        <UsageMeter />
        <GeneratePanel />
        <UsageMeter />
      </>
    );
    const { user } = renderWithMock(ui, { provider: { externalUser: ada }, wrapTransport: server.wrap });
    await waitFor(() => expect(meters()).toEqual(['1 of 20 builds left today', '1 of 20 builds left today']));
    await user.type(screen.getByLabelText('Describe the app you want'), prompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(meters()[0]).toMatch(/^0 of 20 builds left today/));
    expect(meters()[1]).toBe(meters()[0]);
    const send = () => document.querySelector<HTMLButtonElement>('.ae-panel button[type="submit"]')!;
    await waitFor(() => expect(send()).toBeDisabled());
    const shownBefore = meters();
    cleanupRendered();
    renderWithMock(ui, { provider: { externalUser: ada }, wrapTransport: server.wrap });
    await waitFor(() => expect(meters()).toEqual(shownBefore));
    expect(send()).toBeDisabled();
  });

  // Found by this audit: with no UsageMeter mounted, a quota refusal left Generate enabled; the refusal's quota is
  // now written into the usage resource that the hold reads.
  it('GeneratePanel alone (no meter): after a quota refusal it holds Generate as its alert says', async () => {
    const server = quota(20, 20);
    const { user, generationPosts } = renderWithMock(<GeneratePanel />, {
      provider: { externalUser: ada },
      wrapTransport: server.wrap,
    });
    await user.type(screen.getByLabelText('Describe the app you want'), prompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/You have used today’s 20 builds/);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Generate' })).toBeDisabled(), { timeout: 1_000 });
    expect(generationPosts()).toHaveLength(0);
  });

  it('a usage refresh that fails keeps the last answer in every meter and the hold', async () => {
    const server = quota(20, 20);
    const wire = tap();
    const { store } = renderWithMock(
      <>
        <UsageMeter />
        <GeneratePanel />
        <UsageMeter />
      </>,
      { provider: { externalUser: ada }, wrapTransport: (inner) => wire.wrap(server.wrap(inner)), store: {} },
    );
    await waitFor(() => expect(meters()[0]).toMatch(/^0 of 20 builds left today/));
    wire.fail(
      (request) => request.path === '/usage',
      () => apiError(500, 'Server Error'),
    );
    await act(async () => void (await store!.getState().fetchResource(resourceSpecs.usage)));
    store!.getState().invalidate('usage');
    await waitFor(() => expect(selectResource(store!.getState(), resourceSpecs.usage).status).toBe('error'));
    expect(meters()[1]).toBe(meters()[0]);
    expect(meters()[0]).toMatch(/^0 of 20 builds left today/);
    expect(screen.getByRole('button', { name: 'Generate' })).toBeDisabled();
  });
});

describe('the next page: what was published, after a failed redeploy and a failed re-link', () => {
  it('a reload still has the live deployment and the repository the server links', async () => {
    const { api, projectId } = await serverWithProject();
    const wire = tap();
    const storage = createMemoryStorage();
    const transport = wire.wrap(createMockTransport({ api, externalUser: ada }));
    const page = () => createAgentStore({ client: createAgentClient({ transport }), storage });
    const first = page();
    expect((await first.getState().connectDeployment('vercel', 'ada', 'ada-account:token')).ok).toBe(true);
    const deployed = await first.getState().deploy('vercel', projectId!, 'ada');
    const listed = await first.getState().loadRepositories('ada', { perPage: 5 });
    const [a, b] = (listed.ok ? listed.data.items : []).map((item) => {
      const [owner, name] = item.full_name.split('/') as [string, string];
      return { owner, name };
    });
    expect((await first.getState().linkRepository(projectId!, 'ada', a!)).ok).toBe(true);
    wire.fail(
      (request) => request.path.endsWith('/deploy') || request.path.endsWith('/link'),
      () => apiError(500, 'Server Error'),
    );
    expect((await first.getState().deploy('vercel', projectId!, 'ada')).ok).toBe(false);
    expect((await first.getState().linkRepository(projectId!, 'ada', b!)).ok).toBe(false);
    first.destroy();

    const second = page();
    const live = selectResource(second.getState(), resourceSpecs.deployment('vercel', projectId!)).data;
    expect(live?.url).toBe(deployed.ok ? deployed.data.url : 'a deployment');
    expect(selectResource(second.getState(), resourceSpecs.linkedRepository(projectId!)).data?.repository).toEqual(a);
    expect(serverLink(api, projectId!)).toBe(`${a!.owner}/${a!.name}`);
    second.destroy();
  });
});
