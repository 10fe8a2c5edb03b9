/**
 * Every server example under examples/ as it is, from a clean copy: its own package.json installs with the
 * packed tarball as its agent-embed and no engine warning, and its one command (`npm start`) serves the proxy
 * that streams a generate to the mock for a signed-in end user and refuses anyone else. (examples/nextjs has
 * its own file, nextjs.spec.ts.)
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockAgentServer, type MockAgentServer } from 'agent-embed/mock';
import {
  createConsumerApp,
  engineWarnings,
  freePort,
  generateThroughProxy,
  startCommand,
  waitForServer,
  type ConsumerApp,
} from './consumer-app.js';
import { signSession } from '../../examples/session.js';

const examplesFolder = resolve(import.meta.dirname, '../../examples');
const serverExamples = readdirSync(examplesFolder, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'nextjs')
  .map((entry) => entry.name);
const secret = `session-secret-${Math.random().toString(36).slice(2)}`;

let app: ConsumerApp;
let mock: MockAgentServer;

beforeAll(async () => {
  app = createConsumerApp('examples');
  app.copyExamples();
  mock = await startMockAgentServer({ port: 0, speed: 'instant', rateLimit: false });
});

afterAll(async () => {
  await mock?.close();
  app?.remove();
});

describe('the server examples', () => {
  it('are the four the docs name', () => {
    expect(serverExamples.sort()).toEqual(['express', 'hono', 'node-http', 'web-standard']);
  });

  describe.each(serverExamples)('examples/%s', (name) => {
    it('installs from its own package.json with no engine warning', async () => {
      const installed = await app.installExample(name);
      expect(installed.code, installed.output).toBe(0);
      expect(engineWarnings(installed.output)).toEqual([]);
    });

    it('serves the proxy with `npm start`: a signed-in end user generates, nobody else gets in', async () => {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const server = startCommand('npm', ['start'], {
        cwd: join(app.path, 'examples', name),
        env: app.env({
          PORT: String(port),
          AGENT_API_BASE_URL: mock.url,
          AGENT_API_TOKEN: mock.token,
          SESSION_SECRET: secret,
          APP_ORIGIN: origin,
        }),
      });
      try {
        await waitForServer(`${origin}/api/agent/subscription-plans`, 60_000, server);
        expect((await fetch(`${origin}/api/agent/subscription-plans`)).status).toBe(401);
        const cookie = `session=${signSession({ externalUserId: `user-${name}` }, secret)}`;
        const generated = await generateThroughProxy(origin, cookie);
        expect(generated.contentType).toBe('text/event-stream');
        expect(generated.events).toContain('"stream_end"');
        expect(generated.projectStatus).toBe('ready');
      } finally {
        await server.stop();
      }
    });
  });
});
