/** Every visible string and aria text of the components, overridable per component through `labels`. */
import type { ProjectPhase } from '../../core/index.js';
import { defaultConversationLabels, type ConversationLabels } from '../conversation/conversation.labels.js';
import { defaultProjectListLabels, type ProjectListLabels } from '../projects/project-list.labels.js';
import { defaultAgentBuilderLabels, type AgentBuilderLabels } from '../builder/agent-builder.labels.js';
import { defaultAppPreviewLabels, type AppPreviewLabels } from '../generation/app-preview.labels.js';
import { defaultGeneratePanelLabels, type GeneratePanelLabels } from '../generation/generate-panel.labels.js';
import { defaultLiveBuildLogLabels, type LiveBuildLogLabels } from '../generation/live-build-log.labels.js';
import { defaultProjectStatusLabels, type ProjectStatusLabels } from '../generation/project-status.labels.js';
import { defaultCodehostConnectLabels, type CodehostConnectLabels } from '../integrations/codehost-connect.labels.js';
import { defaultDeployButtonLabels, type DeployButtonLabels } from '../integrations/deploy-button.labels.js';
import { defaultPlanListLabels, type PlanListLabels } from '../integrations/plan-list.labels.js';
import { defaultRepoPickerLabels, type RepoPickerLabels } from '../integrations/repo-picker.labels.js';
import { defaultErrorLabels, type ErrorLabels } from '../shared/error-copy.js';
import { defaultUsageMeterLabels, type UsageMeterLabels } from '../usage/usage-meter.labels.js';

/** All component texts. */
export interface AgentLabels {
  /** Display names of project phases (the badges every component shows). */
  phase: Record<ProjectPhase, string>;
  conversation: ConversationLabels;
  projectList: ProjectListLabels;
  generatePanel: GeneratePanelLabels;
  liveBuildLog: LiveBuildLogLabels;
  projectStatus: ProjectStatusLabels;
  appPreview: AppPreviewLabels;
  deployButton: DeployButtonLabels;
  codehostConnect: CodehostConnectLabels;
  repoPicker: RepoPickerLabels;
  planList: PlanListLabels;
  agentBuilder: AgentBuilderLabels;
  usageMeter: UsageMeterLabels;
  /** End-user words for every error, shared by every component's alerts. */
  errors: ErrorLabels;
}

/** A partial override of one group: nested records (phase names, announcements) are partial too. */
export type LabelGroupOverride<Group> = {
  [Key in keyof Group]?: Group[Key] extends (...args: never[]) => unknown
    ? Group[Key]
    : Group[Key] extends object
      ? Partial<Group[Key]>
      : Group[Key];
};

/** A partial override of `AgentLabels`, per component. */
export type AgentLabelsOverride = { [Group in keyof AgentLabels]?: LabelGroupOverride<AgentLabels[Group]> };

/** The default (English) texts. */
export const defaultLabels: AgentLabels = {
  phase: {
    idle: 'Not started',
    submitting: 'Sending',
    provisioning: 'Setting up',
    generating: 'Building',
    recovering: 'Reconnecting',
    stopped: 'Stopped watching',
    ready: 'Ready',
    failed: 'Failed',
    credits_exhausted: 'Out of credits',
    interrupted: 'Connection lost',
    gone: 'Not found',
  },
  conversation: defaultConversationLabels,
  projectList: defaultProjectListLabels,
  generatePanel: defaultGeneratePanelLabels,
  liveBuildLog: defaultLiveBuildLogLabels,
  projectStatus: defaultProjectStatusLabels,
  appPreview: defaultAppPreviewLabels,
  deployButton: defaultDeployButtonLabels,
  codehostConnect: defaultCodehostConnectLabels,
  repoPicker: defaultRepoPickerLabels,
  planList: defaultPlanListLabels,
  agentBuilder: defaultAgentBuilderLabels,
  usageMeter: defaultUsageMeterLabels,
  errors: defaultErrorLabels,
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function mergeGroup<Group extends object>(defaults: Group, override: LabelGroupOverride<Group> | undefined): Group {
  if (override === undefined) return defaults;
  const merged: Record<string, unknown> = { ...(defaults as Record<string, unknown>) };
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    const base = merged[key];
    merged[key] = isRecord(base) && isRecord(value) ? { ...base, ...value } : value;
  }
  return merged as Group;
}

/**
 * Merges an override into a complete set of texts (the English defaults unless a locale pack is given), one
 * component group at a time (nested records key by key).
 */
export function mergeLabels(override: AgentLabelsOverride | undefined, base: AgentLabels = defaultLabels): AgentLabels {
  if (override === undefined) return base;
  const merged: Record<string, unknown> = {};
  for (const group of Object.keys(base) as (keyof AgentLabels)[]) {
    merged[group] = mergeGroup(base[group] as object, override[group] as LabelGroupOverride<object> | undefined);
  }
  return merged as unknown as AgentLabels;
}
