/**
 * A new project's POST whose connection fails before any answer may have reached the server all the same: the
 * prompt box says the connection dropped (not that the app "could not be started") and that a build started anyway
 * shows up among the projects; the store asks for the project list once more a little later, where it does, and
 * never sends the POST again. A refusal with a status was one, and reads as before. A change to an existing app lost
 * the same way says it may have reached the server.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GeneratePanel, LiveBuildLog, ProjectList } from 'agent-embed';
import { AgentApiError, createHttpTransport, type AgentLifecycleEvent, type ProjectSummary } from 'agent-embed/core';
import { createManualTimers } from '../store/fakes.js';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const prompt = 'A landing page for a bakery';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * The agency's proxy as a fetch: the generate POST is handed over and then fails as `answer` says (by default the
 * network's TypeError, before any byte of the answer); the project list names what the test says the server built.
 */
function agencyFetch(answer: () => Promise<Response> = () => Promise.reject(new TypeError('Failed to fetch'))) {
  const posts: string[] = [];
  const listRequests: string[] = [];
  const otherRequests: string[] = [];
  const built: ProjectSummary[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (init?.method === 'POST') {
      posts.push(url.pathname);
      return answer();
    }
    if (url.pathname.endsWith('/projects')) {
      listRequests.push(url.pathname);
      return json({ projects: built });
    }
    otherRequests.push(url.pathname);
    return json({ status: false, message: 'Not found.' }, 404);
  };
  return {
    fetch,
    posts,
    listRequests,
    otherRequests,
    /** The server built the app all the same, and names it in the list from now on. */
    named(projectId: string) {
      const at = new Date().toISOString();
      built.push({
        project_id: projectId,
        name: 'Bakery landing page',
        app_url: null,
        project_status: 'generating',
        created_at: at,
        updated_at: at,
      });
    },
  };
}

/** The prompt box beside the project list, over that fetch, with the store's timers in the test's hand. */
function renderOver(agency: ReturnType<typeof agencyFetch>) {
  const timers = createManualTimers(Date.now());
  const transport = createHttpTransport({ baseUrl: 'https://agency.example.test/api/agent', fetch: agency.fetch });
  const rendered = renderWithMock(
    <>
      <GeneratePanel />
      <ProjectList />
    </>,
    {
      provider: { externalUser: ada },
      store: { setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout },
      wrapTransport: () => transport,
    },
  );
  const list = screen.getByRole('region', { name: 'Your projects' });
  const form = screen.getByRole('form', { name: 'Create an app' });
  return { ...rendered, timers, list, form, rows: () => within(list).queryAllByRole('button') };
}

describe('the connection drops before any answer to a new project', () => {
  it('says the connection dropped, sends nothing again, and asks for the list once more, where the build shows up', async () => {
    const agency = agencyFetch();
    const { user, timers, list, form, rows } = renderOver(agency);
    await waitFor(() => expect(list).toHaveAttribute('data-state', 'success'));
    expect(agency.listRequests).toHaveLength(1);

    await user.type(screen.getByLabelText('Describe the app you want'), prompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('The connection dropped');
    expect(alert).toHaveTextContent('If your app started building anyway, it will show up among your projects.');
    expect(alert).not.toHaveTextContent('could not be started');
    expect(alert).toHaveAttribute('data-kind', 'network');
    // The prompt comes back to the box, as after any refusal: sending it again is the person's own click.
    await waitFor(() => expect(screen.getByLabelText('Describe the app you want')).toHaveValue(prompt));
    // The end of the attempt reloads the list at once, as any ended build does; the server has not named it yet.
    await waitFor(() => expect(agency.listRequests).toHaveLength(2));
    await waitFor(() => expect(list).toHaveAttribute('data-state', 'success'));
    expect(rows()).toHaveLength(0);

    // Meanwhile the server, which had the POST after all, names the project.
    agency.named('proj_bakery');
    await timers.advance(10_000);
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent('Bakery landing page');
    expect(agency.listRequests).toHaveLength(3);

    // Once, and never the POST again.
    await timers.advance(120_000);
    expect(agency.listRequests).toHaveLength(3);
    expect(agency.posts).toEqual(['/api/agent/agent/generate']);
    expect(timers.pending()).toEqual([]);
  });

  it('a refusal with a status was one: the app could not be started, and the list is not asked again later', async () => {
    const agency = agencyFetch(async () => json({ status: false, message: 'The service is unavailable.' }, 503));
    const { user, timers, list, form } = renderOver(agency);
    await waitFor(() => expect(list).toHaveAttribute('data-state', 'success'));

    await user.type(screen.getByLabelText('Describe the app you want'), prompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('Your app could not be started');
    expect(alert).not.toHaveTextContent('The connection dropped');
    await waitFor(() => expect(agency.listRequests).toHaveLength(2));
    expect(timers.pending()).toEqual([]);
    await timers.advance(120_000);
    expect(agency.listRequests).toHaveLength(2);
    expect(agency.posts).toHaveLength(1);
  });
});

describe('the connection drops before any answer to a change', () => {
  it('says the change may have reached the server, not that it could not be sent, and sends nothing again', async () => {
    let lose = false;
    const { user, generationPosts } = renderWithMock(<GeneratePanel />, {
      wrapTransport: (inner) => ({
        json: (request) => inner.json(request),
        stream: (request, handlers) =>
          lose && request.path.startsWith('/agent/generate/')
            ? Promise.reject(new AgentApiError('network', 'The Agent API could not be reached.'))
            : inner.stream(request, handlers),
      }),
    });
    await user.type(screen.getByLabelText('Describe the app you want'), prompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const change = await screen.findByLabelText('What should change?');
    lose = true;
    await user.type(change, 'Make the header sticky please');
    await user.click(screen.getByRole('button', { name: 'Send follow-up' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The connection dropped');
    expect(alert).toHaveTextContent('Your change may have reached the server. Check your app before sending it again.');
    expect(alert).not.toHaveTextContent('could not be sent');
    // The first build's POST is the mock's only one: the lost change is not sent again.
    expect(generationPosts()).toHaveLength(1);
  });
});

describe('a change whose answer was lost, which the server builds all the same', () => {
  it('is followed once found building: the alert goes, the change leaves the box, and the log shows it to its end', async () => {
    const timers = createManualTimers(Date.now());
    let lose = false;
    const milestones: AgentLifecycleEvent[] = [];
    const { user, transport, generationPosts } = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
      </>,
      {
        store: { setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout, pollIntervalMs: 1_000 },
        provider: { onEvent: (event) => milestones.push(event) },
        // The change reaches the server (the mock builds it); its answer never reaches the page.
        wrapTransport: (inner) => ({
          json: (request) => inner.json(request),
          async stream(request, handlers) {
            if (!lose || !request.path.startsWith('/agent/generate/')) return inner.stream(request, handlers);
            const { signal: _page, ...sent } = request;
            void inner.stream(sent, { onEvent: () => undefined }).catch(() => undefined);
            throw new AgentApiError('network', 'The Agent API could not be reached.');
          },
        }),
      },
    );
    await user.type(screen.getByLabelText('Describe the app you want'), prompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const change = await screen.findByLabelText('What should change?');
    // The change builds slowly at the server, so the page sees it under way.
    transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 20, route: 'followUp' });
    lose = true;
    await user.type(change, 'Make the header sticky please');
    await user.click(screen.getByRole('button', { name: 'Send follow-up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your change may have reached the server.');
    expect(change).toHaveValue('Make the header sticky please');
    const log = screen.getByRole('region', { name: 'Build progress' });

    // A moment later the store asks: the proxy relays the change, so its status says it builds. It did reach the
    // server: the alert that said it might have goes, the change leaves the box as a started one does, and the log
    // follows it (its events replayed through the proxy).
    await timers.advance(3_000);
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(change).toHaveValue('');
    expect(change).toBeDisabled();
    expect(log.getAttribute('data-phase')).toMatch(/^(recovering|generating)$/);

    // Followed to its end: the log says it is done, and the box takes a change again, with nothing left of the alert.
    await waitFor(
      async () => {
        await timers.advance(1_000);
        expect(log).toHaveAttribute('data-phase', 'ready');
      },
      { timeout: 10_000 },
    );
    expect(screen.getByRole('button', { name: 'Send follow-up' })).toBeEnabled();
    expect(change).toHaveValue('');
    expect(screen.queryByRole('alert')).toBeNull();
    // The agency's analytics hear the change end as lost, then, found, end again as it did.
    const ends = milestones.filter((event) => event.type === 'generation_ended' && event.kind === 'followUp');
    expect(ends.map((event) => 'outcome' in event && event.outcome)).toEqual(['failed', 'completed']);
    expect(generationPosts()).toHaveLength(2);
  });
});
