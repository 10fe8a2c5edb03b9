/**
 * Next.js App Router: `app/api/agent/[...path]/route.ts`. The proxy is a plain Request -> Response
 * handler, so it is exported as the route's GET and POST as is; nothing from `next` is needed.
 */
import { createAgentProxy } from 'agent-embed/server';
// Extensionless, as Next.js apps write it: Turbopack does not map a '.js' specifier to a '.ts' file.
import { proxyOptionsFromEnv } from '../../../../../proxy-config';

// Created once per server process, so the in-memory ownership and budget outlive a single request. Creating
// it needs no secret: `next build` loads this module without any, and the proxy checks its options at the
// first request (a missing token answers 500 and says so in the server log).
const proxy = createAgentProxy(proxyOptionsFromEnv());

/** Every spec endpoint is a GET or a POST; anything else is a 404 from Next itself. */
export const GET = proxy;
export const POST = proxy;

/** Node runtime (the default store lives in process memory) and never cached or prerendered. */
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
