/**
 * Which upstream requests the budget counts. It starts from the configured scope and learns: an upstream 429
 * on a family of routes it did not count means the upstream limits that family too, so from then on the
 * budget counts it (a wider upstream limit then never locks the team out with repeated 429 pauses).
 * Learned per process; each instance learns from its own first 429 of that family.
 */
import { agentRoutes, type AgentRouteName, type BudgetFamily } from '../core/index.js';

/** The budget family of a route, from the route contract. */
function familyOf(route: AgentRouteName): BudgetFamily | undefined {
  return agentRoutes[route].budget;
}

/** The counted families, and how they grow. */
export interface BudgetScope {
  counts(route: AgentRouteName): boolean;
  /** After an upstream 429 on `route`: counts its family from now on; true when it was not counted before. */
  learn(route: AgentRouteName): boolean;
}

/** Creates the scope: 'agent' counts the agent family at first, 'all' every family. */
export function createBudgetScope(scope: 'agent' | 'all'): BudgetScope {
  const every = Object.values(agentRoutes).map((route) => route.budget);
  const counted = new Set<BudgetFamily | undefined>(scope === 'all' ? every : ['agent']);
  return {
    counts: (route) => counted.has(familyOf(route)),
    learn(route) {
      const family = familyOf(route);
      if (family === undefined || counted.has(family)) return false;
      counted.add(family);
      return true;
    },
  };
}
