/** Public components compose like Radix's parts: a ref to the root, the rest of the props on it, controllable state. */
import { screen, within } from '@testing-library/react';
import { createRef, useState, type ReactElement, type Ref } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AgentBuilder,
  AppPreview,
  CodehostConnect,
  Conversation,
  DeployButton,
  GeneratePanel,
  LiveBuildLog,
  PlanList,
  ProjectList,
  ProjectStatus,
  RepoPicker,
  type BuilderSheet,
  type PreviewDevice,
} from 'agent-embed';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };

// Every public component with a root element, rendered with a ref and attributes it does not name.
const components: [string, (ref: Ref<HTMLElement>, extra: Record<string, string>) => ReactElement, string][] = [
  ['AgentBuilder', (ref, extra) => <AgentBuilder ref={ref as Ref<HTMLDivElement>} {...extra} />, 'ae-builder'],
  ['GeneratePanel', (ref, extra) => <GeneratePanel ref={ref as Ref<HTMLFormElement>} {...extra} />, 'ae-panel'],
  ['LiveBuildLog', (ref, extra) => <LiveBuildLog ref={ref} {...extra} />, 'ae-build-log'],
  ['ProjectStatus', (ref, extra) => <ProjectStatus ref={ref} {...extra} />, 'ae-project-status'],
  ['AppPreview', (ref, extra) => <AppPreview ref={ref} {...extra} />, 'ae-preview'],
  ['DeployButton', (ref, extra) => <DeployButton provider="vercel" ref={ref} {...extra} />, 'ae-deploy'],
  ['CodehostConnect', (ref, extra) => <CodehostConnect ref={ref} {...extra} />, 'ae-codehost'],
  ['RepoPicker', (ref, extra) => <RepoPicker ref={ref} {...extra} />, 'ae-repo-picker'],
  ['PlanList', (ref, extra) => <PlanList ref={ref} {...extra} />, 'ae-plans'],
  ['Conversation', (ref, extra) => <Conversation ref={ref} {...extra} />, 'ae-conversation'],
  ['ProjectList', (ref, extra) => <ProjectList ref={ref} {...extra} />, 'ae-project-list'],
];

describe('public components compose', () => {
  it.each(components)(
    '%s forwards its ref to its root and spreads the rest of its props onto it',
    (_, draw, rootClass) => {
      const ref = createRef<HTMLElement>();
      const extra = { id: 'mine', className: 'agency', 'data-testid': 'root', title: 'Agency title' };
      renderWithMock(draw(ref, extra), { provider: { externalUser: ada } });
      const root = screen.getByTestId('root');
      expect(ref.current).toBe(root);
      expect(root).toHaveAttribute('id', 'mine');
      expect(root).toHaveAttribute('title', 'Agency title');
      // The agency's class joins the component's own; it never replaces it.
      expect(root).toHaveClass(rootClass, 'agency');
      expect(root).toHaveAttribute('data-state');
    },
  );

  it("keeps GeneratePanel's own submit when an onSubmit is given", async () => {
    const onSubmit = vi.fn();
    const { user, generationPosts } = renderWithMock(<GeneratePanel onSubmit={onSubmit} />, {
      provider: { externalUser: ada },
    });
    await user.type(screen.getByRole('textbox', { name: /describe/i }), 'A todo list with due dates');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await vi.waitFor(() => expect(generationPosts()).toHaveLength(1));
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

describe('stateful components can be controlled', () => {
  it("AgentBuilder's sheet opens and closes from the parent and reports the end user's choice", async () => {
    const onSheetChange = vi.fn();
    function Host() {
      const [sheet, setSheet] = useState<BuilderSheet | null>(null);
      return (
        <>
          <button type="button" onClick={() => setSheet('plans')}>
            Agency opens plans
          </button>
          <AgentBuilder
            showPlans
            sheet={sheet}
            onSheetChange={(next) => {
              onSheetChange(next);
              setSheet(next);
            }}
          />
        </>
      );
    }
    const { user } = renderWithMock(<Host />, { provider: { externalUser: ada } });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Agency opens plans' }));
    const sheet = screen.getByRole('dialog', { name: 'Plans' });
    expect(onSheetChange).not.toHaveBeenCalled();
    await user.click(within(sheet).getByRole('button', { name: 'Close' }));
    expect(onSheetChange).toHaveBeenLastCalledWith(null);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a controlled AgentBuilder sheet stays as the parent says when the parent ignores the change', async () => {
    const onSheetChange = vi.fn();
    const { user } = renderWithMock(<AgentBuilder sheet="ship" onSheetChange={onSheetChange} />, {
      provider: { externalUser: ada },
    });
    const sheet = screen.getByRole('dialog', { name: 'Publish your app' });
    await user.click(within(sheet).getByRole('button', { name: 'Close' }));
    expect(onSheetChange).toHaveBeenCalledWith(null);
    expect(screen.getByRole('dialog', { name: 'Publish your app' })).toBeInTheDocument();
  });

  it("AppPreview's device is controllable, and uncontrolled it starts at defaultDevice", async () => {
    const onDeviceChange = vi.fn();
    function Host() {
      const [device, setDevice] = useState<PreviewDevice>('tablet');
      return (
        <AppPreview
          url="https://app.example.com"
          device={device}
          onDeviceChange={(next) => {
            onDeviceChange(next);
            setDevice(next);
          }}
        />
      );
    }
    const { user } = renderWithMock(<Host />);
    const preview = screen.getByRole('region', { name: 'App preview' });
    expect(preview).toHaveAttribute('data-device', 'tablet');
    await user.click(within(preview).getByRole('button', { name: 'Mobile' }));
    expect(onDeviceChange).toHaveBeenCalledWith('mobile');
    expect(preview).toHaveAttribute('data-device', 'mobile');
    cleanupRendered();

    renderWithMock(<AppPreview url="https://app.example.com" defaultDevice="mobile" />);
    expect(screen.getByRole('region', { name: 'App preview' })).toHaveAttribute('data-device', 'mobile');
  });

  it("DeployButton's connect dialog is controllable", async () => {
    const onDialogOpenChange = vi.fn();
    function Host() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Agency opens connect
          </button>
          <DeployButton
            provider="vercel"
            dialogOpen={open}
            onDialogOpenChange={(next) => {
              onDialogOpenChange(next);
              setOpen(next);
            }}
          />
        </>
      );
    }
    const { user } = renderWithMock(<Host />, { provider: { externalUser: ada } });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Agency opens connect' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onDialogOpenChange).toHaveBeenLastCalledWith(false);
    expect(dialog).not.toBeInTheDocument();
  });
});

describe('one vocabulary of state attributes (docs/architecture.md)', () => {
  it("badges say a phase or an API status, folds and choices say Radix's words, nothing else is invented", async () => {
    const { user, container } = renderWithMock(<AgentBuilder />, { provider: { externalUser: ada } });
    const builder = screen.getByRole('region', { name: 'App builder' });
    await user.type(within(builder).getByLabelText('Describe the app you want'), 'A recipe box with tags and a list');
    await user.click(within(builder).getByRole('button', { name: 'Generate' }));
    await vi.waitFor(() => expect(builder).toHaveAttribute('data-phase', 'ready'));
    await user.click(within(builder).getByRole('button', { name: 'Publish' }));
    await screen.findByRole('dialog', { name: 'Publish your app' });

    const badges = [...document.querySelectorAll('.ae-badge')];
    expect(badges.length).toBeGreaterThan(0);
    for (const badge of badges) {
      expect(badge.hasAttribute('data-phase') || badge.hasAttribute('data-status')).toBe(true);
      expect(badge.hasAttribute('data-state')).toBe(false);
    }
    expect(document.querySelectorAll('[data-checked], [data-open], [data-active]')).toHaveLength(0);
    for (const part of container.querySelectorAll('.ae-mode, .ae-builder-log'))
      expect(['checked', 'unchecked', 'open', 'closed']).toContain(part.getAttribute('data-state'));
  });
});
