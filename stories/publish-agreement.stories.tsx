/**
 * The Publish parts side by side (deploy, the code-host connection, the repository), each story a state in which
 * two of them show the same server datum: the connected account and its repositories, the linked repository and
 * the save to it. Each story asserts that the parts tell one story, as the server does. Every state is set up
 * through the store before the story renders, as the parts' own buttons and the return from the install page do.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { CodehostConnect, DeployButton, RepoPicker } from 'agent-embed';
import { resourceSpecs } from 'agent-embed/core';
import { expect, waitFor, within } from 'storybook/test';
import { agentParameters, installCodehost, storyUser } from './story-agent.js';
import { codehostConnected, codehostLinked, codehostPushedToNew, projectAndRepository } from './story-states.js';

/** The parts of the builder's Publish sheet, spaced as there. */
function PublishParts() {
  return (
    <div style={{ display: 'grid', gap: 16 }}>
      <DeployButton provider="vercel" />
      {/* Stories never leave the page. */}
      <CodehostConnect navigate={() => {}} />
      <RepoPicker perPage={10} />
    </div>
  );
}

const meta = {
  title: 'Publish/All parts agree',
  component: PublishParts,
} satisfies Meta<typeof PublishParts>;

export default meta;
type Story = StoryObj<typeof meta>;

function parts(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  const codehost = canvas.getByRole('region', { name: 'Save the code to GitHub' });
  const picker = canvas.getByRole('region', { name: 'Repository' });
  return {
    codehost,
    picker,
    pickerView: within(picker),
    repositoryNames: () =>
      within(within(picker).getByRole('listbox', { name: 'Repositories' }))
        .getAllByRole('option')
        .map((option) => option.querySelector('.ae-repo-name')?.textContent ?? ''),
  };
}

/** The parts, once the picker lists the repositories (a save's answer may be shown before the list). */
async function listing(canvasElement: HTMLElement) {
  const shown = parts(canvasElement);
  await waitFor(() => expect(shown.picker).toHaveAttribute('data-state', 'ready'));
  return shown;
}

/** Asserts that the one box and the one action name `fullName`, the linked repository. */
async function expectLinkedShown(canvasElement: HTMLElement, fullName: string, listed = true) {
  const { pickerView } = await listing(canvasElement);
  // The list marks the same repository, when this page lists it.
  const marked = pickerView
    .getAllByRole('option')
    .filter((option) => within(option).queryByText('Linked') !== null)
    .map((option) => option.querySelector('.ae-repo-name')?.textContent);
  await expect(marked).toEqual(listed ? [fullName] : []);
  const boxes = pickerView.getAllByRole('status').filter((box) => box.classList.contains('ae-outcome'));
  await expect(boxes).toHaveLength(1);
  await expect(boxes[0]).toHaveTextContent(fullName);
  await expect(pickerView.getByRole('link', { name: `codehost.agent-embed.test/${fullName}` })).toHaveAttribute(
    'href',
    `https://codehost.agent-embed.test/${fullName}`,
  );
  // One push action, to the repository the box names: no other repository is offered.
  const pushes = pickerView.getAllByRole('button', { name: /^Save the code to / });
  await expect(pushes.map((button) => button.textContent)).toEqual([`Save the code to ${fullName}`]);
  await expect(pickerView.queryByRole('button', { name: /^Use / })).not.toBeInTheDocument();
}

export const ReconnectedToAnotherAccount: Story = {
  name: 'Reconnected to another GitHub account: its repositories, none of the old one’s',
  parameters: agentParameters(
    codehostConnected({}, async (agent) => {
      // The picker listed the first account's repositories on this page…
      const connection = resourceSpecs.codehostConnection(storyUser.id);
      await agent.store.getState().fetchResource(connection);
      await agent.store.getState().loadRepositories(storyUser.id, { perPage: 10 });
      // …then the end user installed the app for another account, and came back: the connection is read again.
      await installCodehost(agent, 'Ada Byron');
      await agent.store.getState().fetchResource(connection);
    }),
  ),
  play: async ({ canvasElement }) => {
    const { codehost, picker, pickerView, repositoryNames } = await listing(canvasElement);
    await waitFor(() => expect(codehost).toHaveAttribute('data-state', 'connected'));
    await expect(within(codehost).getByText('Connected as ada-byron')).toBeInTheDocument();
    const names = repositoryNames();
    await expect(names.length).toBeGreaterThan(0);
    await expect(names.filter((name) => !name.startsWith('ada-byron/'))).toEqual([]);
    await expect(picker).not.toHaveTextContent('ada-lovelace');
    await expect(pickerView.getByText(/^Page 1 of \d+ · \d+ repositories$/)).toBeInTheDocument();
  },
};

export const PushedToTheLinkedRepository: Story = {
  name: 'Saved to the linked repository: it stays linked, the action names it',
  parameters: agentParameters(
    codehostLinked(1, (agent, projectId) => agent.store.getState().pushRepository(projectId, storyUser.id)),
  ),
  play: async ({ canvasElement }) => {
    const { picker, pickerView, repositoryNames } = await listing(canvasElement);
    await expect(picker).toHaveAttribute('data-push', 'success');
    await expect(picker).toHaveAttribute('data-link', 'success');
    const linked = repositoryNames()[1] ?? '';
    await expect(pickerView.getByText(`Saved your code to ${linked}`)).toBeInTheDocument();
    await expectLinkedShown(canvasElement, linked);
    await expect(pickerView.queryByRole('alert')).not.toBeInTheDocument();
  },
};

export const PushedByNameWithNothingLinked: Story = {
  name: 'Saved to a new repository with nothing linked: it is linked now',
  parameters: agentParameters(codehostPushedToNew('yoga-studio-site')),
  play: async ({ canvasElement }) => {
    const { picker, pickerView } = await listing(canvasElement);
    await expect(picker).toHaveAttribute('data-push', 'success');
    await expect(pickerView.getByText('Created ada-lovelace/yoga-studio-site and saved your code')).toBeInTheDocument();
    await expectLinkedShown(canvasElement, 'ada-lovelace/yoga-studio-site');
    await expect(pickerView.queryByText('Choose the repository for this app’s code.')).not.toBeInTheDocument();
  },
};

export const RelinkFailed: Story = {
  name: 'Choosing another repository failed: the linked one stays, beside the failure naming the refused one',
  parameters: agentParameters(
    codehostLinked(0, async (agent, projectId) => {
      const { repository } = await projectAndRepository(agent, 1);
      await agent.admin.injectFault({ kind: 'http_500', route: 'linkRepository' });
      await agent.store.getState().linkRepository(projectId, storyUser.id, repository);
    }),
  ),
  play: async ({ canvasElement }) => {
    const { picker, pickerView, codehost, repositoryNames } = await listing(canvasElement);
    await expect(picker).toHaveAttribute('data-link', 'error');
    const [linked = '', refused = ''] = repositoryNames();
    const alert = pickerView.getByRole('alert');
    // The refused repository is named: under the linked one's box and button, an unnamed failure reads as theirs.
    await expect(alert).toHaveTextContent(`${refused} could not be chosen`);
    await expect(alert).toHaveTextContent('Something went wrong on our side. Try again in a moment.');
    await expect(pickerView.getByText(`Your code goes to ${linked}`)).toBeInTheDocument();
    await expectLinkedShown(canvasElement, linked);
    await expect(picker.querySelector('.ae-outcome')).not.toHaveTextContent(refused);
    // The failure is the repository's, not the connection's.
    await expect(codehost).toHaveAttribute('data-state', 'connected');
  },
};
