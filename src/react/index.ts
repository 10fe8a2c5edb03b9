/** agent-embed: React components and headless hooks for the Agent API. Import the stylesheet from agent-embed/styles.css. */
export { AgentProvider } from './agent-provider.js';
export type { AgentProviderOptions, AgentProviderProps, AgentProviderSource } from './agent-provider.js';
export type { AgentContextValue, ExternalUser } from './agent-context.js';
export { appearanceStyle, appearanceVariableName } from './appearance.js';
export type { AgentAppearance, AgentColorScheme } from './appearance.js';
export { defaultLabels, mergeLabels } from './labels.js';
export type { AgentLabels, AgentLabelsOverride, AppPreviewLabels, GeneratePanelLabels, LiveBuildLogLabels, ProjectStatusLabels } from './labels.js';
export type { AgentBuilderLabels, CodehostConnectLabels, DeployButtonLabels, PlanListLabels, RepoPickerLabels } from './labels.js';
export { safeHttpUrl } from './safe-url.js';
export { useAgentClient, useAgentStore, useAgentStoreApi, useExternalUser } from './use-agent-store.js';
export { useGeneration } from './use-generation.js';
export type { UseGenerationResult } from './use-generation.js';
export { useProject } from './use-project.js';
export { useAgentLabels } from './use-agent-labels.js';
export { createAgentFormat, useAgentFormat } from './use-agent-format.js';
export type { AgentFormat } from './use-agent-format.js';
export { GeneratePanel, minimumPromptLength } from './generate-panel.js';
export type { GeneratePanelProps } from './generate-panel.js';
export { LiveBuildLog } from './live-build-log.js';
export type { LiveBuildLogProps } from './live-build-log.js';
export { ProjectStatus } from './project-status.js';
export type { ProjectStatusProps } from './project-status.js';
export { AppPreview, previewSandbox } from './app-preview.js';
export type { AppPreviewProps, PreviewDevice } from './app-preview.js';
export { useDeployment, useDeploymentConnections } from './use-deployment.js';
export type { UseDeploymentConnectionsResult, UseDeploymentResult } from './use-deployment.js';
export { useCodehost } from './use-codehost.js';
export type { UseCodehostOptions, UseCodehostResult } from './use-codehost.js';
export { useRepositories } from './use-repositories.js';
export type { UseRepositoriesResult } from './use-repositories.js';
export { useRepositoryActions } from './use-repository-actions.js';
export type { RepositoryRef, UseRepositoryActionsResult } from './use-repository-actions.js';
export { usePlans } from './use-plans.js';
export type { UsePlansResult } from './use-plans.js';
export { DeployButton } from './deploy-button.js';
export type { DeployButtonProps, DeployButtonState } from './deploy-button.js';
export { CodehostConnect, codehostPopupName, codehostReturnMessage } from './codehost-connect.js';
export type { CodehostConnectProps, CodehostConnectState } from './codehost-connect.js';
export { RepoPicker } from './repo-picker.js';
export type { RepoPickerProps, RepoPickerState } from './repo-picker.js';
export { PlanList, formatPlanPrice } from './plan-list.js';
export type { PlanListProps } from './plan-list.js';
export { AgentBuilder } from './agent-builder.js';
export type { AgentBuilderProps } from './agent-builder.js';
// The store's types, so React users can type selectors without a second import.
export type { AgentState, AgentStore, GenerationActionResult, GenerationState, GenerationStatus, ProjectSnapshot } from '../core/index.js';
export type {
  CodehostConnectionState,
  DeploymentConnectionState,
  DeploymentState,
  IntegrationResult,
  PlansState,
  RepositoryLinkState,
  RepositoryListState,
  RepositoryPushState,
} from '../core/index.js';
