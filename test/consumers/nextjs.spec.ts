/**
 * examples/nextjs as it is (its own package.json, next.config.mjs and tsconfig.json, beside the shared
 * proxy-config.ts and session.ts), copied clean with the packed tarball as its agent-embed: the install prints
 * no engine warning, `next build` passes with no secrets in the environment, then `next start` on a free port
 * serves the page with the builder in its HTML, and a generate streams through the route handler to the mock.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockAgentServer, type MockAgentServer } from 'agent-embed/mock';
import {
  createConsumerApp,
  engineWarnings,
  freePort,
  generateThroughProxy,
  runCommand,
  startCommand,
  waitForServer,
  type ConsumerApp,
} from './consumer-app.js';
import { signSession } from '../../examples/session.js';

const promptLabel = 'Describe the site you want';
const secret = `session-secret-${Math.random().toString(36).slice(2)}`;

let app: ConsumerApp;
let mock: MockAgentServer;
let folder: string;

beforeAll(async () => {
  app = createConsumerApp('nextjs');
  app.copyExamples();
  folder = join(app.path, 'examples/nextjs');
  mock = await startMockAgentServer({ port: 0, speed: 'instant', rateLimit: false });
});

afterAll(async () => {
  await mock?.close();
  app?.remove();
});

describe('examples/nextjs, a Next.js 16 App Router app', () => {
  it('installs from its own package.json with no engine warning', async () => {
    const installed = await app.installExample('nextjs');
    expect(installed.code, installed.output).toBe(0);
    expect(engineWarnings(installed.output)).toEqual([]);
  });

  it('builds with no Agent API secrets in the environment', async () => {
    const built = await runCommand('npm', ['run', 'build'], { cwd: folder, env: app.env() });
    expect(built.code, built.output).toBe(0);
    expect(built.output).not.toMatch(/apiToken|Failed to collect/);
  });

  it('serves the page with the builder in its HTML and streams a generate through the route handler', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const server = startCommand('npm', ['start', '--', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: folder,
      env: app.env({
        AGENT_API_BASE_URL: mock.url,
        AGENT_API_TOKEN: mock.token,
        SESSION_SECRET: secret,
        APP_ORIGIN: origin,
      }),
    });
    const cookie = `session=${signSession({ externalUserId: 'alice' }, secret)}`;
    try {
      await waitForServer(origin, 60_000, server);
      const page = await fetch(origin);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('data-agent-embed');
      expect(html).toContain(promptLabel);

      expect((await fetch(`${origin}/api/agent/subscription-plans`)).status).toBe(401);
      const generated = await generateThroughProxy(origin, cookie);
      expect(generated.contentType).toBe('text/event-stream');
      expect(generated.events).toContain('"project_created"');
      expect(generated.events).toContain('"stream_end"');
      expect(generated.projectStatus).toBe('ready');
      // One generate POST reached the API for one request: nothing along the way retried it.
      expect(mock.api.admin.requests.filter((request) => request.path.endsWith('/agent/generate'))).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });
});
