/**
 * Runs after `npm run build`: a CommonJS file can require() every JavaScript entry of the package (Node
 * 20.19+ loads ES modules from require() when the exports entry has a `default` condition).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, root, runtimeDependencies } from './sandbox.js';

const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | Record<string, string>>;
};

/** Every entry whose target is JavaScript: '.', './core', './server', './mock' and the six locale packs. */
const javascriptEntries = Object.entries(packageJson.exports)
  .filter(([, target]) => typeof target !== 'string' && Object.values(target).some((file) => file.endsWith('.js')))
  .map(([entry]) => (entry === '.' ? 'agent-embed' : `agent-embed/${entry.slice(2)}`));

describe('require() from CommonJS', () => {
  const sandbox = createSandbox([...runtimeDependencies, 'react', 'react-dom']);
  afterAll(() => sandbox.remove());

  it('finds the ten JavaScript entries in package.json', () => {
    expect(javascriptEntries).toEqual([
      'agent-embed',
      'agent-embed/core',
      'agent-embed/server',
      'agent-embed/mock',
      ...['de', 'fr', 'es', 'pt-BR', 'ja', 'ar'].map((tag) => `agent-embed/locales/${tag}`),
    ]);
  });

  it('loads every JavaScript entry with its exports', () => {
    const script = join(sandbox.path, 'require-every-entry.cjs');
    writeFileSync(
      script,
      [
        `const entries = ${JSON.stringify(javascriptEntries)};`,
        'const loaded = {};',
        'for (const entry of entries) loaded[entry] = { file: require.resolve(entry), names: Object.keys(require(entry)) };',
        'console.log(JSON.stringify(loaded));',
      ].join('\n'),
    );
    const output = execFileSync(process.execPath, [script], { cwd: sandbox.path, encoding: 'utf8' });
    const loaded = JSON.parse(output) as Record<string, { file: string; names: string[] }>;
    expect(loaded['agent-embed']!.names).toEqual(expect.arrayContaining(['AgentProvider', 'AgentBuilder']));
    expect(loaded['agent-embed/core']!.names).toEqual(expect.arrayContaining(['createAgentClient', 'AgentApiError']));
    expect(loaded['agent-embed/server']!.names).toContain('createAgentProxy');
    // Node takes the `node` condition: the mock with its HTTP server.
    expect(loaded['agent-embed/mock']!.file).toMatch(/mock-node\.js$/);
    expect(loaded['agent-embed/mock']!.names).toEqual(
      expect.arrayContaining(['startMockAgentServer', 'createMockAgentApi', 'createMockTransport']),
    );
    expect(loaded['agent-embed/locales/pt-BR']!.names).toEqual(['ptBR']);
    expect(loaded['agent-embed/locales/ar']!.names).toEqual(['ar']);
  });
});
