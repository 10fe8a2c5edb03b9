/**
 * The packed tarball in a fresh Next.js 16 App Router app made of examples/nextjs (the route handler, the
 * Server Component page and its client wrapper of docs/frameworks.md): `next build` with no secrets in the
 * environment, then `next start` on a free port; the page is served with the builder in its HTML, and a
 * generate streams through the route handler to the mock.
 */
import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockAgentServer, type MockAgentServer } from 'agent-embed/mock';
import {
  createConsumerApp,
  freePort,
  runCommand,
  startCommand,
  waitForServer,
  type ConsumerApp,
} from './consumer-app.js';
import { signSession } from '../../examples/session.js';

const examples = resolve(import.meta.dirname, '../../examples');

const promptLabel = 'Describe the site you want';
const secret = `session-secret-${Math.random().toString(36).slice(2)}`;

/** The app is examples/nextjs as it is, beside the shared proxy-config.ts and session.ts it imports. */
const exampleFiles = ['nextjs/app', 'proxy-config.ts', 'session.ts'];

/** What a fresh app adds around the example: the config files create-next-app would write. */
const configFiles: Record<string, string> = {
  // The project root is the examples folder, so the shared modules one level up are compiled too.
  'nextjs/next.config.mjs': `import { fileURLToPath } from 'node:url';
/** @type {import('next').NextConfig} */
export default { turbopack: { root: fileURLToPath(new URL('..', import.meta.url)) } };
`,
  'nextjs/tsconfig.json': JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        lib: ['dom', 'dom.iterable', 'esnext'],
        strict: true,
        noEmit: true,
        module: 'esnext',
        moduleResolution: 'bundler',
        jsx: 'react-jsx',
        isolatedModules: true,
        esModuleInterop: true,
        resolveJsonModule: true,
        skipLibCheck: true,
        noUncheckedSideEffectImports: true,
        plugins: [{ name: 'next' }],
      },
      include: ['next-env.d.ts', '**/*.ts', '**/*.tsx', '.next/types/**/*.ts'],
      exclude: ['node_modules'],
    },
    null,
    2,
  ),
};

let app: ConsumerApp;
let mock: MockAgentServer;

beforeAll(async () => {
  app = createConsumerApp('nextjs');
  for (const file of exampleFiles) cpSync(join(examples, file), join(app.path, file), { recursive: true });
  app.write(configFiles);
  mock = await startMockAgentServer({ port: 0, speed: 'instant', rateLimit: false });
});

afterAll(async () => {
  await mock?.close();
  app?.remove();
});

describe('a Next.js 16 App Router app', () => {
  it('installs the tarball beside next, react and react-dom', async () => {
    const installed = await app.install(
      { next: '^16.0.0', react: '^19.2.0', 'react-dom': '^19.2.0' },
      { typescript: '5.9.3', '@types/react': '^19.2.0', '@types/react-dom': '^19.2.0', '@types/node': '^20.19.0' },
    );
    expect(installed.code, installed.output).toBe(0);
  });

  it('builds with no Agent API secrets in the environment', async () => {
    const built = await runCommand('npx', ['--no-install', 'next', 'build'], {
      cwd: join(app.path, 'nextjs'),
      env: app.env(),
    });
    expect(built.code, built.output).toBe(0);
    expect(built.output).not.toMatch(/apiToken|Failed to collect/);
  });

  it('serves the page with the builder in its HTML and streams a generate through the route handler', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const server = startCommand('npx', ['--no-install', 'next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: join(app.path, 'nextjs'),
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
      const generate = await fetch(`${origin}/api/agent/agent/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ prompt: 'A landing page for a neighbourhood bakery' }),
      });
      expect(generate.headers.get('content-type')).toBe('text/event-stream');
      const events = await generate.text();
      expect(events).toContain('"project_created"');
      expect(events).toContain('"stream_end"');
      const projectId = /"project_id":"([^"]+)"/.exec(events)?.[1] ?? '';
      const status = await fetch(`${origin}/api/agent/agent/project/${projectId}`, {
        headers: { cookie },
      });
      expect(((await status.json()) as { project_status: string }).project_status).toBe('ready');
      // One generate POST reached the API for one request: nothing along the way retried it.
      expect(mock.api.admin.requests.filter((request) => request.path.endsWith('/agent/generate'))).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });
});
