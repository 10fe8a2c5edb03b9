/** The mock's generation scripts: what a generation of a prompt "writes", step by step. */
import type { GenerationMode } from '../core/index.js';
import { changeName, pascal, promptSubject } from './mock-names.js';

/** One step of the AI-generation part of a stream (container events come first on a new project). */
export type MockGenerationStep =
  /** A `file_created` event; costs one credit. */
  | { type: 'file'; path: string; action?: 'created' | 'modified' }
  /** A `tool_progress` event. */
  | { type: 'tool'; tool: string; message: string; status?: string }
  /** An `error` event that ends the generation; the project fails. */
  | { type: 'error'; message: string }
  /** Any event sent as is, e.g. a type the client does not know. */
  | { type: 'raw'; event: Record<string, unknown> };

/** What a generation script is told. */
export interface MockGenerationInput {
  prompt: string;
  mode: GenerationMode;
  followUp: boolean;
  projectId: string;
  /** Files the project already has, in creation order. */
  existingFiles: string[];
}

/** Knobs of the default script, or a whole script of your own. */
export interface MockScenario {
  /** Files of a new project (default: 13 in build mode, 9 in design mode). */
  files?: number;
  /** Files touched by a follow-up (default 3: two modified, one created). */
  followUpFiles?: number;
  /** Replaces the default script entirely. */
  script?: (input: MockGenerationInput) => MockGenerationStep[];
  /** The steps of every generation, in place of the default script: `script` as data, for a mock in a worker. */
  steps?: MockGenerationStep[];
  /** Seeded repositories per code-host connection (default 47). */
  repositoryCount?: number;
  /** Report `meta.total_count` as null, as the reference allows. */
  repositoryTotalCountUnknown?: boolean;
}

/** The message of a `credits_exhausted` event. */
export const creditsExhaustedMessage = 'Your team has run out of credits. Please purchase more credits to continue.';

/** The steps of a generation: the scenario's own script or steps, or the default script. */
export function scriptOf(input: MockGenerationInput, scenario: MockScenario): MockGenerationStep[] {
  return scenario.script?.(input) ?? scenario.steps?.slice() ?? defaultScript(input, scenario);
}

/** The default script: a plausible project for the prompt, with tool steps between the files. */
export function defaultScript(input: MockGenerationInput, scenario: MockScenario = {}): MockGenerationStep[] {
  const subject = pascal(promptSubject(input.prompt));
  if (input.followUp) return followUpScript(input, scenario.followUpFiles ?? 3);
  const shared = [
    'package.json',
    'vite.config.ts',
    'index.html',
    'src/main.tsx',
    'src/App.tsx',
    'src/index.css',
    'src/components/Header.tsx',
  ];
  const specific =
    input.mode === 'design'
      ? ['src/components/Hero.tsx', `src/components/${subject}Showcase.tsx`]
      : [
          `src/components/${subject}List.tsx`,
          `src/components/${subject}Form.tsx`,
          'src/lib/api.ts',
          'server/index.ts',
          `server/routes/${subject.toLowerCase()}.ts`,
          'prisma/schema.prisma',
        ];
  const paths = [...shared, ...specific];
  const count = scenario.files ?? paths.length;
  for (let index = paths.length; index < count; index++) paths.push(`src/components/Section${index + 1}.tsx`);
  const files = paths.slice(0, count);
  const steps: MockGenerationStep[] = [
    { type: 'tool', tool: 'plan', message: 'Planning the application structure', status: 'started' },
    {
      type: 'tool',
      tool: 'plan',
      message: `Planned ${files.length} files for a ${input.mode === 'design' ? 'frontend' : 'full-stack'} app`,
      status: 'completed',
    },
  ];
  files.forEach((path, index) => {
    steps.push({ type: 'file', path, action: 'created' });
    if ((index + 1) % 4 === 0 && index + 1 < files.length) {
      steps.push({
        type: 'tool',
        tool: 'write_files',
        message: `Wrote ${index + 1} of ${files.length} files`,
        status: 'running',
      });
    }
  });
  steps.push(
    { type: 'tool', tool: 'install_dependencies', message: 'Installing dependencies', status: 'started' },
    { type: 'tool', tool: 'install_dependencies', message: 'Dependencies installed', status: 'completed' },
    { type: 'tool', tool: 'build', message: 'Building the app', status: 'started' },
    { type: 'tool', tool: 'build', message: 'Build succeeded', status: 'completed' },
  );
  return steps;
}

/** `src/components/<what the prompt asks>.tsx`, numbered from 2 when that path is taken. */
function newComponentPath(prompt: string, taken: ReadonlySet<string>): string {
  const base = `src/components/${changeName(prompt)}`;
  if (!taken.has(`${base}.tsx`)) return `${base}.tsx`;
  for (let number = 2; ; number++) if (!taken.has(`${base}${number}.tsx`)) return `${base}${number}.tsx`;
}

function followUpScript(input: MockGenerationInput, count: number): MockGenerationStep[] {
  const modifiable = ['src/App.tsx', 'src/index.css'].filter((path) => input.existingFiles.includes(path));
  const files: MockGenerationStep[] = [];
  const taken = new Set(input.existingFiles);
  for (let index = 0; index < count; index++) {
    const existing = modifiable[index];
    if (existing !== undefined && index < count - 1) files.push({ type: 'file', path: existing, action: 'modified' });
    else {
      const path = newComponentPath(input.prompt, taken);
      taken.add(path);
      files.push({ type: 'file', path, action: 'created' });
    }
  }
  return [
    { type: 'tool', tool: 'read_context', message: 'Reading the project and the conversation', status: 'started' },
    { type: 'tool', tool: 'read_context', message: `Read ${input.existingFiles.length} files`, status: 'completed' },
    ...files,
    { type: 'tool', tool: 'build', message: 'Building the app', status: 'started' },
    { type: 'tool', tool: 'build', message: 'Build succeeded', status: 'completed' },
  ];
}
