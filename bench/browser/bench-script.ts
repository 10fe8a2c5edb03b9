/** The benchmark's generation: `steps` file and tool steps (two files per tool step), shared by the page and the Node mock. */
import type { MockGenerationStep } from 'agent-embed/mock';

/** A script of `steps` AI-generation steps for the mock's `scenario.script`. */
export function benchScript(steps: number): MockGenerationStep[] {
  const generated: MockGenerationStep[] = [];
  for (let index = 0; index < steps; index++) {
    generated.push(
      index % 3 === 0
        ? {
            type: 'tool',
            tool: index % 2 === 0 ? 'write_files' : 'lint',
            message: `Step ${index} of ${steps}`,
            status: 'running',
          }
        : { type: 'file', path: `src/generated/module-${index}.tsx`, action: index % 7 === 0 ? 'modified' : 'created' },
    );
  }
  return generated;
}
