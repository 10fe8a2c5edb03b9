/**
 * The packed tarball in a fresh Next.js 16 App Router app, set up as docs/frameworks.md shows: `next build`
 * with no Agent API secrets in the environment, then `next start` on a free port; the Server Component page
 * is served with the builder in its HTML, and a generate streams through the route handler to the mock.
 */
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

const promptLabel = 'Describe the bakery site you want';

/** The app's files: the route handler, a Server Component page and its client wrapper, as in the docs. */
const files: Record<string, string> = {
  'next.config.mjs': `import { fileURLToPath } from 'node:url';
/** @type {import('next').NextConfig} */
export default { turbopack: { root: fileURLToPath(new URL('.', import.meta.url)) } };
`,
  'tsconfig.json': JSON.stringify(
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
  'app/layout.tsx': `import type { ReactNode } from 'react';
import 'agent-embed/styles.css';

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
`,
  // A Server Component: it passes only serialisable props (strings) to the client wrapper.
  'app/page.tsx': `import { Builder } from './builder';

export default function Page() {
  return (
    <main>
      <h1>Bakery sites</h1>
      <Builder userId="alice" promptLabel="${promptLabel}" />
    </main>
  );
}
`,
  // The client wrapper: callbacks and labels that hold functions live on the client side.
  'app/builder.tsx': `'use client';
import { AgentBuilder, AgentProvider } from 'agent-embed';
import type { AgentApiError } from 'agent-embed/core';

export function Builder({ userId, promptLabel }: { userId: string; promptLabel: string }) {
  return (
    <AgentProvider
      baseUrl="/api/agent"
      externalUser={{ id: userId }}
      labels={{ generatePanel: { promptLabel } }}
      onError={(error: AgentApiError) => console.error('agent-embed:', error.kind, error.message)}
    >
      <AgentBuilder onBuyCredits={() => window.location.assign('/billing')} />
    </AgentProvider>
  );
}
`,
  'app/api/agent/[...path]/route.ts': `import { createAgentProxy } from 'agent-embed/server';

// Created at module scope, read from the environment at the first request: next build needs no secrets.
const proxy = createAgentProxy({
  apiBaseUrl: process.env.AGENT_API_BASE_URL ?? '',
  apiToken: process.env.AGENT_API_TOKEN ?? '',
  basePath: '/api/agent',
  // The test app's stand-in for a session: a real app reads its signed session cookie here.
  authorize: (request) => {
    const id = request.headers.get('x-test-user');
    return id === null ? null : { externalUserId: id };
  },
});

export const GET = proxy;
export const POST = proxy;
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
`,
};

let app: ConsumerApp;
let mock: MockAgentServer;

beforeAll(async () => {
  app = createConsumerApp('nextjs');
  app.write(files);
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
    const built = await runCommand('npx', ['--no-install', 'next', 'build'], { cwd: app.path, env: app.env() });
    expect(built.code, built.output).toBe(0);
    expect(built.output).not.toMatch(/apiToken|Failed to collect/);
  });

  it('serves the page with the builder in its HTML and streams a generate through the route handler', async () => {
    const port = await freePort();
    const server = startCommand('npx', ['--no-install', 'next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: app.path,
      env: app.env({ AGENT_API_BASE_URL: mock.url, AGENT_API_TOKEN: mock.token }),
    });
    const origin = `http://127.0.0.1:${port}`;
    try {
      await waitForServer(origin, 60_000, server.output);
      const page = await fetch(origin);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('data-agent-embed');
      expect(html).toContain(promptLabel);

      expect((await fetch(`${origin}/api/agent/subscription-plans`)).status).toBe(401);
      const generate = await fetch(`${origin}/api/agent/agent/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-test-user': 'alice' },
        body: JSON.stringify({ prompt: 'A landing page for a neighbourhood bakery' }),
      });
      expect(generate.headers.get('content-type')).toBe('text/event-stream');
      const events = await generate.text();
      expect(events).toContain('"project_created"');
      expect(events).toContain('"stream_end"');
      const projectId = /"project_id":"([^"]+)"/.exec(events)?.[1] ?? '';
      const status = await fetch(`${origin}/api/agent/agent/project/${projectId}`, {
        headers: { 'x-test-user': 'alice' },
      });
      expect(((await status.json()) as { project_status: string }).project_status).toBe('ready');
      // One generate POST reached the API for one request: nothing along the way retried it.
      expect(mock.api.admin.requests.filter((request) => request.path.endsWith('/agent/generate'))).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });
});
