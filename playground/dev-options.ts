/** Where `npm run dev` listens: `--port N` / `--host H` flags first, then PORT / HOST, then localhost:5173. */
import { parseArgs } from 'node:util';

/** The page's listening options of the playground. */
export interface DevListenOptions {
  port: number;
  host: string;
  /** The built-in mock's port (MOCK_PORT; 0 picks a free one). */
  mockPort: number;
}

function portOf(name: string, raw: string | undefined, fallback: number): number {
  const port = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`${name} must be a port number, not ${raw}.`);
  return port;
}

/** Reads the command line (`--port 5399`, `--port=5399`, `--host 0.0.0.0`) and the environment. */
export function devListenOptions(args: readonly string[], env: Record<string, string | undefined>): DevListenOptions {
  const { values } = parseArgs({
    args: [...args],
    options: { port: { type: 'string' }, host: { type: 'string' } },
    allowPositionals: true,
  });
  return {
    port: portOf(values.port === undefined ? 'PORT' : '--port', values.port ?? env.PORT, 5173),
    host: values.host ?? (env.HOST || 'localhost'),
    mockPort: portOf('MOCK_PORT', env.MOCK_PORT, 0),
  };
}
