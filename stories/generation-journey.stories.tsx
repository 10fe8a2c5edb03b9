import type { Meta, StoryObj } from '@storybook/react-vite';
import { AppPreview, GeneratePanel, LiveBuildLog, ProjectStatus } from 'agent-embed';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { agentParameters, storyAgent, storyPrompt } from './story-agent.js';
import { storyBillingUrl } from './story-states.js';

/** The four generation components together, as an agency lays them out. */
function GenerationJourney() {
  return (
    <div
      style={{
        display: 'grid',
        gap: 16,
        gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))',
        alignItems: 'start',
      }}
    >
      <div style={{ display: 'grid', gap: 16 }}>
        <GeneratePanel />
        <ProjectStatus />
      </div>
      <LiveBuildLog buyCreditsUrl={storyBillingUrl} />
      <div style={{ gridColumn: '1 / -1' }}>
        <AppPreview />
      </div>
    </div>
  );
}

const meta = {
  title: 'Generation/Journey',
  component: GenerationJourney,
  // Journeys are behaviours (typing, clicking, following a build), run as tests: no docs page of states.
  tags: ['!autodocs'],
} satisfies Meta<typeof GenerationJourney>;

export default meta;
type Story = StoryObj<typeof meta>;

function journey(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  return {
    canvas,
    form: () => canvas.getByRole('form'),
    log: () => canvas.getByRole('region', { name: 'Build progress' }),
    status: () => canvas.getByRole('region', { name: 'Project status' }),
    preview: () => canvas.getByRole('region', { name: 'App preview' }),
  };
}

export const GenerateThenFollowUp: Story = {
  name: 'Generate, preview, follow up',
  play: async (context) => {
    const { canvas, form, log, status, preview } = journey(context.canvasElement);
    const agent = storyAgent(context);
    await userEvent.type(canvas.getByRole('textbox'), storyPrompt);
    await userEvent.click(canvas.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(log()).toHaveAttribute('data-state', 'completed'));
    const [project] = await agent.admin.projects();
    await expect(within(log()).getByRole('link', { name: 'Open the app' })).toHaveAttribute('href', project?.appUrl);
    await waitFor(() => expect(status()).toHaveAttribute('data-project-status', 'ready'));
    await expect(within(preview()).getByTitle('Preview of the generated app')).toHaveAttribute('src', project?.appUrl);

    await expect(form()).toHaveAccessibleName('Refine your app');
    await userEvent.type(canvas.getByRole('textbox'), 'Add a dark theme and a contact page');
    await userEvent.click(canvas.getByRole('button', { name: 'Send follow-up' }));
    await waitFor(() => expect(within(log()).getByText('1 new, 2 changed files')).toBeInTheDocument());
    await expect(log()).toHaveAttribute('data-state', 'completed');
    const posts = (await agent.admin.requests()).filter(
      (request) => request.method === 'POST' && /\/agent\/generate(\/|$)/.test(request.path),
    );
    await expect(posts).toHaveLength(2);
  },
};

export const Realistic: Story = {
  name: 'Realistic timing (watch it build)',
  parameters: agentParameters({ speed: 'realistic' }),
  play: async ({ canvasElement }) => {
    const { canvas, log, preview } = journey(canvasElement);
    await userEvent.type(canvas.getByRole('textbox'), storyPrompt);
    await userEvent.click(canvas.getByRole('button', { name: 'Generate' }));
    // The container stage takes seconds at this speed: the story shows it live and stops asserting here.
    await waitFor(() => expect(log()).toHaveAttribute('data-state', 'provisioning'));
    await expect(within(log()).getByRole('progressbar', { name: 'Build progress' })).toBeInTheDocument();
    await expect(preview()).toHaveAttribute('data-state', 'empty');
  },
};

export const GermanLabelsAndLocale: Story = {
  name: 'Labels and locale (de-DE)',
  parameters: agentParameters({
    mock: { scenario: { files: 1200 }, credits: 2000 },
    provider: {
      locale: 'de-DE',
      labels: {
        generatePanel: {
          heading: 'App erstellen',
          promptLabel: 'Beschreiben Sie Ihre App',
          submit: 'Erstellen',
          followUpHeading: 'App verfeinern',
        },
        liveBuildLog: {
          heading: 'Fortschritt',
          regionLabel: 'Fortschritt',
          fileCount: (count, modified) => `${count} Dateien, ${modified} geändert`,
        },
      },
    },
  }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'App erstellen' })).toBeInTheDocument();
    await userEvent.type(canvas.getByLabelText('Beschreiben Sie Ihre App'), storyPrompt);
    await userEvent.click(canvas.getByRole('button', { name: 'Erstellen' }));
    const log = canvas.getByRole('region', { name: 'Fortschritt' });
    await waitFor(() => expect(log).toHaveAttribute('data-state', 'completed'));
    await expect(within(log).getByText('1.200 Dateien, 0 geändert')).toBeInTheDocument();
    await expect(canvasElement.querySelector('[data-agent-embed]')).toHaveAttribute('lang', 'de-DE');
  },
};
