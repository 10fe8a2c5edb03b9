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

/** One event of the recorded build, as the events route sends it (snake_case wire fields). */
export type BenchEvent =
  | { type: 'project_created' | 'stream_end'; project_id: string; app_url: string }
  | { type: 'file_created'; path: string; action: string | undefined }
  | { type: 'tool_progress'; tool: string; message: string; status: string | undefined };

/** The whole build of `steps` steps as the events it streams, from `project_created` to `stream_end`. */
export function benchEvents(steps: number): BenchEvent[] {
  const appUrl = 'https://bench-replay.apps.test/';
  const events: BenchEvent[] = [{ type: 'project_created', project_id: 'bench-replay', app_url: appUrl }];
  for (const step of benchScript(steps)) {
    if (step.type === 'file') events.push({ type: 'file_created', path: step.path, action: step.action });
    else if (step.type === 'tool')
      events.push({ type: 'tool_progress', tool: step.tool, message: step.message, status: step.status });
  }
  events.push({ type: 'stream_end', project_id: 'bench-replay', app_url: appUrl });
  return events;
}
