import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GeneratePanel, LiveBuildLog, type GenerationActionResult } from 'agent-embed';
import { AgentApiError } from 'agent-embed/core';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

const validPrompt = 'A habit tracker with streaks';

describe('GeneratePanel validation', () => {
  it('checks the 10-character minimum before sending, inline, with the API message', async () => {
    const { user, generationPosts } = renderWithMock(<GeneratePanel />);
    const prompt = screen.getByLabelText('Describe the app you want');
    await user.type(prompt, '  short   ');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const message = screen.getByText('The prompt must be at least 10 characters.');
    expect(prompt).toHaveAttribute('aria-invalid', 'true');
    expect(prompt.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    expect(prompt).toHaveAccessibleDescription(
      'Say what it is for, the pages it needs and the look you want. The prompt must be at least 10 characters.',
    );
    expect(prompt).toHaveFocus();
    expect(generationPosts()).toHaveLength(0);
    // Editing clears the client-side error.
    await user.type(prompt, ' more text');
    expect(prompt).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('The prompt must be at least 10 characters.')).not.toBeInTheDocument();
  });

  it('the validation message comes from labels', async () => {
    const { user } = renderWithMock(<GeneratePanel />, {
      provider: { labels: { generatePanel: { promptTooShort: 'Mindestens 10 Zeichen.' } } },
    });
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(screen.getByText('Mindestens 10 Zeichen.')).toBeInTheDocument();
  });

  it('shows server field errors inline on the prompt and focuses it', async () => {
    // A server with a rule the client does not know.
    const { user, generationPosts, container } = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
      </>,
      {
        wrapTransport: (mock) => ({
          json: (request) => mock.json(request),
          stream: (request, handlers) =>
            (request.body as { prompt: string }).prompt.includes('lorem')
              ? Promise.reject(
                  new AgentApiError('validation', 'The given data was invalid.', {
                    status: 422,
                    fieldErrors: { prompt: ['The prompt may not contain placeholder text.'] },
                  }),
                )
              : mock.stream(request, handlers),
        }),
      },
    );
    const prompt = screen.getByLabelText('Describe the app you want');
    await user.type(prompt, 'lorem ipsum dolor sit amet');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const message = await screen.findByText('The prompt may not contain placeholder text.');
    expect(prompt).toHaveAttribute('aria-invalid', 'true');
    expect(prompt.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    await waitFor(() => expect(prompt).toHaveFocus());
    expect(screen.getByRole('form', { name: 'Create an app' })).toHaveAttribute('data-state', 'failed');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(generationPosts()).toHaveLength(0);
    expect(container.querySelector('.ae-build-log')).toHaveAttribute('data-state', 'failed');
    // Fixing the prompt and sending again works.
    await user.clear(prompt);
    await user.type(prompt, validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() =>
      expect(screen.getByRole('form', { name: 'Refine your app' })).toHaveAttribute('data-state', 'completed'),
    );
    expect(screen.queryByText('The prompt may not contain placeholder text.')).not.toBeInTheDocument();
  });

  it('shows other refusals in an alert that takes focus (suspended team)', async () => {
    const { user, transport } = renderWithMock(<GeneratePanel />);
    transport.api.admin.suspendTeam();
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your app could not be started');
    expect(alert).toHaveTextContent('This feature is paused for now.');
    expect(alert).not.toHaveTextContent('This team is currently suspended.');
    expect(alert).toHaveAttribute('data-kind', 'suspended');
    await waitFor(() => expect(alert).toHaveFocus());
    expect(screen.getByLabelText('Describe the app you want')).not.toHaveAttribute('aria-invalid');
  });

  it('names a refused change as a change, not as an app that could not be started', async () => {
    const { user, transport } = renderWithMock(<GeneratePanel />);
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const followUp = await screen.findByLabelText('What should change?');
    transport.api.admin.injectFault({ kind: 'rate_limited', retryAfterSeconds: 30, route: 'followUp' });
    await user.type(followUp, 'Make the header sticky please');
    await user.click(screen.getByRole('button', { name: 'Send follow-up' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your change could not be sent');
    expect(alert).not.toHaveTextContent('could not be started');
  });
});

describe('one POST per user action', () => {
  it('a double click sends one POST and reports one outcome', async () => {
    const onComplete = vi.fn<(result: GenerationActionResult) => void>();
    const { user, generationPosts, transport } = renderWithMock(<GeneratePanel onComplete={onComplete} />);
    // Slow events keep the generation running across both clicks, as a real one would.
    transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 10_000 });
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.dblClick(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() =>
      expect(screen.getByRole('form', { name: 'Create an app' })).toHaveAttribute('data-state', 'provisioning'),
    );
    expect(generationPosts()).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Stop watching' }));
    await waitFor(() => expect(onComplete).toHaveBeenCalledTimes(1));
    expect(onComplete.mock.calls[0]![0].outcome).toBe('aborted');
    expect(generationPosts()).toHaveLength(1);
  });

  it('two clicks in the same tick, before React re-renders, still send one POST', async () => {
    const onComplete = vi.fn<(result: GenerationActionResult) => void>();
    const { user, generationPosts } = renderWithMock(<GeneratePanel onComplete={onComplete} />);
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    const button = screen.getByRole('button', { name: 'Generate' });
    act(() => {
      button.click();
      button.click();
      button.click();
    });
    await waitFor(() => expect(onComplete).toHaveBeenCalledTimes(1));
    expect(generationPosts()).toHaveLength(1);
  });

  it('the click’s task renders nothing: its state renders in a task of its own, and the POST goes after it', async () => {
    // For each commit of the panel, the POSTs sent by then.
    const commits: number[] = [];
    let posts = () => 0;
    const rendered = renderWithMock(
      <Profiler id="panel" onRender={() => commits.push(posts())}>
        <GeneratePanel />
      </Profiler>,
    );
    posts = () => rendered.generationPosts().length;
    const prompt = screen.getByLabelText('Describe the app you want');
    fireEvent.change(prompt, { target: { value: validPrompt } });
    const before = commits.length;
    fireEvent.submit(screen.getByRole('form', { name: 'Create an app' }));
    // The click's task (its handler, React's work for it) ends with nothing rendered and nothing sent…
    expect(commits).toHaveLength(before);
    expect(posts()).toBe(0);
    await waitFor(() => expect(posts()).toBe(1));
    // …its state was rendered first, before the POST went.
    expect(commits.slice(before)[0]).toBe(0);
  });

  it('React StrictMode sends one POST (and resumes without any)', async () => {
    const { user, generationPosts } = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
      </>,
      { strict: true },
    );
    expect(generationPosts()).toHaveLength(0);
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Build progress' })).toHaveAttribute('data-state', 'completed'),
    );
    expect(generationPosts()).toHaveLength(1);
  });
});

/** Resolves after the next animation frame's callbacks. */
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

describe('focus', () => {
  it('stays where it is for a build the person did not start here (a store action, a resume after a reload)', async () => {
    const { transport, store } = renderWithMock(
      <>
        <button type="button">Elsewhere</button>
        <GeneratePanel />
        <LiveBuildLog />
      </>,
      { store: {} },
    );
    transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 10_000 });
    expect(document.body).toHaveFocus();
    act(() => void store!.getState().generate({ prompt: validPrompt }));
    const log = screen.getByRole('region', { name: 'Build progress' });
    await waitFor(() => expect(log).toHaveAttribute('data-state', 'provisioning'));
    await nextFrame(); // where focus would move
    expect(screen.getByRole('button', { name: 'Stop watching' })).not.toHaveFocus();
    expect(document.body).toHaveFocus();
    act(() => store!.getState().stopWatching());
    await waitFor(() => expect(log).toHaveAttribute('data-state', 'aborted'));
    await nextFrame();
    expect(screen.getByLabelText('What should change?')).not.toHaveFocus();
    expect(document.body).toHaveFocus();
  });
});

describe('focus on a person’s submit', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('moves to Stop watching in the next frame, not in the commit that shows it (a layout of its own there)', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', () => {});
    const { user, transport } = renderWithMock(<GeneratePanel />);
    transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 10_000 });
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const cancel = screen.getByRole('button', { name: 'Stop watching' });
    expect(cancel).not.toHaveFocus();
    act(() => {
      for (const frame of frames.splice(0)) frame(0);
    });
    expect(cancel).toHaveFocus();
  });
});

describe('cancel', () => {
  it('aborts the running generation, ends in aborted and frees the form', async () => {
    const { user, transport, generationPosts } = renderWithMock(
      <>
        <GeneratePanel />
        <LiveBuildLog />
      </>,
    );
    // Every event after project_created waits 10 s: the generation is still running when we cancel.
    transport.api.admin.injectFault({ kind: 'slow_drip', intervalMs: 10_000 });
    await user.type(screen.getByLabelText('Describe the app you want'), validPrompt);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const log = screen.getByRole('region', { name: 'Build progress' });
    await waitFor(() => expect(log).toHaveAttribute('data-state', 'provisioning'));
    expect(screen.getByRole('button', { name: 'Working…' })).toBeDisabled();
    expect(screen.getByLabelText('Describe the app you want')).toBeDisabled();
    const cancel = screen.getByRole('button', { name: 'Stop watching' });
    // The submit button was disabled under the keyboard; focus moves in the next frame.
    await waitFor(() => expect(cancel).toHaveFocus());
    await user.click(cancel);
    await waitFor(() => expect(log).toHaveAttribute('data-state', 'aborted'));
    // The API has no cancel: the copy says the build may still finish, and the project is still watched.
    expect(log.querySelector('.ae-outcome[data-phase="stopped"]')).toHaveTextContent(
      'You stopped watching this build.',
    );
    expect(log.querySelector('.ae-outcome[data-phase="stopped"]')).toHaveTextContent(
      'It may still finish on the server',
    );
    expect(within(log).getByRole('log')).toHaveTextContent('Stopped watching. The build may still finish.');
    // The panel stays the project's: its change waits for the build the server may still be running, and says so,
    // as the log does (not a form for a new app, beside a log about this one).
    const form = screen.getByRole('form', { name: 'Refine your app' });
    expect(form).toHaveAttribute('data-state', 'aborted');
    const send = screen.getByRole('button', { name: 'Send follow-up' });
    expect(send).toBeDisabled();
    expect(send).toHaveAccessibleDescription('This app is being built. You can send a follow-up once it is done.');
    expect(screen.queryByRole('button', { name: 'Generate' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop watching' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('What should change?')).toHaveFocus());
    // Written meanwhile, the change is not sent.
    await user.type(screen.getByLabelText('What should change?'), 'Add a contact page with a form');
    fireEvent.submit(form);
    expect(transport.api.admin.requests.filter((request) => request.method === 'POST')).toEqual(generationPosts());
    expect(generationPosts()).toHaveLength(1);
  });
});
