/**
 * The packed tarball in a fresh Vite app on React 18.3 (the low end of the peer range): it type-checks
 * with strict settings and no `vite/client` types (the stylesheet import has its own declaration), and the
 * production build bundles the components, and the in-browser mock in a module worker of the app's (the README's
 * `new Worker(new URL('./mock-worker.ts', import.meta.url), …)`), with no `node:` module.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumerApp, engineWarnings, runCommand, type ConsumerApp } from './consumer-app.js';

const files: Record<string, string> = {
  'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>Builder</title></head>
  <body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>
`,
  'tsconfig.json': JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        module: 'ESNext',
        moduleResolution: 'bundler',
        jsx: 'react-jsx',
        strict: true,
        noEmit: true,
        isolatedModules: true,
        verbatimModuleSyntax: true,
        exactOptionalPropertyTypes: true,
        noUncheckedSideEffectImports: true,
        skipLibCheck: false,
        types: [],
      },
      include: ['src'],
    },
    null,
    2,
  ),
  'src/main.tsx': `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AgentBuilder, AgentProvider } from 'agent-embed';
import type { AgentApiError } from 'agent-embed/core';
import { createWorkerMockTransport } from 'agent-embed/mock';
import 'agent-embed/styles.css';

const worker = new Worker(new URL('./mock-worker.ts', import.meta.url), { type: 'module' });
const transport = createWorkerMockTransport(worker);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AgentProvider
      transport={transport}
      externalUser={{ id: 'alice' }}
      onError={(error: AgentApiError) => console.error(error.kind)}
    >
      <AgentBuilder />
    </AgentProvider>
  </StrictMode>,
);
`,
  'src/mock-worker.ts': `import { serveMockInWorker } from 'agent-embed/mock';

serveMockInWorker({ speed: 'instant', externalUser: { id: 'alice' } });
`,
};

let app: ConsumerApp;

beforeAll(() => {
  app = createConsumerApp('vite-react18');
  app.write(files);
});

afterAll(() => app?.remove());

describe('a Vite app on React 18', () => {
  it('installs the tarball beside react 18.3 with no engine warning', async () => {
    const installed = await app.install(
      { react: '~18.3.1', 'react-dom': '~18.3.1' },
      { vite: '^8.0.0', typescript: '5.9.3', '@types/react': '~18.3.0', '@types/react-dom': '~18.3.0' },
    );
    expect(installed.code, installed.output).toBe(0);
    expect(engineWarnings(installed.output)).toEqual([]);
    const react = JSON.parse(readFileSync(join(app.path, 'node_modules/react/package.json'), 'utf8')) as {
      version: string;
    };
    expect(react.version).toMatch(/^18\.3\./);
  });

  it('type-checks with strict settings, the library declarations included', async () => {
    const checked = await runCommand('npx', ['--no-install', 'tsc', '-p', '.'], {
      cwd: app.path,
      env: app.env(),
    });
    expect(checked.code, checked.output).toBe(0);
  });

  it('builds for the browser with no node: module and no externalisation warning', async () => {
    const built = await runCommand('npx', ['--no-install', 'vite', 'build'], { cwd: app.path, env: app.env() });
    expect(built.code, built.output).toBe(0);
    // The one warning this used to print: node:http externalised, from the mock's Node server in the same entry.
    // (Our entry's "use client" directives are reported as well; Next.js needs them.)
    expect(built.output).not.toMatch(/externali[sz]ed for browser compatibility|node:/);
    const assets = join(app.path, 'dist/assets');
    const scripts = readdirSync(assets).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const code = scripts.map((file) => readFileSync(join(assets, file), 'utf8')).join('\n');
    expect(code).not.toMatch(/["']node:/);
    expect(code).toContain('data-agent-embed');
    expect(readdirSync(assets).some((file) => file.endsWith('.css'))).toBe(true);
    // The worker is a script of its own, with the mock and the proxy in it.
    const worker = scripts.find((file) => file.startsWith('mock-worker'));
    expect(worker, scripts.join(', ')).toBeDefined();
    expect(readFileSync(join(assets, worker!), 'utf8')).toContain('mock-end-user');
  });
});
