/**
 * A fresh app in a temporary folder with the packed tarball installed from it, as a new user would install
 * agent-embed; everything else comes from the npm registry. Nothing is kept outside the temporary folder.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
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

/** The repository's examples folder. */
const examples = resolve(import.meta.dirname, '../../examples');

/** `npm install` as a user runs it, warnings shown, so that an engine warning can be seen and refused. */
const installArgs = ['install', '--no-audit', '--no-fund', '--loglevel=warn'];

/** The lines of an install's output that say a package does not support this Node version. */
export function engineWarnings(output: string): string[] {
  return output.split('\n').filter((line) => /EBADENGINE|Unsupported engine/i.test(line));
}

/** A temporary app: its folder, the tarball packed into it, and a way to write files and install. */
export interface ConsumerApp {
  path: string;
  tarball: string;
  /** The environment for commands in the app, with `extra` variables; npm's cache is inside the app's folder. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  write(files: Record<string, string>): void;
  install(dependencies: Record<string, string>, devDependencies: Record<string, string>): Promise<CommandResult>;
  /** Copies examples/ in, without anything installed or built, to `examples/` inside the app. */
  copyExamples(): void;
  /** Installs an example folder as it is, its `agent-embed` dependency taken from the tarball. */
  installExample(folder: string): Promise<CommandResult>;
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
      return runCommand('npm', installArgs, { cwd: path, env: env() });
    },
    copyExamples() {
      cpSync(examples, join(path, 'examples'), {
        recursive: true,
        filter: (source) => !['node_modules', '.next', 'next-env.d.ts'].includes(basename(source)),
      });
    },
    installExample(folder) {
      const cwd = join(path, 'examples', folder);
      const manifest = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      };
      // The one change to the example: the unpublished package comes from the tarball, not the checkout.
      manifest.dependencies['agent-embed'] = `file:${tarball}`;
      writeFileSync(join(cwd, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      return runCommand('npm', installArgs, { cwd, env: env() });
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

/** What one generate through an example's proxy gave: the stream's content type, its text, the project's status. */
export interface ProxiedGeneration {
  contentType: string | null;
  events: string;
  projectStatus: string | undefined;
}

/** Sends one generate through the proxy at `${origin}/api/agent` as a signed-in end user, then reads the project. */
export async function generateThroughProxy(origin: string, cookie: string): Promise<ProxiedGeneration> {
  const generate = await fetch(`${origin}/api/agent/agent/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ prompt: 'A landing page for a neighbourhood bakery' }),
  });
  const events = await generate.text();
  const projectId = /"project_id":"([^"]+)"/.exec(events)?.[1] ?? '';
  const status = await fetch(`${origin}/api/agent/agent/project/${projectId}`, { headers: { cookie } });
  const project = (await status.json()) as { project_status?: string };
  return { contentType: generate.headers.get('content-type'), events, projectStatus: project.project_status };
}
