/** Every Agent API route the proxy forwards to the upstream, as alice calls it with a valid body (the audits' table). */
export interface RouteSample {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
  /** The route answers an event stream. */
  stream?: true;
  /** A success without a body still means the action happened. */
  emptySuccess?: true;
}

export const forwardedRoutes: RouteSample[] = [
  {
    name: 'generate',
    method: 'POST',
    path: '/agent/generate',
    body: { prompt: 'A landing page for a bakery' },
    stream: true,
  },
  {
    name: 'followUp',
    method: 'POST',
    path: '/agent/generate/p-alice',
    body: { prompt: 'Make the header blue' },
    stream: true,
  },
  { name: 'getProject', method: 'GET', path: '/agent/project/p-alice' },
  { name: 'listPlans', method: 'GET', path: '/subscription-plans' },
  { name: 'connectDeployment', method: 'POST', path: '/deployments/vercel/connections', body: { token: 'vercel-tok' } },
  { name: 'getDeploymentConnection', method: 'GET', path: '/deployments/vercel/connections/alice' },
  { name: 'listDeploymentConnections', method: 'GET', path: '/deployments/vercel/connections' },
  { name: 'deploy', method: 'POST', path: '/deployments/vercel/project/p-alice/deploy', body: {}, emptySuccess: true },
  { name: 'startCodehostConnect', method: 'POST', path: '/codehost/connect/start', body: { return_url: '/done' } },
  { name: 'getCodehostConnection', method: 'GET', path: '/codehost/connections/alice' },
  { name: 'listCodehostConnections', method: 'GET', path: '/codehost/connections' },
  { name: 'listRepositories', method: 'GET', path: '/codehost/connections/alice/repositories' },
  {
    name: 'linkRepository',
    method: 'POST',
    path: '/codehost/project/p-alice/link',
    body: { repo_owner: 'a', repo_name: 'b' },
    emptySuccess: true,
  },
  {
    name: 'pushRepository',
    method: 'POST',
    path: '/codehost/project/p-alice/push',
    body: { repo_owner: 'a', repo_name: 'b', private: true, branch: 'main' },
    emptySuccess: true,
  },
];
