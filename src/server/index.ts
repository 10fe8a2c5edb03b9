/** agent-embed/server: the agency proxy that holds the API token and keeps end users apart. */
export { createAgentProxy } from './agent-proxy.js';
export type { AgentProxyHandler, AgentProxyOptions, ProxyLogEntry } from './agent-proxy.js';
export type { AgentProxyUser } from './route-policy.js';
export type { GenerationRecord } from './generation-records.js';
export type { QuotaExceededBody, QuotaLimit, QuotaOption, QuotaPeriod, Usage } from './quota.js';
export { createMemoryProxyStore } from './memory-proxy-store.js';
export type { CachedStatus, MemoryProxyStoreOptions, ProxyStore } from './memory-proxy-store.js';
export { createRedisProxyStore } from './redis-proxy-store.js';
export type { RedisClientLike, RedisProxyStore, RedisProxyStoreOptions } from './redis-proxy-store.js';
export { ProxyStoreUnavailableError } from './proxy-store.js';
export { relayLeaseMs } from './relaying-projects.js';
export type { GenerationEvents, ProjectPatch, RecordedEvent } from './proxy-store.js';
export { createBudgetLedger } from './fair-budget.js';
export type { BudgetLedger } from './fair-budget.js';
export type { BudgetDecision, BudgetLimits } from './fair-budget.js';
export { relayEventStream } from './event-stream-relay.js';
export type { EventStreamRelay, EventStreamRelayOptions, RelayOutcome, RelayTimers } from './event-stream-relay.js';
