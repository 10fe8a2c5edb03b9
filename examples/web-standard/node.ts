/**
 * The Web-standard module of server.ts served on Node by @hono/node-server (`npm start`); Bun and Deno serve
 * server.ts itself (`npm run start:bun`, `npm run start:deno`).
 */
import { serve } from '@hono/node-server';
import { agentBasePath } from '../proxy-config.js';
import { handleRequest } from './server.js';

const port = Number(process.env.PORT ?? 3000);
serve({ fetch: (request) => handleRequest(request), port }, () => {
  console.log(`Agent proxy on http://localhost:${port}${agentBasePath}`);
});
