/**
 * `npm run test:consumers`: the packed tarball in fresh apps (every folder of examples/ as it is, Vite on
 * React 18), installed from the npm registry into temporary folders. Slow by nature (installs and production
 * builds), so it has its own config and is not part of `npm test`; CI runs it (.ci/run).
 */
import { defineConfig } from 'vitest/config';
import { entryAliases } from '../../vite.config.ts';

export default defineConfig({
  resolve: { alias: entryAliases },
  test: {
    name: 'consumers',
    include: ['test/consumers/**/*.spec.ts'],
    environment: 'node',
    // One app at a time on a two-core machine; each step is an install or a production build.
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
