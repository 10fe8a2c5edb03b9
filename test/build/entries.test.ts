/**
 * Runs after `npm run build`: every entry of package.json exists with its types, the React entry keeps
 * 'use client', and core, server and mock import in plain Node with React absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Rollup } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, root, runtimeDependencies } from './sandbox.js';

const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | Record<string, string>>;
  dependencies: Record<string, string>;
};

/** A selector list split at its top-level commas (not those inside :is() or :not()). */
function topLevelParts(selectorList: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < selectorList.length; index++) {
    const character = selectorList[index];
    if (character === '(') depth++;
    else if (character === ')') depth--;
    else if (character === ',' && depth === 0) {
      parts.push(selectorList.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(selectorList.slice(start));
  return parts;
}

describe('the built package', () => {
  it('has every file its exports name, types first', () => {
    for (const [entry, target] of Object.entries(packageJson.exports)) {
      const files = typeof target === 'string' ? [target] : Object.values(target);
      if (typeof target !== 'string') expect(Object.keys(target)[0], entry).toBe('types');
      for (const file of files) expect(existsSync(join(root, file)), `${entry} → ${file}`).toBe(true);
    }
  });

  it("keeps 'use client' at the top of every chunk with React code, and only there", () => {
    expect(readFileSync(join(root, 'dist/index.js'), 'utf8').startsWith('"use client";')).toBe(true);
    const localeChunks = ['de', 'fr', 'es', 'pt-BR', 'ja', 'ar'].map((tag) => `locales/${tag}.js`);
    for (const chunk of ['core.js', 'server.js', 'mock.js', 'mock-node.js', ...localeChunks]) {
      expect(existsSync(join(root, 'dist', chunk)), chunk).toBe(true);
      expect(readFileSync(join(root, 'dist', chunk), 'utf8')).not.toMatch(/^["']use client["']/);
    }
  });

  it('ships one stylesheet in the agent-embed cascade layer, never on :root', () => {
    const css = readFileSync(join(root, 'dist/styles.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    expect(css).toMatch(/^\s*@layer agent-embed\s*\{/);
    expect(css).not.toMatch(/:root|(^|[\s,}])(html|body)\s*[{,]/);
    // Every rule sits under the provider's root element.
    const selectors = [...css.matchAll(/([^{};]+)\{/g)]
      .map((match) => match[1]!.trim())
      .filter((selector) => selector !== '' && !selector.startsWith('@') && !/^(from|to|\d+%)$/.test(selector));
    for (const selector of selectors) {
      for (const part of topLevelParts(selector)) expect(part.trim(), selector).toMatch(/^\[data-agent-embed\]/);
    }
  });
});

describe('in plain Node without React', () => {
  const sandbox = createSandbox(runtimeDependencies);
  afterAll(() => sandbox.remove());

  const runNode = (code: string) =>
    execFileSync(process.execPath, ['--input-type=module', '-e', code], {
      cwd: sandbox.path,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();

  it('has no React to find', () => {
    expect(() => runNode("await import('react')")).toThrow();
  });

  it.each([
    ['agent-embed/core', ['createAgentClient', 'createHttpTransport', 'AgentApiError', 'createAgentStore']],
    ['agent-embed/server', ['createAgentProxy']],
    ['agent-embed/mock', ['createMockAgentApi', 'startMockAgentServer', 'createMockTransport']],
    ['agent-embed/locales/de', ['de']],
    ['agent-embed/locales/fr', ['fr']],
    ['agent-embed/locales/es', ['es']],
    ['agent-embed/locales/pt-BR', ['ptBR']],
    ['agent-embed/locales/ja', ['ja']],
    ['agent-embed/locales/ar', ['ar']],
  ])('imports %s', (entry, names) => {
    const exported = JSON.parse(
      runNode(`const m = await import('${entry}'); console.log(JSON.stringify(Object.keys(m)))`),
    ) as string[];
    expect(exported).toEqual(expect.arrayContaining(names));
  });

  it('starts the built mock and answers a status request with the spec body', () => {
    const output = runNode(`
      const { startMockAgentServer } = await import('agent-embed/mock');
      const server = await startMockAgentServer({ port: 0, speed: 'instant' });
      const response = await fetch(server.url + '/agent/project/missing', { headers: { authorization: 'Bearer ' + server.token } });
      console.log(JSON.stringify({ status: response.status, body: await response.json() }));
      await server.close();
    `);
    expect(JSON.parse(output)).toEqual({ status: 404, body: { status: false, message: 'Project not found.' } });
  });
});

describe('the React entry in plain Node', () => {
  it('imports without a DOM', () => {
    const output = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', "const m = await import('./dist/index.js'); console.log(Object.keys(m).join(','))"],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(output).toContain('AgentProvider');
  });
});

describe('agent-embed/mock in a browser bundle', () => {
  const sandbox = createSandbox(runtimeDependencies);
  afterAll(() => sandbox.remove());

  it('bundles for the browser with the proxy but no Redis store, no node: module and no warning, and says startMockAgentServer needs Node', async () => {
    const entry = join(sandbox.path, 'browser-app.js');
    writeFileSync(
      entry,
      "import { createMockTransport, startMockAgentServer } from 'agent-embed/mock';\nexport { createMockTransport, startMockAgentServer };\n",
    );
    const warnings: string[] = [];
    const output = (await build({
      configFile: false,
      root: sandbox.path,
      logLevel: 'silent',
      customLogger: {
        info: () => undefined,
        warn: (message) => warnings.push(message),
        warnOnce: (message) => warnings.push(message),
        error: (message) => warnings.push(message),
        clearScreen: () => undefined,
        hasErrorLogged: () => false,
        hasWarned: false,
      },
      build: {
        write: false,
        minify: false,
        rollupOptions: {
          input: entry,
          preserveEntrySignatures: 'exports-only',
          onwarn: (w) => warnings.push(w.message),
        },
      },
    })) as Rollup.RollupOutput;
    const code = output.output
      .filter((item): item is Rollup.OutputChunk => item.type === 'chunk')
      .map((chunk) => chunk.code)
      .join('\n');
    expect(code).toContain('createMockTransport');
    expect(code).not.toMatch(/["']node:/);
    // The mock transport runs the real proxy (its relay is in the bundle) on the memory store, never Redis's.
    expect(code).toContain('The proxy failed to handle the request.');
    expect(code).not.toMatch(/EVALSHA|NOSCRIPT/);
    expect(code).not.toMatch(/import\(/);
    expect(code).toContain('startMockAgentServer needs Node');
    expect(warnings).toEqual([]);
  });
});
