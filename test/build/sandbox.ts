/** A consumer's node_modules holding the built package (dist and package.json) and the dependencies named. */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The repository root. */
export const root = resolve(import.meta.dirname, '../..');

/** A temporary folder with node_modules/agent-embed and links to the repository's copies of `dependencies`. */
export function createSandbox(dependencies: readonly string[]): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'agent-embed-sandbox-'));
  const installed = join(path, 'node_modules');
  mkdirSync(join(installed, 'agent-embed'), { recursive: true });
  cpSync(join(root, 'dist'), join(installed, 'agent-embed/dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(installed, 'agent-embed/package.json'));
  for (const dependency of dependencies) {
    mkdirSync(dirname(join(installed, dependency)), { recursive: true });
    symlinkSync(join(root, 'node_modules', dependency), join(installed, dependency), 'dir');
  }
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The package's runtime dependencies, without the optional React peers. */
export const runtimeDependencies = ['zustand', 'eventsource-parser'] as const;
