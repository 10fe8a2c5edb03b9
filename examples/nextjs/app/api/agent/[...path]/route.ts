/**
 * Next.js App Router: `app/api/agent/[...path]/route.ts`. The proxy is a plain Request -> Response
 * handler, so it is exported as the route's GET and POST as is; nothing from `next` is needed.
 */
import { createAgentProxy } from 'agent-embed/server';
import { proxyOptionsFromEnv } from '../../../../../proxy-config.js';

// Created once per server process, so the in-memory ownership and budget outlive a single request.
const proxy = createAgentProxy(proxyOptionsFromEnv());

/** Every spec endpoint is a GET or a POST; anything else is a 404 from Next itself. */
export const GET = proxy;
export const POST = proxy;

/** Node runtime (the default store lives in process memory) and never cached or prerendered. */
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
