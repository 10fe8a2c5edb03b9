'use client';
/**
 * The one-line embed, preview first like the builders people know: the live app is the main stage, a side
 * column holds the conversation, the prompt box and the build log, and deploy, code host, repositories and
 * plans wait in a sheet opened from the toolbar. Narrower than 768 px it becomes three tabs.
 */
import { forwardRef, useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { SubscriptionPlan } from '../../core/index.js';
import { Conversation } from '../conversation/conversation.js';
import { AppPreview } from '../generation/app-preview.js';
import { GeneratePanel } from '../generation/generate-panel.js';
import { UsageMeter } from '../usage/usage-meter.js';
import { LiveBuildLog } from '../generation/live-build-log.js';
import { OutsideText } from '../shared/outside-text.js';
import { FileFontSample } from '../shared/file-font-sample.js';
import { useProjectView } from '../generation/use-project-view.js';
import type { CodehostConnectProps } from '../integrations/codehost-connect.js';
import { PlanList } from '../integrations/plan-list.js';
import { ProjectList } from '../projects/project-list.js';
import { useAgentContext } from '../provider/agent-context.js';
import { useAgentLabels } from '../provider/use-agent-labels.js';
import { phaseWords } from '../shared/phase-words.js';
import { cx } from '../shared/class-names.js';
import { outcomeSlotKey } from '../shared/error-slots.js';
import { ModalDialog } from '../shared/modal-dialog.js';
import type { WithRootProps } from '../shared/root-props.js';
import { useControllable } from '../shared/use-controllable.js';
import { PublishSheet } from './publish-sheet.js';
import { RecentProjects } from './recent-projects.js';

/** The builder's sheets: publishing (deploy, code host, repository), plans, projects. */
export type BuilderSheet = 'ship' | 'plans' | 'projects';
/** The builder's tabs when it is narrow. */
export type BuilderTab = 'chat' | 'preview' | 'ship';

/** Props of `AgentBuilder`, all optional: its own, plus any attribute of its root `div`. */
export type AgentBuilderProps = WithRootProps<AgentBuilderOptions, 'div'>;

/** The builder's own props. */
export interface AgentBuilderOptions {
  /** The deployment provider of the deploy button (default `vercel`). */
  provider?: string;
  /** How the code-host install flow leaves the page, and where it comes back. */
  codehost?: Pick<CodehostConnectProps, 'mode' | 'returnUrl' | 'navigate' | 'openWindow'>;
  /** Repositories per page in the picker (1 to 100). */
  repositoriesPerPage?: number;
  /** Offers the subscription plans in the toolbar. */
  showPlans?: boolean;
  /** Gives each plan a "Choose" button that calls this (the plans sheet then closes). */
  onSelectPlan?: (plan: SubscriptionPlan) => void;
  /**
   * The "Buy credits" action when credits run out (before a build or during it). Without it and without
   * `buyCreditsUrl`, "Buy credits" opens the plans when `showPlans` is on.
   */
  onBuyCredits?: () => void;
  /** Where the "Buy credits" link goes when there is no `onBuyCredits` (http/https only). */
  buyCreditsUrl?: string;
  /** Offers the end user's earlier projects (from the agency proxy) in the toolbar (default true). */
  showProjects?: boolean;
  /** Anything else for the toolbar, before the actions. */
  toolbarSlot?: ReactNode;
  /** The open sheet, controlled (with `onSheetChange`); `null` for none. */
  sheet?: BuilderSheet | null;
  /** The sheet open on first render when not controlled. */
  defaultSheet?: BuilderSheet | null;
  /** Called when a sheet opens (its name) or closes (`null`). */
  onSheetChange?: (sheet: BuilderSheet | null) => void;
  /** The tab shown when narrow, controlled (with `onTabChange`). */
  tab?: BuilderTab;
  /** The tab shown first when not controlled: `chat`. */
  defaultTab?: BuilderTab;
  /** Called when the end user (or the builder) switches tabs. */
  onTabChange?: (tab: BuilderTab) => void;
}

/** The builder's layout: side by side, or tabs when it is narrower than `narrowWidth`. */
type Layout = 'wide' | 'narrow';
type Tab = BuilderTab;

const narrowWidth = 768;
const tabs: readonly Tab[] = ['chat', 'preview', 'ship'];

/** Follows the builder's own width (it may sit in a narrow column of a wide page). */
function useLayout(): [(element: HTMLDivElement | null) => void, Layout] {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [layout, setLayout] = useState<Layout>('wide');
  useEffect(() => {
    if (element === null || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const width = entry?.contentRect.width ?? element.clientWidth;
      setLayout(width > 0 && width < narrowWidth ? 'narrow' : 'wide');
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [setElement, layout];
}

/**
 * Generate, watch, preview, refine, deploy, connect the code host, pick a repository and push: the whole
 * flow for the provider's current project. `data-state` is the generation's status, `data-phase` the
 * project's phase (as every part shows it), `data-layout` `wide` or `narrow`.
 */
export const AgentBuilder = forwardRef<HTMLDivElement, AgentBuilderProps>(function AgentBuilder(
  {
    provider = 'vercel',
    codehost,
    repositoriesPerPage,
    showPlans = false,
    onSelectPlan,
    onBuyCredits,
    buyCreditsUrl,
    showProjects = true,
    toolbarSlot,
    sheet: sheetProp,
    defaultSheet = null,
    onSheetChange,
    tab: tabProp,
    defaultTab = 'chat',
    onTabChange,
    className,
    ...rest
  },
  ref,
) {
  const labels = useAgentLabels();
  const text = labels.agentBuilder;
  const view = useProjectView(undefined, { watch: true });
  const { store } = useAgentContext();
  const [observeRoot, layout] = useLayout();
  const rootRef = useCallback(
    (element: HTMLDivElement | null) => {
      observeRoot(element);
      if (typeof ref === 'function') ref(element);
      else if (ref !== null) ref.current = element;
    },
    [observeRoot, ref],
  );
  const [tab, setTab] = useControllable(tabProp, defaultTab, onTabChange);
  // Build details fold away once the app is ready (the preview shows it) and stay open while a build runs or
  // after a bad ending, which they tell with its next step. A person's choice wins, except that a new bad
  // ending opens them again.
  const [logChoice, setLogChoice] = useState<{ open: boolean; at: string | null } | undefined>(undefined);
  const [sheet, setSheet] = useControllable(sheetProp, defaultSheet, onSheetChange);
  const id = useId();
  const tabRefs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});

  const threadRef = useRef<HTMLDivElement>(null);
  const chatRef = useRef<HTMLDivElement>(null);
  // Each step of a build (a prompt just sent, its end) brings the newest turn to the top of the thread, its build
  // under it; at the end, as far as the thread scrolls, so the turn and how it ended are in view (the thread is the
  // turns' offset parent, see the stylesheet).
  useEffect(() => {
    const turn = threadRef.current?.querySelector<HTMLElement>('.ae-turn:last-child');
    if (turn) threadRef.current!.scrollTop = turn.offsetTop;
  }, [view.phase]);

  // Until there is an app to preview, the build's log takes the wide stage: room for it, and its next step
  // (buy credits, try again) where the eye is.
  const logOnStage =
    layout === 'wide' && view.previewUrl === undefined && view.generation !== undefined && view.phase !== 'idle';
  const badEnding = outcomeSlotKey(view);
  const logOpen =
    logChoice === undefined
      ? view.phase !== 'ready'
      : logChoice.open || (badEnding !== undefined && badEnding !== logChoice.at);

  // "Buy credits" everywhere in the builder: the agency's action, else its page, else the plans sheet.
  const buyCredits = {
    onBuyCredits: onBuyCredits ?? (buyCreditsUrl === undefined && showPlans ? () => setSheet('plans') : undefined),
    buyCreditsUrl,
  };

  const ship = <PublishSheet provider={provider} codehost={codehost} repositoriesPerPage={repositoriesPerPage} />;
  const logId = `${id}-log`;
  const chat = (
    <div ref={chatRef} className="ae-builder-chat">
      <div ref={threadRef} className="ae-builder-thread">
        {/* The log mounts with the build, in the click's frame: its file font is looked up before, with the builder. */}
        <FileFontSample />
        <Conversation />
        {showProjects && view.key === undefined && <RecentProjects onShowAll={() => setSheet('projects')} />}
        {/* A refused request built nothing: the prompt box says why, and there is no log to show. */}
        {view.generation !== undefined && view.phase !== 'idle' && !logOnStage && (
          <div className="ae-builder-log" data-state={logOpen ? 'open' : 'closed'}>
            <button
              type="button"
              className="ae-button ae-button-quiet ae-builder-log-toggle"
              aria-expanded={logOpen}
              aria-controls={logId}
              onClick={() => setLogChoice({ open: !logOpen, at: badEnding ?? null })}
            >
              {logOpen ? text.hideDetails : text.showDetails}
            </button>
            <div id={logId} hidden={!logOpen}>
              {/* Closed, it lets go of what it would tell: the conversation then says how the build ended. */}
              {logOpen && <LiveBuildLog {...buyCredits} />}
            </div>
          </div>
        )}
      </div>
      <UsageMeter className="ae-builder-usage" />
      {/* On a phone the app is one tab away: say it is ready where the eye is, with the way there. */}
      {layout === 'narrow' && view.phase === 'ready' && (
        <p className="ae-builder-ready" role="status">
          <span>{text.appReady}</span>
          <button
            type="button"
            className="ae-button"
            onClick={() => {
              setTab('preview');
              tabRefs.current.preview?.focus();
            }}
          >
            {text.seeApp}
          </button>
        </p>
      )}
      <GeneratePanel className="ae-builder-prompt" offerNewProject={false} {...buyCredits} />
    </div>
  );
  const preview = <AppPreview className="ae-builder-preview" />;

  const narrow = layout === 'narrow';
  const [shipOpened, setShipOpened] = useState(false);
  if (narrow && tab === 'ship' && !shipOpened) setShipOpened(true);
  /** Wide, a part is a labelled group; narrow, the panel of its tab, hidden while another tab is chosen. */
  function partProps(value: Tab, label: string) {
    return narrow
      ? {
          role: 'tabpanel',
          id: `${id}-panel-${value}`,
          'aria-labelledby': `${id}-tab-${value}`,
          hidden: tab !== value,
        }
      : { role: 'group', 'aria-label': label };
  }

  function onTabKey(event: KeyboardEvent<HTMLButtonElement>, current: Tab) {
    const index = tabs.indexOf(current);
    const next =
      event.key === 'ArrowRight'
        ? tabs[(index + 1) % tabs.length]
        : event.key === 'ArrowLeft'
          ? tabs[(index + tabs.length - 1) % tabs.length]
          : event.key === 'Home'
            ? tabs[0]
            : event.key === 'End'
              ? tabs[tabs.length - 1]
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    setTab(next);
    tabRefs.current[next]?.focus();
  }

  return (
    <div
      ref={rootRef}
      className={cx('ae-builder', className)}
      data-state={view.generation?.status ?? 'idle'}
      data-phase={view.phase}
      data-layout={layout}
      role="region"
      aria-label={text.regionLabel}
      {...rest}
    >
      <div className="ae-builder-toolbar" role="toolbar" aria-label={text.toolbarLabel}>
        <p className="ae-builder-project">
          <span className="ae-builder-name">
            {view.name !== undefined ? (
              <OutsideText>{view.name}</OutsideText>
            ) : view.projectId === undefined ? (
              text.newApp
            ) : (
              labels.projectList.untitled
            )}
          </span>
          {view.phase !== 'idle' && (
            <span className="ae-badge" data-phase={view.phase}>
              {phaseWords(view, labels)}
            </span>
          )}
        </p>
        {showProjects && (
          <button type="button" className="ae-button" onClick={() => setSheet('projects')}>
            {text.projectsLabel}
          </button>
        )}
        {toolbarSlot}
        {view.key !== undefined && !view.busy && view.phase !== 'idle' && (
          <button
            type="button"
            className="ae-button ae-button-quiet"
            onClick={() => {
              store.getState().newProject();
              // The button goes with the project: focus goes where the new one starts, the prompt box.
              if (layout !== 'wide') setTab('chat');
              requestAnimationFrame(() => chatRef.current?.querySelector('textarea')?.focus());
            }}
          >
            {text.newProject}
          </button>
        )}
        {showPlans && (
          <button type="button" className="ae-button" onClick={() => setSheet('plans')}>
            {text.plansLabel}
          </button>
        )}
        {layout === 'wide' && (
          // The primary action once there is an app to publish; before, the prompt box's is the one.
          <button
            type="button"
            className={cx('ae-button', view.hasApp && 'ae-button-primary')}
            onClick={() => setSheet('ship')}
          >
            {text.shipLabel}
          </button>
        )}
      </div>
      {/*
        One tree for both layouts, so that a resize across the breakpoint or a tab switch keeps what a part holds
        (a half-typed prompt, the app loaded in its frame): the layout only changes roles, labels and `hidden`.
      */}
      <div className="ae-builder-body">
        {narrow && (
          <div className="ae-tablist" role="tablist" aria-label={text.regionLabel}>
            {tabs.map((value) => (
              <button
                key={value}
                ref={(element) => {
                  tabRefs.current[value] = element;
                }}
                type="button"
                role="tab"
                id={`${id}-tab-${value}`}
                aria-controls={`${id}-panel-${value}`}
                aria-selected={tab === value}
                tabIndex={tab === value ? 0 : -1}
                className="ae-tab"
                onClick={() => setTab(value)}
                onKeyDown={(event) => onTabKey(event, value)}
              >
                {text.tabs[value]}
              </button>
            ))}
          </div>
        )}
        <div className="ae-builder-side" {...partProps('chat', text.buildLabel)}>
          {chat}
        </div>
        <div className="ae-builder-stage" {...partProps('preview', text.resultLabel)}>
          {logOnStage ? <LiveBuildLog {...buyCredits} /> : preview}
        </div>
        {/* Wide, Publish is a sheet; narrow, a tab, kept once opened like the others. */}
        {narrow && (tab === 'ship' || shipOpened) && <div {...partProps('ship', text.tabs.ship)}>{ship}</div>}
      </div>
      <ModalDialog
        open={sheet !== null}
        onClose={() => setSheet(null)}
        className="ae-dialog ae-sheet"
        aria-labelledby={`${id}-sheet-title`}
      >
        <div className="ae-sheet-header">
          <h2 id={`${id}-sheet-title`} className="ae-title">
            {sheet === 'plans' ? text.plansLabel : sheet === 'projects' ? text.projectsLabel : text.shipTitle}
          </h2>
          <button type="button" className="ae-button ae-button-quiet" onClick={() => setSheet(null)}>
            {text.close}
          </button>
        </div>
        {sheet === 'plans' ? (
          <PlanList
            {...(onSelectPlan === undefined
              ? {}
              : {
                  onSelect: (plan: SubscriptionPlan) => {
                    onSelectPlan(plan);
                    setSheet(null);
                  },
                })}
          />
        ) : sheet === 'projects' ? (
          <ProjectList onOpen={() => setSheet(null)} />
        ) : (
          ship
        )}
      </ModalDialog>
    </div>
  );
});
