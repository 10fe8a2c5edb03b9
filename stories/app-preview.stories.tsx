import type { Meta, StoryObj } from '@storybook/react-vite';
import { AppPreview, previewSandbox } from 'agent-embed';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { agentParameters, storyAgent, storyPrompt } from './story-agent.js';
import { reach } from './story-states.js';

const meta = {
  title: 'Generation/AppPreview',
  component: AppPreview,
} satisfies Meta<typeof AppPreview>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * A story that checks what a click does rather than showing a state set up before it renders: it runs as a
 * test and stays in the sidebar, not on the docs page.
 */
const behaviour = { tags: ['!autodocs'] };

function preview(canvasElement: HTMLElement) {
  const region = within(canvasElement).getByRole('region', { name: 'App preview' });
  return { region, view: within(region), frame: () => region.querySelector('iframe') };
}

async function expectEmpty(canvasElement: HTMLElement, text = 'Your app will appear here.') {
  const { region, view, frame } = preview(canvasElement);
  await expect(region).toHaveAttribute('data-state', 'empty');
  await expect(view.getByText(text)).toBeInTheDocument();
  await expect(frame()).toBeNull();
}

/** The preview shows the project's own app. */
async function expectProjectApp(context: Parameters<NonNullable<Story['play']>>[0]) {
  const { region, view } = preview(context.canvasElement);
  await waitFor(() => expect(region).toHaveAttribute('data-state', 'ready'));
  await expect(view.getByTitle('Preview of the generated app')).toHaveAttribute(
    'src',
    (await storyAgent(context).admin.projects())[0]?.appUrl,
  );
  return view;
}

export const Empty: Story = {
  name: 'No project',
  play: async ({ canvasElement }) => expectEmpty(canvasElement),
};

export const WhileProvisioning: Story = {
  name: 'Provisioning 60%: not ready yet',
  parameters: agentParameters(reach.provisioning(60)),
  play: async ({ canvasElement }) => expectEmpty(canvasElement, 'Your app will appear here when it is built.'),
};

export const WhileGenerating: Story = {
  name: 'Generating: not ready yet',
  parameters: agentParameters(reach.generating(5)),
  play: async ({ canvasElement }) => expectEmpty(canvasElement, 'Your app will appear here when it is built.'),
};

export const CreditsRanOutAlone: Story = {
  name: 'Credits ran out, alone: the stage tells it',
  parameters: agentParameters(reach.creditsExhaustedDuring),
  play: async ({ canvasElement }) => {
    // With no build log on screen to tell it with its next step, the preview says how the build ended.
    await expectEmpty(canvasElement, 'The build stopped when the credits ran out.');
    await expect(preview(canvasElement).view.getByText('Out of credits')).toBeInTheDocument();
  },
};

export const CreditsRefusedAlone: Story = {
  name: 'Credits refused before a build (400): nothing was built',
  parameters: agentParameters(reach.creditsExhaustedBefore),
  play: async ({ canvasElement }) => expectEmpty(canvasElement),
};

export const Ready: Story = {
  name: 'Completed: live preview',
  parameters: agentParameters(reach.completed),
  play: async (context) => {
    const { region, view } = preview(context.canvasElement);
    const appUrl = (await storyAgent(context).admin.projects())[0]?.appUrl ?? '';
    await expect(region).toHaveAttribute('data-state', 'ready');
    const iframe = view.getByTitle('Preview of the generated app');
    await expect(iframe).toHaveAttribute('src', appUrl);
    await expect(iframe).toHaveAttribute('sandbox', previewSandbox(appUrl, window.location.origin));
    await expect(iframe).toHaveAttribute('referrerpolicy', 'no-referrer');
    await expect(view.getByRole('link', { name: 'Open the app' })).toHaveAttribute('href', appUrl);
    await expect(view.getByRole('button', { name: 'Desktop' })).toHaveAttribute('aria-pressed', 'true');
  },
};

export const DeviceWidths: Story = {
  ...behaviour,
  name: 'Behaviour: device widths and reload',
  parameters: agentParameters(reach.completed),
  play: async (context) => {
    const { region, view, frame } = preview(context.canvasElement);
    const appUrl = (await storyAgent(context).admin.projects())[0]?.appUrl ?? '';
    await userEvent.click(view.getByRole('button', { name: 'Mobile' }));
    await expect(region).toHaveAttribute('data-device', 'mobile');
    await expect(view.getByRole('button', { name: 'Mobile' })).toHaveAttribute('aria-pressed', 'true');
    await expect(frame()?.style.width).toBe('390px');
    await userEvent.click(view.getByRole('button', { name: 'Tablet' }));
    await expect(frame()?.style.width).toBe('768px');
    // Reload mounts a new frame on the same address.
    const before = frame();
    await userEvent.click(view.getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(frame()).not.toBe(before));
    await expect(frame()).toHaveAttribute('src', appUrl);
  },
};

export const ReadyDark: Story = {
  ...Ready,
  name: 'Completed: live preview (dark)',
  globals: { colorScheme: 'dark' },
  play: async (context) => {
    await Ready.play?.(context);
    await expect(context.canvasElement.querySelector('[data-agent-embed]')).toHaveAttribute(
      'data-color-scheme',
      'dark',
    );
  },
};

export const AfterFollowUp: Story = {
  name: 'After a follow-up',
  parameters: agentParameters(reach.followUpCompleted),
  play: async (context) => void (await expectProjectApp(context)),
};

export const WhileAFollowUpBuilds: Story = {
  name: 'While a follow-up builds: the app stays on stage',
  parameters: agentParameters(reach.followUpRunning),
  play: async (context) => {
    const view = await expectProjectApp(context);
    await expect(view.getByRole('status')).toHaveTextContent('Updating your app…');
  },
};

export const AfterAFailedFollowUp: Story = {
  name: 'After a failed follow-up: the app from before is still there',
  parameters: agentParameters(reach.followUpFailed),
  play: async (context) => {
    const view = await expectProjectApp(context);
    await expect(view.queryByRole('status')).toBeNull();
  },
};

export const ForAGivenProject: Story = {
  name: 'For a given project id (from its polled status)',
  parameters: agentParameters({ setup: async (agent) => void (await agent.client.generate({ prompt: storyPrompt })) }),
  render: (args, context) => <AppPreview {...args} projectId={storyAgent(context).projects[0]?.id ?? ''} />,
  play: async (context) => void (await expectProjectApp(context)),
};

export const ExplicitUrl: Story = {
  name: 'An explicit http(s) URL',
  args: { url: 'https://app.agency.example.test/preview/' },
  play: async ({ canvasElement, args }) => {
    const { region, view } = preview(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'ready');
    const iframe = view.getByTitle('Preview of the generated app');
    await expect(iframe).toHaveAttribute('src', args.url);
    // Another origin keeps its own origin inside the sandbox.
    await expect(iframe.getAttribute('sandbox')?.split(' ')).toContain('allow-same-origin');
  },
};

export const UnsafeUrl: Story = {
  name: 'A URL that is not http(s)',
  args: { url: 'javascript:alert(document.cookie)' },
  play: async ({ canvasElement }) => {
    const { region, view, frame } = preview(canvasElement);
    await expect(region).toHaveAttribute('data-state', 'unsafe');
    await expect(
      view.getByText('The app address is not a web address, so it cannot be previewed.'),
    ).toBeInTheDocument();
    await expect(frame()).toBeNull();
    await expect(view.queryByRole('link')).not.toBeInTheDocument();
    await expect(region.innerHTML).not.toContain('javascript:');
  },
};
