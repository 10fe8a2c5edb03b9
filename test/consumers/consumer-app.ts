/**
 * A fresh app in a temporary folder with the packed tarball installed from it, as a new user would install
 * agent-embed; everything else comes from the npm registry. Nothing is kept outside the temporary folder.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packTarball } from '../../scripts/pack.js';

/** The output of a finished command. */
export interface CommandResult {
  code: number;
  output: string;
}

/** Runs a command to its end and returns its exit code and combined output; never throws on a failure. */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** The environment of the apps: this process's, minus the Agent API secrets, with telemetry off. */
function appEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', CI: 'true', ...extra };
  for (const name of Object.keys(env)) if (name.startsWith('AGENT_API_') && !(name in extra)) delete env[name];
  delete env.NODE_OPTIONS;
  return env;
}

/** A temporary app: its folder, the tarball packed into it, and a way to write files and install. */
export interface ConsumerApp {
  path: string;
  tarball: string;
  /** The environment for commands in the app, with `extra` variables; npm's cache is inside the app's folder. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  write(files: Record<string, string>): void;
  install(dependencies: Record<string, string>, devDependencies: Record<string, string>): Promise<CommandResult>;
  remove(): void;
}

/** Creates an empty app folder holding the freshly packed tarball (run `npm run build` first). */
export function createConsumerApp(name: string): ConsumerApp {
  const path = mkdtempSync(join(tmpdir(), `agent-embed-${name}-`));
  const tarball = packTarball(path);
  const write = (files: Record<string, string>) => {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(path, file)), { recursive: true });
      writeFileSync(join(path, file), text);
    }
  };
  // npm's cache too lives in the app's folder, so a run leaves nothing behind and starts from the registry.
  const env = (extra: Record<string, string> = {}) =>
    appEnvironment({ npm_config_cache: join(path, '.npm-cache'), ...extra });
  return {
    path,
    tarball,
    env,
    write,
    install(dependencies, devDependencies) {
      write({
        'package.json': `${JSON.stringify(
          {
            name,
            private: true,
            type: 'module',
            dependencies: { 'agent-embed': `file:${tarball}`, ...dependencies },
            devDependencies,
          },
          null,
          2,
        )}\n`,
      });
      return runCommand('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: path, env: env() });
    },
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

/** A port nobody listens on right now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject()));
    });
  });
}

/** A long-running command (a server), in its own process group so that stopping it stops its children. */
export function startCommand(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): { process: ChildProcess; output: () => string; stop: () => Promise<void> } {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.pid === undefined) return;
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    },
  };
}

/** Polls a URL until it answers (any status); fails when the server exits or after `timeoutMs`. */
export async function waitForServer(
  url: string,
  timeoutMs: number,
  server: { process: ChildProcess; output: () => string },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(5000) });
      return;
    } catch {
      if (server.process.exitCode !== null) throw new Error(`The server exited:\n${server.output()}`);
      if (Date.now() > deadline) throw new Error(`${url} did not answer in ${timeoutMs} ms:\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
