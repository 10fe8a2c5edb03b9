/** Packs the package as `npm publish` would (after `npm run build`) into a folder; returns the tarball's path. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root. */
export const root = resolve(import.meta.dirname, '..');

/** Runs `npm pack` into `destination` and returns the tarball's path. */
export function packTarball(destination: string): string {
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` first.');
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [packed] = JSON.parse(output) as [{ filename: string }];
  return join(destination, packed.filename);
}
