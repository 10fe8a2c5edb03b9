/**
 * Which upstream requests the budget counts. It starts from the configured scope and learns: an upstream 429
 * on a family of routes it did not count means the upstream limits that family too, so from then on the
 * budget counts it (a wider upstream limit then never locks the team out with repeated 429 pauses).
 * Learned per process; each instance learns from its own first 429 of that family.
 */
import type { AgentRouteName } from '../core/index.js';

/** Families of routes that an upstream limits together. */
export type RouteFamily = 'agent' | 'deployments' | 'codehost' | 'plans';

/** The family of a route. */
export function familyOf(route: AgentRouteName): RouteFamily {
  switch (route) {
    case 'generate':
    case 'followUp':
    case 'getProject':
      return 'agent';
    case 'connectDeployment':
    case 'getDeploymentConnection':
    case 'listDeploymentConnections':
    case 'deploy':
      return 'deployments';
    case 'startCodehostConnect':
    case 'getCodehostConnection':
    case 'listCodehostConnections':
    case 'listRepositories':
    case 'linkRepository':
    case 'pushRepository':
      return 'codehost';
    case 'listPlans':
      return 'plans';
    default:
      return route satisfies never;
  }
}

/** The counted families, and how they grow. */
export interface BudgetScope {
  counts(route: AgentRouteName): boolean;
  /** After an upstream 429 on `route`: counts its family from now on; true when it was not counted before. */
  learn(route: AgentRouteName): boolean;
}

/** Creates the scope: 'agent' counts the agent family at first, 'all' every family. */
export function createBudgetScope(scope: 'agent' | 'all'): BudgetScope {
  const counted = new Set<RouteFamily>(scope === 'all' ? ['agent', 'deployments', 'codehost', 'plans'] : ['agent']);
  return {
    counts: (route) => counted.has(familyOf(route)),
    learn(route) {
      const family = familyOf(route);
      if (counted.has(family)) return false;
      counted.add(family);
      return true;
    },
  };
}
