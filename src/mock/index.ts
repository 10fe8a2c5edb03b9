/** agent-embed/mock: the whole Agent API simulated, as a fetch handler, a Node server (Node only) and a transport. */
// Built twice (vite.config.ts): for the `node` export condition as is, for browsers with browser-mock-server.ts.
export { createMockAgentApi } from './mock-agent-api.js';
export { defaultMockBaseUrl } from './mock-options.js';
export type { MockAgentApi, MockAgentApiOptions } from './mock-options.js';
export { startMockAgentServer } from './mock-server.js';
export type { MockAgentServer, MockAgentServerOptions } from './mock-server.js';
export { createMockFetch, createMockTransport, defaultMockExternalUser } from './mock-transport.js';
export type { MockExternalUser, MockProxyOptions, MockTransportOptions } from './mock-transport.js';
export { createMockSiteFetch, createWorkerMockTransport, serveMockInWorker } from './mock-worker.js';
export type { WorkerMockTransport, WorkerMockTransportOptions } from './mock-worker.js';
export { createMockAdminClient } from './mock-admin-client.js';
export type { MockAdminClient, MockAdminClientOptions, MockAdminState } from './mock-admin-client.js';
export { MockAdminError } from './mock-admin.js';
export type {
  MockAdmin,
  MockInstallationStatus,
  MockProjectSnapshot,
  MockTokenLifetime,
  MockTokenView,
} from './mock-admin.js';
export type { MockFault, MockFaultRoute } from './mock-fault.js';
export { creditsExhaustedMessage, defaultScript } from './mock-script.js';
export type { MockGenerationInput, MockGenerationStep, MockScenario } from './mock-script.js';
export type { MockSpeed, MockTimers } from './mock-generation.js';
export { deploymentProviders, providerAccountOf } from './mock-deployments.js';
export type { MockRequestRecord } from './mock-state.js';
