/** agent-embed/core: the typed Agent API client, its transport, errors and wire types. No React. */
export { createAgentClient } from './client.js';
export type { AgentClient, AgentClientOptions, GenerationOutcome, GenerationResult, RequestOptions, StreamOptions } from './client.js';
export { createHttpTransport } from './transport.js';
export type { AgentTransport, HeadersOption, HttpTransportOptions, StreamHandlers, TransportRequest } from './transport.js';
export { AgentApiError, agentApiMessages, errorFromResponse, isAgentApiError, parseRetryAfter } from './errors.js';
export type { AgentApiErrorOptions, AgentErrorKind } from './errors.js';
export { fileCreatedPath, isTerminalEvent, parseAgentEvent } from './events.js';
export type {
  AgentEvent,
  ContainerProgressEvent,
  ContainerReadyEvent,
  CreditsExhaustedEvent,
  FileCreatedEvent,
  ParsedEvent,
  ProjectCreatedEvent,
  StreamEndEvent,
  StreamErrorEvent,
  TerminalEvent,
  ToolProgressEvent,
  UnknownEvent,
} from './events.js';
export { agentRoutes, fillPath, matchRoute } from './paths.js';
export type { AgentPathOverrides, AgentRoute, AgentRouteName, RouteMatch } from './paths.js';
export type {
  AgentErrorBody,
  CodehostConnection,
  ConnectDeploymentInput,
  Deployment,
  DeployInput,
  DeploymentConnection,
  Envelope,
  FollowUpInput,
  GenerateInput,
  GenerationMode,
  KnownProjectStatus,
  LinkRepositoryInput,
  LinkResult,
  ListMeta,
  Project,
  PushInput,
  PushResult,
  Repository,
  RepositoryList,
  RepositoryListQuery,
  StartCodehostConnectInput,
  StartCodehostConnectResult,
  SubscriptionPlan,
} from './resources.js';
export { createAgentStore, defaultStorageKey } from './store.js';
export type { AgentLogEntry, AgentLogKind, AgentState, AgentStore, AgentStoreOptions, AgentStoreStats, GenerationActionResult } from './store.js';
export type { AgentStorage } from './store-persistence.js';
export { isGenerationRunning, isGenerationSettled } from './store-generation.js';
export type { ContainerState, GeneratedFile, GenerationKind, GenerationState, GenerationStatus, ToolStep } from './store-generation.js';
export { isTerminalProjectStatus } from './store-poller.js';
export type { ProjectSnapshot, ProjectWatchStatus } from './store-poller.js';
export { clampPage, clampPerPage, isPrivateRepository, repositoryPaging } from './store-codehost.js';
export type {
  CodehostConnectionState,
  CodehostConnectionStatus,
  CodehostSlice,
  CodehostStartState,
  CodehostStartStatus,
  RepositoryActionStatus,
  RepositoryLinkState,
  RepositoryListState,
  RepositoryPushState,
  StartCodehostInput,
} from './store-codehost.js';
export { deploymentConnectionKey, deploymentKey } from './store-deployments.js';
export type {
  DeploymentConnectionListState,
  DeploymentConnectionState,
  DeploymentConnectionStatus,
  DeploymentConnectStatus,
  DeploymentsSlice,
  DeploymentState,
  DeploymentStatus,
  ListStatus,
} from './store-deployments.js';
export type { IntegrationResult } from './store-integrations.js';
export { plansInDisplayOrder } from './store-plans.js';
export type { PlansSlice, PlansState } from './store-plans.js';
