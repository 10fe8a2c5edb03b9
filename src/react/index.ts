/** agent-embed: React components and headless hooks for the Agent API. Import the stylesheet from agent-embed/styles.css. */
export { AgentProvider } from './agent-provider.js';
export type { AgentProviderOptions, AgentProviderProps, AgentProviderSource } from './agent-provider.js';
export type { AgentContextValue, ExternalUser } from './agent-context.js';
export { appearanceStyle, appearanceVariableName } from './appearance.js';
export type { AgentAppearance, AgentColorScheme } from './appearance.js';
export { defaultLabels, mergeLabels } from './labels.js';
export type { AgentLabels, AgentLabelsOverride, AppPreviewLabels, GeneratePanelLabels, LiveBuildLogLabels, ProjectStatusLabels } from './labels.js';
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
// The store's types, so React users can type selectors without a second import.
export type { AgentState, AgentStore, GenerationActionResult, GenerationState, GenerationStatus, ProjectSnapshot } from '../core/index.js';
