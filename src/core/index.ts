/** agent-embed/core: the typed Agent API client, its transport, errors and wire types. No React. */
export { createAgentClient } from './wire/client.js';
export type {
  AgentClient,
  AgentClientOptions,
  GenerationOutcome,
  GenerationResult,
  ProjectEventsOptions,
  ProjectEventsResult,
  RequestOptions,
  StreamOptions,
} from './wire/client.js';
export { createHttpTransport, defaultStreamIdleTimeoutMs } from './wire/transport.js';
export type {
  AgentTransport,
  HeadersOption,
  HttpTransportOptions,
  StreamHandlers,
  TransportRequest,
} from './wire/transport.js';
export { createSlicer, defaultStreamSlicing, schedulerYield, yieldToBrowser } from './wire/time-slice.js';
export { fetchInWorker, fetchThroughWorker, serveFetchInWorker } from './wire/worker-fetch.js';
export type { Slicer, StreamSlicing } from './wire/time-slice.js';
export {
  AgentApiError,
  agentApiMessages,
  agentErrorTable,
  creditsExhaustedError,
  errorFromResponse,
  generationFailedError,
  isAgentApiError,
  isFailureBody,
  outcomeMessages,
  parseRetryAfter,
  streamInterruptedError,
} from './wire/errors.js';
export type {
  AgentApiErrorOptions,
  AgentErrorCode,
  AgentErrorKind,
  AgentErrorRow,
  QuotaDetails,
} from './wire/errors.js';
export { agentEventOf, fileCreatedPath, isTerminalEvent, knownEventTypes, parseAgentEvent } from './wire/events.js';
export type {
  AgentEvent,
  AgentEventType,
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
} from './wire/events.js';
export {
  agentIdPattern,
  agentRoutes,
  familyOfPath,
  fillPath,
  isPromptLongEnough,
  promptErrors,
  matchRoute,
  minimumPromptLength,
  proxyRoutes,
  routeContract,
} from './wire/routes.js';
export type {
  AgentPathOverrides,
  AgentRoute,
  AgentRouteName,
  BudgetFamily,
  JsonRouteName,
  ListRouteName,
  ProxyRouteName,
  RouteAnswer,
  RouteBody,
  RouteData,
  RouteFamily,
  RouteMatch,
  RouteName,
  RouteParams,
  RouteTypes,
} from './wire/routes.js';
export type {
  ConversationBody,
  ConversationTurn,
  ConversationTurnOutcome,
  ProjectListBody,
  ProjectSummary,
  Usage,
  UsageBody,
} from './wire/proxy-resources.js';
export { afterGenerationOf, firstEventIdOfGeneration, generationOfEventId } from './wire/proxy-resources.js';
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
} from './wire/resources.js';
export { repositoryPaging, timestampOf } from './wire/resources.js';
export { createAgentStore, defaultStorageKey } from './store/agent-store.js';
export { observeLifecycle } from './store/lifecycle.js';
export type { AgentLifecycleEvent, LifecycleOptions } from './store/lifecycle.js';
export type {
  AgentLogEntry,
  AgentLogKind,
  AgentState,
  AgentStore,
  AgentStoreOptions,
  AgentStoreStats,
  GenerationActionResult,
} from './store/agent-store.js';
export type { AgentStorage } from './store/persistence.js';
export type { GenerationsSlice } from './store/generations-slice.js';
export type { RecoveryMethod } from './store/generation-recovery.js';
export type { GenerationState } from './store/generation.js';
export { createGenerationDraft, endedOutcome, reduceGenerationEvent } from './wire/generation-reducer.js';
export type {
  AppliedEvent,
  ContainerState,
  FileList,
  GeneratedFile,
  GenerationDraft,
  GenerationKind,
  ToolStep,
} from './wire/generation-reducer.js';
export {
  generationActionCases,
  generationStatuses,
  generationTransitions,
  isGenerationReporting,
  isGenerationRunning,
  isGenerationSettled,
  runningGenerationStatuses,
} from './wire/generation-transitions.js';
export type {
  AdoptedStatus,
  GenerationActionCase,
  GenerationStatus,
  PolledStatus,
} from './wire/generation-transitions.js';
export {
  adoptedStatusOf,
  applyGenerationAction,
  createRecordingDraft,
  generationActionCase,
  generationCounts,
  generationOutcome,
  isDeployable,
  isGenerationBusy,
  isOutOfCredits,
  isPreviewable,
  isRecovering,
  mayHaveStarted,
  polledStatusOf,
  projectStatusOf,
  settleTurnOutcome,
  turnOutcomeOf,
} from './wire/generation-machine.js';
export type { GenerationAction, GenerationCounts, GenerationFacts } from './wire/generation-machine.js';
export type { Platform, PlatformOptions } from './store/platform.js';
export { isTerminalProjectStatus } from './store/project-poller.js';
export type { ProjectSnapshot, ProjectWatchStatus } from './store/project-poller.js';
export { codehostConnectionStatus, isPrivateRepository, selectRepositoryPages } from './store/codehost-slice.js';
export type { CodehostConnectionStatus, CodehostSlice, RepositoryPages } from './store/codehost-slice.js';
export { deploymentConnectionStatus } from './store/deployment-connection.js';
export type { DeploymentConnectionStatus } from './store/deployment-connection.js';
export { idleMutation, mutationKeys, selectMutation } from './store/mutations.js';
export type {
  Mutation,
  MutationKey,
  MutationStatus,
  MutationsSlice,
  RepositoryRef,
  StartCodehostInput,
} from './store/mutations.js';
export type { IntegrationResult } from './store/slice-context.js';
export {
  clampPage,
  clampPerPage,
  idleResource,
  plansInDisplayOrder,
  repositoryKeyPrefix,
  resourceSpecs,
  selectResource,
} from './store/resources.js';
export type { Resource, ResourceSpec, ResourceStatus, ResourcesSlice } from './store/resources.js';
export type { ProjectListSlice } from './store/project-list-slice.js';
export { selectProjectView } from './store/project-view.js';
export { selectProjectRow, selectUnlistedProjectIds, type ProjectRow } from './store/project-rows.js';
export type {
  ProgressStage,
  ProjectPhase,
  ProjectProgress,
  ProjectView,
  ProjectViewSource,
} from './store/project-view.js';
export type {
  ConversationEntry,
  ConversationSlice,
  TurnOutcome,
  TurnOutcomeStatus,
} from './store/conversation-slice.js';
export { parseHttpUrl, safeHttpUrl } from './wire/safe-url.js';
