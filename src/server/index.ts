/** agent-embed/server: the agency proxy that holds the API token and keeps end users apart. */
export { createAgentProxy } from './agent-proxy.js';
export type { AgentProxyHandler, AgentProxyOptions, ProxyLogEntry } from './agent-proxy.js';
export type { AgentProxyUser } from './route-policy.js';
export { createMemoryProxyStore } from './memory-proxy-store.js';
export type { CachedStatus, MemoryProxyStoreOptions, ProxyStore } from './memory-proxy-store.js';
export { decideBudget, defaultReserve } from './fair-budget.js';
export type { BudgetDecision, BudgetEntry, BudgetLimits } from './fair-budget.js';
export { relayEventStream } from './event-stream-relay.js';
export type { EventStreamRelay, EventStreamRelayOptions, RelayOutcome, RelayTimers } from './event-stream-relay.js';
