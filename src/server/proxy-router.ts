/** The proxy's router: one match over core's route contract, for the mirrored API's routes and the proxy's own. */
import {
  matchRoute,
  routeContract,
  type AgentRouteName,
  type ProxyRouteName,
  type RouteMatch,
  type RouteName,
} from '../core/index.js';

/** A request's route: an Agent API route the proxy forwards, or one of its own that it answers (its family says). */
export type ProxyRoute =
  { own: false; match: RouteMatch<AgentRouteName> } | { own: true; match: RouteMatch<ProxyRouteName> };

/** The route of a method and a path relative to the base path, from the route contract; undefined outside it. */
export function routeOf(method: string, path: string): ProxyRoute | undefined {
  const match = matchRoute<RouteName>(method, path, { routes: routeContract });
  if (match === undefined) return undefined;
  return match.route.family === 'proxy'
    ? { own: true, match: match as RouteMatch<ProxyRouteName> }
    : { own: false, match: match as RouteMatch<AgentRouteName> };
}
