import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import packageJson from './package.json' with { type: 'json' };
import { chromiumArgs } from './scripts/chromium.ts';

const source = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/** The built-in locale packs, each its own entry point `agent-embed/locales/<tag>` (English is built in). */
export const localeTags = ['de', 'fr', 'es', 'pt-BR', 'ja', 'ar'] as const;

/** Public entry points resolved to source, so tests and stories import only what users import. */
export const entryAliases = [
  { find: /^agent-embed$/, replacement: source('react/index.ts') },
  { find: /^agent-embed\/core$/, replacement: source('core/index.ts') },
  { find: /^agent-embed\/server$/, replacement: source('server/index.ts') },
  { find: /^agent-embed\/mock$/, replacement: source('mock/index.ts') },
  { find: /^agent-embed\/styles\.css$/, replacement: source('react/styles.css') },
  { find: /^agent-embed\/locales\/([A-Za-z-]+)$/, replacement: source('locales/$1/index.ts') },
];

const react18Modules = fileURLToPath(new URL('./compat/react18/node_modules/', import.meta.url));
const react18Aliases = ['react', 'react-dom', '@testing-library/react', '@testing-library/dom', 'zustand'].map(
  (name) => ({
    find: new RegExp(`^${name.replace('/', '\\/')}(?=$|/)`),
    replacement: `${react18Modules}${name}`,
  }),
);

const external = [
  ...Object.keys(packageJson.dependencies),
  ...Object.keys(packageJson.peerDependencies),
  ...builtinModules,
].map((name) => new RegExp(`^(node:)?${name}(/.*)?$`));

/** Ships the one stylesheet as dist/styles.css, unprocessed: it is already scoped and layered. */
const stylesheet: Plugin = {
  name: 'agent-embed-stylesheet',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'styles.css', source: readFileSync(source('react/styles.css'), 'utf8') });
    // `import 'agent-embed/styles.css'` resolves to types too, for TypeScript checking side-effect imports.
    this.emitFile({
      type: 'asset',
      fileName: 'styles.css.d.ts',
      source: '// A stylesheet: imported for its effect.\nexport {};\n',
    });
  },
};

const mockEntry = source('mock/index.ts');
const browserMockEntry = `${mockEntry}?browser`;

/**
 * agent-embed/mock is built twice from one entry: for Node (the `node` export condition) with the mock as a
 * real HTTP server, and for everything else with that server swapped for one that says it needs Node, so a
 * browser bundle never meets a `node:` import.
 */
const browserMock: Plugin = {
  name: 'agent-embed-browser-mock',
  apply: 'build',
  enforce: 'pre',
  resolveId(id, importer) {
    if (id === browserMockEntry) return browserMockEntry;
    if (importer === browserMockEntry && id === './mock-server.js') return source('mock/browser-mock-server.ts');
    return undefined;
  },
};

/** Debian's Chromium (never a downloaded one), for the suites that run in a real browser. */
const chromium = playwright({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // The scripts' flags; the provider itself decides headless or not.
    args: chromiumArgs.filter((flag) => flag !== '--headless'),
  },
});

/** Dependencies a browser-mode project prebundles: without them the first test reloads the page mid-run. */
const browserOptimizeDeps = {
  include: ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'react/jsx-dev-runtime'],
};

/** Bundling drops module-level directives, so every chunk holding React code gets 'use client' back. */
const useClientBanner = (chunk: { moduleIds: readonly string[] }) =>
  chunk.moduleIds.some((id) => id.includes('/src/react/')) ? "'use client';" : '';

export default defineConfig({
  resolve: { alias: entryAliases },
  plugins: [stylesheet, browserMock],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    target: 'es2022',
    lib: {
      entry: {
        index: source('react/index.ts'),
        core: source('core/index.ts'),
        server: source('server/index.ts'),
        mock: browserMockEntry,
        'mock-node': mockEntry,
        ...Object.fromEntries(localeTags.map((tag) => [`locales/${tag}`, source(`locales/${tag}/index.ts`)])),
      },
      formats: ['es'],
    },
    rollupOptions: {
      external,
      output: { banner: useClientBanner },
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'node', environment: 'node', include: ['test/**/*.node.test.ts'], exclude: ['test/browser/**'] },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: [
            'test/**/*.node.test.ts',
            'test/**/*.browser.test.tsx',
            'test/build/**',
            'test/browser/**',
            'test/redis/**',
          ],
          setupFiles: ['test/setup-dom.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'build', environment: 'node', include: ['test/build/**/*.test.ts'] },
      },
      {
        // The component tests on React 18 (the low end of the peer range): React and every package that
        // imports it resolve to compat/react18 (installed by `npm run test:react18`).
        extends: true,
        resolve: { alias: [...entryAliases, ...react18Aliases] },
        test: {
          name: 'react18',
          environment: 'jsdom',
          include: ['test/react/**/*.test.tsx'],
          setupFiles: ['test/setup-dom.ts'],
          env: { EXPECTED_REACT_MAJOR: '18' },
        },
      },
      {
        // Real Chromium through playwright-core; needs /usr/bin/chromium (or CHROMIUM_PATH).
        extends: true,
        test: {
          name: 'browser',
          environment: 'node',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        // A real Redis (Debian's redis-server, started by the tests on a free port; `npm run test:redis`).
        extends: true,
        test: {
          name: 'redis',
          environment: 'node',
          include: ['test/redis/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 30_000,
          fileParallelism: false,
        },
      },
      {
        // Tests that run in a Chromium page (`*.browser.test.tsx`): every story in every built-in locale (no English
        // default string left on the page), and the in-browser mock in a real module worker.
        extends: true,
        optimizeDeps: browserOptimizeDeps,
        test: {
          name: 'locales',
          include: ['test/**/*.browser.test.tsx'],
          setupFiles: ['test/setup-dom.ts'],
          browser: {
            enabled: true,
            headless: true,
            provider: chromium,
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
      {
        // Every story as a test in real Chromium (Debian's, never a downloaded one) with the a11y addon's axe check.
        extends: true,
        plugins: [storybookTest({ configDir: fileURLToPath(new URL('./.storybook', import.meta.url)) })],
        // Required in this project too: without it the first story reloads the page mid-run to optimise React.
        optimizeDeps: browserOptimizeDeps,
        test: {
          name: 'storybook',
          browser: {
            enabled: true,
            headless: true,
            provider: chromium,
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
