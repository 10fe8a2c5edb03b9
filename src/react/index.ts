/** agent-embed: React components and headless hooks for the Agent API. Import the stylesheet from agent-embed/styles.css. */
export { AgentProvider } from './provider/agent-provider.js';
export type { AgentProviderOptions, AgentProviderProps, AgentProviderSource } from './provider/agent-provider.js';
export type { AgentContextValue, ExternalUser } from './provider/agent-context.js';
export { appearanceStyle, appearanceVariableName } from './provider/appearance.js';
export type { AgentAppearance, AgentColorScheme } from './provider/appearance.js';
export { defaultLabels, mergeLabels } from './provider/labels.js';
export { plural } from '../locales/plural.js';
export type { PluralForms } from '../locales/plural.js';
export { localeDirection, pickLocale } from './provider/locale.js';
export type { TextDirection } from './provider/locale.js';
export type { AgentLabels, AgentLabelsOverride, LabelGroupOverride } from './provider/labels.js';
export type { AppPreviewLabels } from './generation/app-preview.labels.js';
export type { GeneratePanelLabels } from './generation/generate-panel.labels.js';
export type { LiveBuildLogLabels } from './generation/live-build-log.labels.js';
export type { ProjectStatusLabels } from './generation/project-status.labels.js';
export type { AgentBuilderLabels } from './builder/agent-builder.labels.js';
export type { CodehostConnectLabels } from './integrations/codehost-connect.labels.js';
export type { DeployButtonLabels } from './integrations/deploy-button.labels.js';
export type { PlanListLabels } from './integrations/plan-list.labels.js';
export type { UsageMeterLabels } from './usage/usage-meter.labels.js';
export type { RepoPickerLabels } from './integrations/repo-picker.labels.js';
export { safeHttpUrl } from '../core/index.js';
export { ErrorAlert } from './shared/error-alert.js';
export type { ErrorAlertProps } from './shared/error-alert.js';
export { defaultErrorLabels, errorCopy } from './shared/error-copy.js';
export type { ErrorContext, ErrorLabels, SpecificErrorCode } from './shared/error-copy.js';
export { useRetryCountdown } from './shared/use-retry-countdown.js';
export { useAgentClient, useAgentStore, useAgentStoreApi, useExternalUser } from './provider/use-agent-store.js';
export { useGeneration } from './generation/use-generation.js';
export type { UseGenerationResult } from './generation/use-generation.js';
export { useProject } from './generation/use-project.js';
export { useAgentLabels } from './provider/use-agent-labels.js';
export { createAgentFormat } from './provider/agent-format.js';
export { useAgentFormat } from './provider/use-agent-format.js';
export type { AgentFormat } from './provider/agent-format.js';
export { GeneratePanel } from './generation/generate-panel.js';
/** The API's minimum prompt length (core's), checked by the prompt box before anything is sent. */
export { minimumPromptLength } from '../core/index.js';
export type { GeneratePanelProps } from './generation/generate-panel.js';
export { LiveBuildLog } from './generation/live-build-log.js';
export type { LiveBuildLogProps } from './generation/live-build-log.js';
export { ProjectStatus } from './generation/project-status.js';
export type { ProjectStatusProps } from './generation/project-status.js';
export { AppPreview, previewSandbox } from './generation/app-preview.js';
export type { AppPreviewProps, PreviewDevice } from './generation/app-preview.js';
export { useDeployment, useDeploymentConnections } from './integrations/use-deployment.js';
export type { UseDeploymentConnectionsResult, UseDeploymentResult } from './integrations/use-deployment.js';
export { useCodehost } from './integrations/use-codehost.js';
export type { UseCodehostOptions, UseCodehostResult } from './integrations/use-codehost.js';
export { useRepositories } from './integrations/use-repositories.js';
export type { UseRepositoriesOptions, UseRepositoriesResult } from './integrations/use-repositories.js';
export type { UseLoadOptions } from './shared/use-auto-load.js';
export { useRepositoryActions } from './integrations/use-repository-actions.js';
export type { RepositoryRef, UseRepositoryActionsResult } from './integrations/use-repository-actions.js';
export { usePlans } from './integrations/use-plans.js';
export { useUsage } from './usage/use-usage.js';
export type { UseUsageResult } from './usage/use-usage.js';
export type { UsePlansResult } from './integrations/use-plans.js';
export { useResource } from './shared/use-resource.js';
export { useMutation } from './shared/use-mutation.js';
export type { UseResourceResult } from './shared/use-resource.js';
export { DeployButton } from './integrations/deploy-button.js';
export type { DeployButtonProps, DeployButtonState } from './integrations/deploy-button.js';
export { CodehostConnect, codehostPopupName, codehostReturnMessage } from './integrations/codehost-connect.js';
export type { CodehostConnectProps, CodehostConnectState } from './integrations/codehost-connect.js';
export { RepoPicker } from './integrations/repo-picker.js';
export type { RepoPickerProps, RepoPickerState } from './integrations/repo-picker.js';
export { PlanList, formatPlanPrice } from './integrations/plan-list.js';
export type { PlanListProps, PlanWords } from './integrations/plan-list.js';
export { UsageMeter } from './usage/usage-meter.js';
export type { UsageMeterProps } from './usage/usage-meter.js';
export { Conversation } from './conversation/conversation.js';
export type { ConversationProps } from './conversation/conversation.js';
export type { ConversationLabels, TurnCounts } from './conversation/conversation.labels.js';
export { useConversation } from './conversation/use-conversation.js';
export type { UseConversationResult } from './conversation/use-conversation.js';
export { useProjectView } from './generation/use-project-view.js';
export { ProjectList } from './projects/project-list.js';
export type { ProjectListProps } from './projects/project-list.js';
export type { ProjectListLabels } from './projects/project-list.labels.js';
export { useProjects } from './projects/use-projects.js';
export type { UseProjectsResult } from './projects/use-projects.js';
export { toolWords } from './generation/live-build-log.js';
export { AgentBuilder } from './builder/agent-builder.js';
export type { AgentBuilderOptions, AgentBuilderProps, BuilderSheet, BuilderTab } from './builder/agent-builder.js';
// The store's types, so React users can type selectors without a second import.
export type {
  AgentState,
  AgentStore,
  GenerationActionResult,
  GenerationState,
  GenerationStatus,
  ProjectSnapshot,
  ProjectView,
  ProjectPhase,
  ConversationEntry,
} from '../core/index.js';
export type {
  CodehostConnectionStatus,
  DeploymentConnectionStatus,
  IntegrationResult,
  Mutation,
  MutationStatus,
  Resource,
  ResourceStatus,
  RepositoryPages,
} from '../core/index.js';
