/**
 * Adding an event type to the `AgentEvent` union without handling it must fail the type-check. This test
 * compiles core with the TypeScript compiler, once as it is and once with one more member in the union
 * (an in-memory edit of events.ts), and reads where the type-check fails.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { agentEventOf, knownEventTypes, parseAgentEvent } from 'agent-embed/core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const eventsFile = resolve(root, 'src/core/wire/events.ts');
const checkedFiles = ['src/core/wire/generation-reducer.ts', 'src/core/store/generation.ts', 'src/core/wire/events.ts'];

/** The files of core with a type error, compiled with events.ts replaced by `eventsText`. */
function filesWithErrors(eventsText: string): string[] {
  const configPath = resolve(root, 'tsconfig.json');
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, root);
  const options = { ...config.options, noEmit: true, skipLibCheck: true };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, shouldCreate) =>
    resolve(fileName) === eventsFile
      ? ts.createSourceFile(fileName, eventsText, language)
      : getSourceFile(fileName, language, onError, shouldCreate);
  const program = ts.createProgram({
    rootNames: checkedFiles.map((file) => resolve(root, file)),
    options,
    host,
  });
  const files = new Set<string>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    if (diagnostic.file !== undefined) files.add(relative(root, diagnostic.file.fileName).split('\\').join('/'));
  }
  return [...files].sort();
}

describe('the event union is handled exhaustively', () => {
  const original = readFileSync(eventsFile, 'utf8');

  it('type-checks as it is', () => {
    expect(filesWithErrors(original)).toEqual([]);
  }, 60_000);

  it('fails the type-check in the parser table, the reducer, the transition table and the log when a new event type is not handled', () => {
    const grown = original.replace(
      '  | StreamErrorEvent\n  | UnknownEvent;',
      "  | StreamErrorEvent\n  | UnknownEvent\n  | { type: 'deploy_started'; url: string };",
    );
    expect(grown).not.toBe(original);
    expect(filesWithErrors(grown)).toEqual([
      'src/core/store/generation.ts',
      'src/core/wire/events.ts',
      'src/core/wire/generation-reducer.ts',
      'src/core/wire/generation-transitions.ts',
    ]);
  }, 60_000);

  it('derives the known wire types from the union: every member but unknown', () => {
    expect([...knownEventTypes].sort()).toEqual([
      'container_progress',
      'container_ready',
      'credits_exhausted',
      'error',
      'file_created',
      'project_created',
      'stream_end',
      'tool_progress',
    ]);
    expect(parseAgentEvent('{"type":"unknown"}')).toMatchObject({
      ok: true,
      event: { type: 'unknown', originalType: 'unknown' },
    });
  });

  it('reads an object already parsed as the parser reads its text (the proxy reads each event once)', () => {
    const known = { type: 'tool_progress', tool: 'write' };
    expect(agentEventOf(known)).toBe(known);
    expect(agentEventOf({ type: 'thinking' })).toEqual({
      type: 'unknown',
      originalType: 'thinking',
      data: { type: 'thinking' },
    });
    expect(agentEventOf({})).toEqual({ type: 'unknown', originalType: undefined, data: {} });
    for (const value of [known, { type: 'thinking' }, {}])
      expect(parseAgentEvent(JSON.stringify(value))).toEqual({ ok: true, event: agentEventOf(value) });
  });
});
