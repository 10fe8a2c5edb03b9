/**
 * `npm run test:release` (after `npm run build`): the packed tarball, as npm would publish it, passes publint
 * in strict mode and Are the Types Wrong with the ESM-only profile (every entry typed for Node 16+ ESM and
 * bundlers; require() of the ESM entries works on Node 20.19+, see test/build/require.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packTarball, root } from './pack.js';

const folder = mkdtempSync(join(tmpdir(), 'agent-embed-release-'));
const run = (tool: string, args: string[]) => {
  console.log(`\n$ ${tool} ${args.join(' ')}`);
  execFileSync(join(root, 'node_modules/.bin', tool), args, { cwd: folder, stdio: 'inherit' });
};
try {
  const tarball = packTarball(folder);
  run('publint', ['run', '--strict', tarball]);
  run('attw', [tarball, '--profile', 'esm-only', '--no-emoji', '--no-color']);
  console.log('\nThe tarball is clean: publint (strict) and attw (esm-only).');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
