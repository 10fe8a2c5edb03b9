/**
 * One app, one answer: the parts that ship an app (DeployButton, RepoPicker, the builder's Publish sheet) read
 * which project has an app from the project view, as ProjectStatus and AppPreview do, so they never disagree.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppPreview, DeployButton, GeneratePanel, ProjectStatus } from 'agent-embed';
import { mutationKeys, selectMutation, type AgentTransport } from 'agent-embed/core';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada = { id: 'ada', name: 'Ada', email: 'ada@example.test' };

/** The builder's parts that show an app and the one that deploys it, for Ada with a Vercel connection. */
async function renderWithApp(wrapTransport?: (transport: AgentTransport) => AgentTransport) {
  const rendered = renderWithMock(
    <>
      <GeneratePanel />
      <ProjectStatus />
      <AppPreview />
      <DeployButton provider="vercel" />
    </>,
    { provider: { externalUser: ada }, store: {}, ...(wrapTransport === undefined ? {} : { wrapTransport }) },
  );
  const { user, store } = rendered;
  expect((await store!.getState().connectDeployment('vercel', 'ada', 'studio-ada:vercel-secret-8841')).ok).toBe(true);
  await user.type(screen.getByLabelText('Describe the app you want'), 'A habit tracker with streaks');
  await user.click(screen.getByRole('button', { name: 'Generate' }));
  const deploySection = () => screen.getByRole('region', { name: 'Publish to the web' });
  const deployButton = () => within(deploySection()).getByRole('button', { name: 'Deploy to Vercel' });
  await waitFor(() => expect(deployButton()).toBeEnabled());
  const projectId = store!.getState().generations[store!.getState().currentKey!]!.projectId!;
  const sendFollowUp = async () => {
    await user.type(screen.getByRole('textbox'), 'Add a dark mode toggle please');
    await user.click(screen.getByRole('button', { name: 'Send follow-up' }));
  };
  return { ...rendered, deploySection, deployButton, projectId, sendFollowUp };
}

describe('the project deploy acts on', () => {
  it('is still the app after a follow-up refused before any event: status, preview and deploy all say it is there', async () => {
    const { transport, deploySection, deployButton, sendFollowUp } = await renderWithApp();
    transport.api.admin.injectFault({ kind: 'rate_limited', retryAfterSeconds: 30, route: 'followUp' });
    await sendFollowUp();
    await waitFor(() => expect(screen.getByRole('form')).toHaveAttribute('data-state', 'failed'));
    expect(document.querySelector('.ae-project-status')).toHaveAttribute('data-phase', 'ready');
    expect(document.querySelector('.ae-preview')).toHaveAttribute('data-state', 'ready');
    expect(deployButton()).toBeEnabled();
    expect(deploySection()).not.toHaveTextContent('Generate an app first');
  });

  it('keeps a deploy in flight on screen while a follow-up changes the app, and waits for the build to deploy again', async () => {
    let releaseDeploy: (() => void) | undefined;
    const holdDeploy = (transport: AgentTransport): AgentTransport => ({
      json: async (request) => {
        if (request.method === 'POST' && request.path.endsWith('/deploy'))
          await new Promise<void>((resolve) => (releaseDeploy = resolve));
        return transport.json(request);
      },
      stream: (request, handlers) => transport.stream(request, handlers),
    });
    const { user, store, transport, deploySection, deployButton, projectId, sendFollowUp } =
      await renderWithApp(holdDeploy);
    await user.click(deployButton());
    await waitFor(() => expect(deploySection()).toHaveAttribute('data-state', 'deploying'));

    // The follow-up's stream stays open after two events: the app is being changed.
    transport.api.admin.injectFault({ kind: 'pause_after', events: 2, route: 'followUp' });
    await sendFollowUp();
    await waitFor(() => expect(screen.getByRole('form')).toHaveAttribute('data-state', 'generating'));
    expect(selectMutation(store!.getState(), mutationKeys.deploy('vercel', projectId)).status).toBe('pending');
    expect(deploySection()).toHaveAttribute('data-state', 'deploying');
    expect(deploySection()).toHaveTextContent('Deploying to Vercel…');
    expect(deploySection()).toHaveTextContent('You can deploy once the changes are built.');
    expect(deploySection()).not.toHaveTextContent('Generate an app first');
    expect(deployButton()).toBeDisabled();

    releaseDeploy?.();
    await waitFor(() => expect(deploySection()).toHaveTextContent('Deployed'));
    // Deploying again waits for the follow-up: the app's code is still being written.
    expect(within(deploySection()).getByRole('button', { name: 'Redeploy' })).toBeDisabled();
  });
});
