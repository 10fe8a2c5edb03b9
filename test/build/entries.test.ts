/**
 * Runs after `npm run build`: every entry of package.json exists with its types, the React entry keeps
 * 'use client', and core, server and mock import in plain Node with React absent.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; import: string }>;
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
    const chunks = readdirSync(join(root, 'dist')).filter((file) => file.endsWith('.js'));
    expect(readFileSync(join(root, 'dist/index.js'), 'utf8').startsWith('"use client";')).toBe(true);
    for (const chunk of ['core.js', 'server.js', 'mock.js']) {
      expect(chunks).toContain(chunk);
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
  const sandbox = mkdtempSync(join(tmpdir(), 'agent-embed-node-'));
  afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

  // A consumer's node_modules holding the package and its runtime dependencies, and no React.
  const installed = join(sandbox, 'node_modules');
  mkdirSync(join(installed, 'agent-embed'), { recursive: true });
  cpSync(join(root, 'dist'), join(installed, 'agent-embed/dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(installed, 'agent-embed/package.json'));
  for (const dependency of ['zustand', '@microsoft/fetch-event-source']) {
    mkdirSync(dirname(join(installed, dependency)), { recursive: true });
    symlinkSync(join(root, 'node_modules', dependency), join(installed, dependency), 'dir');
  }

  const runNode = (code: string) =>
    execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: sandbox, encoding: 'utf8' }).trim();

  it('has no React to find', () => {
    expect(() => runNode("await import('react')")).toThrow();
  });

  it.each([
    ['agent-embed/core', ['createAgentClient', 'createHttpTransport', 'AgentApiError', 'createAgentStore']],
    ['agent-embed/server', ['createAgentProxy']],
    ['agent-embed/mock', ['createMockAgentApi', 'startMockAgentServer', 'createMockTransport']],
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
